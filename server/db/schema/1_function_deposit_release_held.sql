-- Held deposit money released (server/domain/held-deposits.ts calls it at each read of the wallets or of the
-- limits; deposit_notification_apply before each credit in the limits' currency). Money over a deposit limit
-- is held (the wallet's `held` balance: withdrawable, not playable, not counted as deposited); as the limit
-- windows empty, each of the player's wallets with held money gets back to available what
-- deposit_limit_room now allows (all of it in a currency without deposit limits), counted as deposited at
-- the time of its release (deposit_releases). A release moves available, so it is a row of the player's
-- transaction list: type `deposit`, action `depositRelease`, completed. The player's deposit-limit
-- reckoning is serialised by a transaction-level advisory lock taken before any wallet: every caller takes
-- it before anything else of the player's (deposit_notification_apply before it records the deposit, which
-- locks the wallet's key).
-- Returns the number of releases.
CREATE OR REPLACE FUNCTION deposit_release_held(p_user_id bigint, p_limits_currency text, p_at timestamptz) RETURNS integer
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_wallet record;
  v_room numeric;
  v_release numeric;
  v_posted bigint;
  v_released integer := 0;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM wallets w WHERE w.user_id = p_user_id AND w.held > 0) THEN
    RETURN 0;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('deposit-limits:' || p_user_id, 0));
  FOR v_wallet IN
    SELECT w.id, w.currency_id, w.held, (SELECT c.code FROM currencies c WHERE c.id = w.currency_id) AS code
    FROM wallets w WHERE w.user_id = p_user_id AND w.held > 0 ORDER BY w.id FOR UPDATE
  LOOP
    v_room := CASE WHEN v_wallet.code = p_limits_currency THEN deposit_limit_room(p_user_id, v_wallet.currency_id, p_at) END;
    v_release := CASE WHEN v_room IS NULL OR v_room > v_wallet.held THEN v_wallet.held ELSE v_room END;
    CONTINUE WHEN v_release <= 0;
    SELECT l.out_id INTO v_posted FROM ledger_post('deposit.release', p_at, ARRAY[v_wallet.id, v_wallet.id], ARRAY[NULL, NULL]::integer[],
      ARRAY['held', 'available'], ARRAY[-v_release, v_release], NULL, NULL, v_wallet.id, 'deposit', 'depositRelease', 'completed', v_release) l;
    INSERT INTO deposit_releases (wallet_id, user_id, currency_id, amount, transaction_id, released_at)
    VALUES (v_wallet.id, p_user_id, v_wallet.currency_id, v_release, v_posted, p_at);
    v_released := v_released + 1;
  END LOOP;
  RETURN v_released;
END
$$;
