-- The ledger's commit-time check (migration 0015) skips the ledger transaction a one-statement money
-- call writes (game_wallet_play, deposit_notification_apply, withdrawal_hold): each of those writes one
-- ledger transaction whose entries balance by construction, in the same statement that writes it: two
-- entries of one amount with opposite signs, both in the currency of the transaction's wallet (the
-- wallet's own account and the currency's system account, or two accounts of the wallet; the transaction's
-- foreign key onto the wallet holds its currency), and the statement fails unless both were written.
-- Checking it again at commit cost each call a deferred trigger and its query, about a tenth of the
-- database's time for a bet. The call names the one ledger transaction it vouches for by its public id in
-- a setting of its own database transaction; every other ledger transaction, whoever writes it and in
-- whatever transaction, is checked at commit as before.
DROP TRIGGER ledger_transactions_balanced ON ledger_transactions;
CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (current_setting('casino.ledger_balanced_by', true) IS DISTINCT FROM NEW.public_id::text)
  EXECUTE FUNCTION ledger_assert_transaction_balanced();
