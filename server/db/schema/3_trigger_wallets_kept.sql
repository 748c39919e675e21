DROP TRIGGER IF EXISTS wallets_kept ON wallets;
CREATE TRIGGER wallets_kept BEFORE DELETE OR UPDATE OF id, user_id, currency_id ON wallets
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('id', 'user_id', 'currency_id');
