DROP TRIGGER IF EXISTS sessions_ended_announce ON sessions;
CREATE TRIGGER sessions_ended_announce AFTER UPDATE OF revoked_at ON sessions
  FOR EACH ROW
  WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION announce_session_ended();
