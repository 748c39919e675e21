-- A wallet's balances or selection changed, announced only where the transaction does not announce it
-- itself: the test of casino.announce is in WHEN, so the money paths queue no after-trigger event for
-- the wallet rows they move (announce_wallet_change keeps its own test).
DROP TRIGGER IF EXISTS wallets_announce ON wallets;
CREATE TRIGGER wallets_announce AFTER UPDATE ON wallets
  FOR EACH ROW
  WHEN ((OLD.available IS DISTINCT FROM NEW.available OR OLD.pending IS DISTINCT FROM NEW.pending
        OR OLD.bonus IS DISTINCT FROM NEW.bonus OR OLD.selected IS DISTINCT FROM NEW.selected)
        AND current_setting('casino.announce', true) IS DISTINCT FROM 'by_server')
  EXECUTE FUNCTION announce_wallet_change();
