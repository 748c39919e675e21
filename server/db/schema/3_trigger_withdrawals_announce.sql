-- A withdrawal request accepted by the provider, then paid out or failed.
DROP TRIGGER IF EXISTS withdrawals_announce ON withdrawals;
CREATE TRIGGER withdrawals_announce AFTER INSERT OR UPDATE OF status ON withdrawals
  FOR EACH ROW EXECUTE FUNCTION announce_row('withdrawal');
