DROP TRIGGER IF EXISTS users_inactivated ON users;
CREATE TRIGGER users_inactivated AFTER UPDATE OF active ON users
  FOR EACH ROW
  WHEN (OLD.active AND NOT NEW.active)
  EXECUTE FUNCTION revoke_sessions_of_inactive_user();
