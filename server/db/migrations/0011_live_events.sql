-- The players' live updates (GET /user/events): every change a player should see at once is announced
-- on the channel `casino_events` when its transaction commits (NOTIFY is transactional: a rolled-back
-- change announces nothing), with a small JSON payload naming the player, the kind and the row:
--   {"u": user id, "k": "wallets" | "deposit" | "withdrawal" | "notification", "id": row id (the user's for wallets)}
-- Every server instance LISTENs and tells the streams it holds; each reads the row itself, so a payload
-- never nears NOTIFY's 8000-byte limit. Identical payloads within one transaction are delivered once
-- (a bet and its win in one request announce the wallets once).

CREATE FUNCTION announce_wallet_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Named by the player, not the wallet: a transaction that moves several of their wallets (a selection
  -- unselects one and selects another) announces them once, since the stream sends the whole list.
  PERFORM pg_notify('casino_events', json_build_object('u', NEW.user_id, 'k', 'wallets', 'id', NEW.user_id)::text);
  RETURN NULL;
END;
$$;

-- Any balance moved, or another wallet selected.
CREATE TRIGGER wallets_announce AFTER UPDATE ON wallets
  FOR EACH ROW
  WHEN (OLD.available IS DISTINCT FROM NEW.available OR OLD.pending IS DISTINCT FROM NEW.pending
        OR OLD.bonus IS DISTINCT FROM NEW.bonus OR OLD.selected IS DISTINCT FROM NEW.selected)
  EXECUTE FUNCTION announce_wallet_change();

CREATE FUNCTION announce_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('casino_events', json_build_object('u', NEW.user_id, 'k', TG_ARGV[0], 'id', NEW.id)::text);
  RETURN NULL;
END;
$$;

-- A deposit seen, each confirmation, credited, or found below the minimum.
CREATE TRIGGER deposits_announce AFTER INSERT OR UPDATE ON deposits
  FOR EACH ROW EXECUTE FUNCTION announce_row('deposit');

-- A withdrawal request accepted by the provider, then paid out or failed.
CREATE TRIGGER withdrawals_announce AFTER INSERT OR UPDATE OF status ON withdrawals
  FOR EACH ROW EXECUTE FUNCTION announce_row('withdrawal');

-- A notification written for the player.
CREATE TRIGGER user_notifications_announce AFTER INSERT ON user_notifications
  FOR EACH ROW EXECUTE FUNCTION announce_row('notification');
