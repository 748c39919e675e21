DROP TRIGGER IF EXISTS game_rounds_kept ON game_rounds;
CREATE TRIGGER game_rounds_kept BEFORE DELETE OR UPDATE OF id, session_id, wallet_id, user_id, currency_id ON game_rounds
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('id', 'session_id', 'wallet_id', 'user_id', 'currency_id');
