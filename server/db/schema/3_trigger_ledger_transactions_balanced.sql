-- Every ledger transaction is checked at commit (ledger_assert_transaction_balanced): its entries are two
-- or more, on accounts of their currency, summing to zero per currency. No setting or writer skips it, the
-- ledger's own writer (ledger_post_many, which checks a posting before it writes it) included.
DROP TRIGGER IF EXISTS ledger_transactions_balanced ON ledger_transactions;
CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION ledger_assert_transaction_balanced();
