DROP TRIGGER IF EXISTS wallets_open_ledger_accounts ON wallets;
CREATE TRIGGER wallets_open_ledger_accounts AFTER INSERT ON wallets
  FOR EACH ROW EXECUTE FUNCTION ledger_open_wallet_accounts();
