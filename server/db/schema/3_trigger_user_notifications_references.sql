DROP TRIGGER IF EXISTS user_notifications_references ON user_notifications;
CREATE TRIGGER user_notifications_references AFTER INSERT ON user_notifications
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION user_notifications_check_references();
