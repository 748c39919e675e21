-- The ledger's database check, once per ledger transaction at commit (ledger_transactions_balanced), in
-- one query: the transaction has two entries or more, each entry's account is of the entry's currency,
-- and the entries sum to zero per currency. Entries can only be written in the database transaction that
-- wrote their ledger transaction (the composite foreign key onto (id, xact)), so the check at its commit
-- sees all of them, in whatever order they were written.
CREATE OR REPLACE FUNCTION ledger_assert_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  entry_count integer := 0;
  per_currency record;
BEGIN
  FOR per_currency IN
    SELECT e.currency_id, count(*)::integer AS entries, sum(e.amount) AS total,
      bool_or(a.id IS NULL OR a.currency_id <> e.currency_id) AS foreign_account
    FROM ledger_entries e LEFT JOIN ledger_accounts a ON a.id = e.account_id
    WHERE e.transaction_id = NEW.id GROUP BY e.currency_id
  LOOP
    IF per_currency.foreign_account THEN
      RAISE EXCEPTION 'ledger transaction % has an entry on an account that is not of its currency %', NEW.id, per_currency.currency_id
        USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_entries_account_currency';
    END IF;
    IF per_currency.total <> 0 THEN
      RAISE EXCEPTION 'ledger transaction % does not balance: its entries in currency % sum to %', NEW.id, per_currency.currency_id, per_currency.total
        USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_entries_balanced';
    END IF;
    entry_count := entry_count + per_currency.entries;
  END LOOP;
  IF entry_count < 2 THEN
    RAISE EXCEPTION 'ledger transaction % has % entries; a balance change needs at least two', NEW.id, entry_count
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transactions_has_entries';
  END IF;
  RETURN NULL;
END
$$;
