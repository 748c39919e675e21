-- Every ledger transaction is checked at commit, except those the ledger's writer vouches for by their
-- public id in casino.ledger_balanced_by, a setting of its own database transaction: ledger_post checks
-- a posting's entries (two or more, on known accounts, summing to zero per currency) before it writes
-- them, so they balance by construction. A check at commit cost each call a deferred trigger and its
-- query, about a tenth of the database's time for a bet; a transaction written any other way is checked.
DROP TRIGGER IF EXISTS ledger_transactions_balanced ON ledger_transactions;
CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((NEW.public_id::text = ANY (string_to_array(current_setting('casino.ledger_balanced_by', true), ','))) IS NOT TRUE)
  EXECUTE FUNCTION ledger_assert_transaction_balanced();
