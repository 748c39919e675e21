DROP TRIGGER IF EXISTS user_notifications_references_kept ON user_notifications;
CREATE TRIGGER user_notifications_references_kept BEFORE UPDATE OF user_id ON user_notifications
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('user_id');
