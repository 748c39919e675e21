-- A deposit seen, each confirmation, credited, or found below the minimum.
DROP TRIGGER IF EXISTS deposits_announce ON deposits;
CREATE TRIGGER deposits_announce AFTER INSERT OR UPDATE ON deposits
  FOR EACH ROW EXECUTE FUNCTION announce_row('deposit');
