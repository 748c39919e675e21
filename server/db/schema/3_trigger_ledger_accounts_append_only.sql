DROP TRIGGER IF EXISTS ledger_accounts_append_only ON ledger_accounts;
CREATE TRIGGER ledger_accounts_append_only BEFORE UPDATE OR DELETE ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
