-- A notification written for the player.
DROP TRIGGER IF EXISTS user_notifications_announce ON user_notifications;
CREATE TRIGGER user_notifications_announce AFTER INSERT ON user_notifications
  FOR EACH ROW EXECUTE FUNCTION announce_row('notification');
