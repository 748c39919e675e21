-- An entry's account held by a foreign key again, for every writer: the account exists and is of the
-- entry's currency. Migration 0015 had dropped the key for the commit-time check of each ledger
-- transaction, which the ledger's writer then skipped for the transactions it wrote (a session setting,
-- casino.ledger_balanced_by, now gone): the entries of those transactions had no check of their account
-- but the writer's own. Same name as the check's refusal, so a refusal reads as it did. Adding it validates
-- the entries already written.
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_account_currency
  FOREIGN KEY (account_id, currency_id) REFERENCES ledger_accounts (id, currency_id);
