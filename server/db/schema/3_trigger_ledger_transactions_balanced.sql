DROP TRIGGER IF EXISTS ledger_transactions_balanced ON ledger_transactions;
CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((NEW.public_id::text = ANY (string_to_array(current_setting('casino.ledger_balanced_by', true), ','))) IS NOT TRUE)
  EXECUTE FUNCTION ledger_assert_transaction_balanced();
