-- Ledger transactions are append-only: an insert is the only way a row gets its wallet.
DROP TRIGGER IF EXISTS ledger_transactions_references ON ledger_transactions;
CREATE TRIGGER ledger_transactions_references AFTER INSERT ON ledger_transactions
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION ledger_transactions_check_references();
