-- A deposit's references, checked once per statement as migration 0027 checks the game wallet's, and not
-- at all for deposit_notification_apply_batch's own write. Three foreign keys ran a query of their own,
-- and took a KEY SHARE lock, for every transfer seen and every one credited:
--
--   deposits (deposit_address_id) -> deposit_addresses (id)             deposits_deposit_address_id_fkey
--   deposits (wallet_id, user_id, currency_id) -> wallets                deposits_wallet_user_currency
--   user_notifications (user_id) -> users (id)                           user_notifications_user_id_fkey
--
-- - Every statement that inserts into deposits or user_notifications has every row it wrote checked at its
--   end, in one query over the statement's transition table (same names, error code 23503 and message as
--   the foreign keys), unless the statement is the write of deposit_notification_apply_batch. That write
--   already runs with casino.references_checked on (migration 0027), and it vouches for these rows too: a
--   transfer's address, wallet, player and currency are those of the address and wallet rows it read
--   (deposit_addresses joined to wallets), and the player told of a credit is the wallet's, which
--   wallets_user_id_fkey keeps.
-- - The rows referred to stay: a deposit address and a player are never deleted, and their ids never
--   change; nor do a deposit's address, wallet, player and currency, or a notification's player. The
--   triggers that refuse those changes fire once per statement, only on a delete or on an update that
--   names such a column, which no path makes (wallets are kept since migration 0027).
-- - A deposit's two ledger transactions keep their deferred foreign keys: deposit_notification_apply writes
--   the deposit before its ledger transaction, so they can only be checked at commit.
ALTER TABLE deposits DROP CONSTRAINT deposits_deposit_address_id_fkey;
ALTER TABLE deposits DROP CONSTRAINT deposits_wallet_user_currency;
ALTER TABLE user_notifications DROP CONSTRAINT user_notifications_user_id_fkey;

-- Rows are looked up by their keys, each in a subquery of its own, never by scanning the referred table
-- (as in migration 0027).
CREATE FUNCTION deposits_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  SELECT n.deposit_address_id INTO v_missing
  FROM (SELECT DISTINCT w.deposit_address_id FROM written w) n
  LEFT JOIN LATERAL (SELECT a.id FROM deposit_addresses a WHERE a.id = n.deposit_address_id LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('deposits', 'deposits_deposit_address_id_fkey', 'deposit_address_id', v_missing.deposit_address_id::text,
      'deposit_addresses');
  END IF;
  SELECT n.wallet_id, n.user_id, n.currency_id INTO v_missing
  FROM (SELECT DISTINCT w.wallet_id, w.user_id, w.currency_id FROM written w) n
  LEFT JOIN LATERAL (
    SELECT x.id FROM wallets x WHERE x.id = n.wallet_id AND x.user_id = n.user_id AND x.currency_id = n.currency_id LIMIT 1
  ) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('deposits', 'deposits_wallet_user_currency', 'wallet_id, user_id, currency_id',
      concat_ws(', ', v_missing.wallet_id, v_missing.user_id, v_missing.currency_id), 'wallets');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER deposits_references AFTER INSERT ON deposits
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION deposits_check_references();

CREATE FUNCTION user_notifications_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  SELECT n.user_id INTO v_missing
  FROM (SELECT DISTINCT w.user_id FROM written w) n
  LEFT JOIN LATERAL (SELECT u.id FROM users u WHERE u.id = n.user_id LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('user_notifications', 'user_notifications_user_id_fkey', 'user_id', v_missing.user_id::text, 'users');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER user_notifications_references AFTER INSERT ON user_notifications
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION user_notifications_check_references();

-- The rows referred to are kept with their keys, and the referring columns keep their values (references_kept,
-- migration 0027). Deposits and notifications themselves may go: nothing checked refers to them.
CREATE TRIGGER deposit_addresses_kept BEFORE DELETE OR UPDATE OF id ON deposit_addresses
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('id');
CREATE TRIGGER users_kept BEFORE DELETE OR UPDATE OF id ON users
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('id');
CREATE TRIGGER deposits_references_kept BEFORE UPDATE OF deposit_address_id, wallet_id, user_id, currency_id ON deposits
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('deposit_address_id', 'wallet_id', 'user_id', 'currency_id');
CREATE TRIGGER user_notifications_references_kept BEFORE UPDATE OF user_id ON user_notifications
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('user_id');
