DROP TRIGGER IF EXISTS deposits_references_kept ON deposits;
CREATE TRIGGER deposits_references_kept BEFORE UPDATE OF deposit_address_id, wallet_id, user_id, currency_id ON deposits
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('deposit_address_id', 'wallet_id', 'user_id', 'currency_id');
