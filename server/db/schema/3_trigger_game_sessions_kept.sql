DROP TRIGGER IF EXISTS game_sessions_kept ON game_sessions;
CREATE TRIGGER game_sessions_kept BEFORE DELETE OR UPDATE OF id ON game_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('id');
