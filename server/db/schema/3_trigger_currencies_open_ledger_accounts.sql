DROP TRIGGER IF EXISTS currencies_open_ledger_accounts ON currencies;
CREATE TRIGGER currencies_open_ledger_accounts AFTER INSERT ON currencies
  FOR EACH ROW EXECUTE FUNCTION ledger_open_system_accounts();
