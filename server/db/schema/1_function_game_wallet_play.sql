-- A game wallet call (server/domain/game-wallet.ts): a bet, a win, a free spin, or the rollback of a bet
-- or a win, of a real-money session the server authenticated. The one implementation of the game wallet's
-- money rules; game_wallet_play_batch applies it to each call of a batch.
--
-- In the order every call of a wallet takes its locks (the wallet row first):
--   1. the wallet locked, while it is the player's in the call's currency and the session the server
--      authenticated (possibly from its cache) still holds: the session of this game, and the provider's
--      key the call was checked with. Else 'changed': the server reads the session again, checks the
--      signature afresh, and calls once more.
--   2. the round (provider, round id) locked: another wallet's round refuses the call (INVALID_VALUE); the
--      call's natural key (round, action, provider's transaction id) already recorded answers that first
--      call again ('replayed', moving nothing), or refuses a different request under it ('duplicate').
--   3. the refusals, before anything is written: new play (a bet, a free spin) needs a live session
--      (SESSION_EXPIRED); a bet an active player not self-excluded (USER_INACTIVE, SELF_EXCLUDED), within
--      the bet and loss limits of the rolling day, week and month when they apply to the currency (net of
--      rollbacks), and a balance that covers it (INSUFFICIENT_BALANCE); a bet, win or free spin an open
--      round (INVALID_VALUE); a win a round (NOT_FOUND) whose wins stay within its stake times the
--      provider's max_win_multiplier ('amount.max'); a win's rollback a balance that can give it back.
--   4. what moves, signed changes of the player's available and bonus balances and of the bonus pool:
--      - a bet is paid from available first, then from the bonus balance; the round keeps the running
--        bonus whose money paid it;
--      - a win is split like the round's stake: its bonus-paid share (rounded up to the currency's
--        precision, so bonus money never becomes cash by rounding) goes where the bonus that paid the
--        stake keeps its money now (bonus_money_home: the bonus balance while it runs, available once
--        completed, the pool once forfeited or expired), the rest to available; a free spin, or a round
--        staked from available alone, pays to available;
--      - a rollback moves back exactly what the call it cancels moved (a win's rollback cancels a free
--        spin's win too), its bonus-paid share from or to where that money is now, and closes the round;
--        one arriving before what it cancels, or a second one, moves nothing but closes the round;
--   5. the round opened (ON CONFLICT: another wallet opening the same round id meanwhile refuses the call)
--      or updated, the ledger transaction posted (ledger_post: house against the player's accounts, the
--      pool), the bet's wagering counted toward the running bonus (bonus_record_wagering, which may
--      complete it), and the call recorded with the balances after it.
-- Refusals return 'refused' and the code, having written nothing; anything raised is a fault.
CREATE OR REPLACE FUNCTION game_wallet_play(
  p_action text,
  p_wallet_id bigint,
  p_user_id bigint,
  p_currency_id integer,
  p_limits_apply boolean,
  p_provider_id integer,
  p_session_id text,
  p_game_id bigint,
  p_game_identifier text,
  p_round_id text,
  p_transaction_id text,
  p_amount numeric,
  p_request_hash text,
  p_ledger_public_id uuid,
  p_ledger_scope text,
  p_ledger_key text,
  p_at timestamptz,
  p_wallet_secret text,
  p_reference_id text
) RETURNS TABLE (out_status text, out_code text, out_action_id bigint, out_ledger_public_id uuid, out_available numeric, out_bonus numeric,
  out_announce text[], out_amount numeric, out_bonus_amount numeric, out_reference_id text, out_created_at timestamptz)
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_rollback boolean := p_action IN ('rollbackBet', 'rollbackWin');
  v_reference text := CASE WHEN p_action IN ('rollbackBet', 'rollbackWin') THEN coalesce(p_reference_id, p_transaction_id) END;
  v_available numeric;
  v_bonus numeric;
  v_expires timestamptz;
  v_round record;
  v_earlier record;
  v_original record;
  v_user record;
  v_bonus_in_play boolean := false;
  v_staked numeric;
  v_moved numeric := coalesce(p_amount, 0);
  v_bonus_part numeric := 0;
  v_available_change numeric := 0;
  v_bonus_change numeric := 0;
  v_pool_change numeric := 0;
  v_home text;
  v_user_bonus bigint;
  v_related bigint;
  v_round_pk bigint;
  v_ledger record;
  v_ledger_id bigint;
  v_ledger_public uuid;
  v_units numeric;
  v_step numeric;
BEGIN
  PERFORM set_config('casino.announce', 'by_server', true);
  IF p_action NOT IN ('bet', 'win', 'freeSpin', 'rollbackBet', 'rollbackWin') THEN
    RAISE EXCEPTION 'no game wallet action %', p_action;
  END IF;

  -- 1. The wallet, while the session holds.
  SELECT w.available, w.bonus, s.expires_at INTO v_available, v_bonus, v_expires
  FROM wallets w CROSS JOIN LATERAL (SELECT s.expires_at FROM game_sessions s WHERE s.id = p_session_id AND s.game_id = p_game_id LIMIT 1) s
  WHERE w.id = p_wallet_id AND w.user_id = p_user_id AND w.currency_id = p_currency_id
    AND (SELECT p.wallet_secret FROM providers p WHERE p.id = p_provider_id) = p_wallet_secret
  FOR UPDATE OF w;
  IF NOT FOUND THEN
    out_status := 'changed';
    RETURN NEXT;
    RETURN;
  END IF;

  -- 2. The round, and a call already recorded under the same key.
  SELECT r.id, r.wallet_id, r.staked_available, r.staked_bonus, r.won, r.closed, r.user_bonus_id INTO v_round
  FROM game_rounds r WHERE r.provider_id = p_provider_id AND r.round_id = p_round_id FOR UPDATE;
  IF FOUND AND v_round.wallet_id <> p_wallet_id THEN
    out_status := 'refused';
    out_code := 'INVALID_VALUE';
    RETURN NEXT;
    RETURN;
  END IF;
  IF v_round.id IS NOT NULL THEN
    SELECT a.id, a.request_hash, a.reference_id, a.amount, a.bonus_amount, a.available_after, a.bonus_after, a.created_at,
      (SELECT l.public_id FROM ledger_transactions l WHERE l.id = a.ledger_transaction_id) AS ledger_public_id
    INTO v_earlier FROM game_wallet_actions a WHERE a.round_pk = v_round.id AND a.action = p_action AND a.transaction_id = p_transaction_id;
    IF FOUND THEN
      IF v_earlier.request_hash <> p_request_hash THEN
        out_status := 'refused';
        out_code := 'duplicate';
      ELSE
        out_status := 'replayed';
        out_action_id := v_earlier.id;
        out_ledger_public_id := v_earlier.ledger_public_id;
        out_available := v_earlier.available_after;
        out_bonus := v_earlier.bonus_after;
        out_announce := ARRAY[]::text[];
        out_amount := v_earlier.amount;
        out_bonus_amount := v_earlier.bonus_amount;
        out_reference_id := v_earlier.reference_id;
        out_created_at := v_earlier.created_at;
      END IF;
      RETURN NEXT;
      RETURN;
    END IF;
  END IF;

  -- 3. Refusals, and 4. what moves.
  out_status := 'refused';
  IF p_action IN ('bet', 'freeSpin') AND v_expires <= p_at THEN
    out_code := 'SESSION_EXPIRED';
  ELSIF p_action = 'bet' THEN
    SELECT u.active, u.self_exclusion_permanent OR u.self_excluded_until > p_at AS excluded,
      EXISTS (SELECT 1 FROM user_bonuses b WHERE b.user_id = u.id AND b.status IN ('active', 'queued')) AS bonus_in_play
    INTO v_user FROM users u WHERE u.id = p_user_id;
    out_code := CASE WHEN NOT v_user.active THEN 'USER_INACTIVE' WHEN v_user.excluded THEN 'SELF_EXCLUDED' END;
    v_bonus_in_play := v_user.bonus_in_play;
  END IF;
  IF out_code IS NULL AND p_action IN ('bet', 'win', 'freeSpin') AND v_round.closed THEN
    out_code := 'INVALID_VALUE';
  ELSIF out_code IS NULL AND p_action = 'win' AND v_round.id IS NULL THEN
    out_code := 'NOT_FOUND';
  END IF;
  IF p_action = 'bet' AND out_code IS NULL AND p_limits_apply
    AND EXISTS (SELECT 1 FROM gambling_limits l WHERE l.user_id = p_user_id AND l.kind IN ('bet', 'loss')) THEN
    out_code := game_play_limit_exceeded(p_user_id, p_currency_id, p_amount, p_at);
  END IF;

  IF out_code IS NULL AND p_action = 'bet' THEN
    v_bonus_part := p_amount - least(p_amount, v_available);
    IF v_bonus_part > v_bonus THEN
      out_code := 'INSUFFICIENT_BALANCE';
    END IF;
    v_available_change := -(p_amount - v_bonus_part);
    v_bonus_change := -v_bonus_part;
    v_user_bonus := CASE WHEN v_bonus_part > 0 AND v_round.user_bonus_id IS NULL THEN bonus_running_id(p_wallet_id, p_at) ELSE v_round.user_bonus_id END;
  ELSIF out_code IS NULL AND p_action IN ('win', 'freeSpin') THEN
    v_staked := coalesce(v_round.staked_available, 0) + coalesce(v_round.staked_bonus, 0);
    IF p_action = 'win' AND v_round.won + p_amount > v_staked * (SELECT p.max_win_multiplier FROM providers p WHERE p.id = p_provider_id) THEN
      out_code := 'amount.max';
    ELSIF coalesce(v_round.staked_bonus, 0) > 0 AND p_amount > 0 THEN
      -- The bonus share in units of 1e-8, rounded up, then up to the currency's precision (exact integers).
      v_units := div(p_amount * 100000000 * v_round.staked_bonus * 100000000 + v_staked * 100000000 - 1, v_staked * 100000000);
      v_step := 10::numeric ^ (8 - (SELECT c.decimals FROM currencies c WHERE c.id = p_currency_id));
      v_bonus_part := least((div(v_units + v_step - 1, v_step) * v_step / 100000000)::numeric(30, 8), p_amount);
      v_home := bonus_money_home(v_round.user_bonus_id, p_wallet_id, p_at);
      v_available_change := CASE v_home WHEN 'available' THEN p_amount ELSE p_amount - v_bonus_part END;
      v_bonus_change := CASE v_home WHEN 'bonus' THEN v_bonus_part ELSE 0 END;
      v_pool_change := CASE v_home WHEN 'pool' THEN v_bonus_part ELSE 0 END;
    ELSE
      v_available_change := p_amount;
    END IF;
  ELSIF out_code IS NULL AND v_rollback THEN
    v_moved := 0;
    IF v_round.id IS NOT NULL THEN
      SELECT o.amount, o.bonus_amount, o.ledger_transaction_id INTO v_original FROM game_wallet_actions o
      WHERE o.round_pk = v_round.id AND o.transaction_id = v_reference AND o.action = CASE p_action WHEN 'rollbackBet' THEN 'bet' ELSE 'win' END;
      IF NOT FOUND AND p_action = 'rollbackWin' THEN
        SELECT o.amount, o.bonus_amount, o.ledger_transaction_id INTO v_original FROM game_wallet_actions o
        WHERE o.round_pk = v_round.id AND o.transaction_id = v_reference AND o.action = 'freeSpin';
      END IF;
      IF FOUND AND NOT EXISTS (SELECT 1 FROM game_wallet_actions x WHERE x.round_pk = v_round.id AND x.action = p_action AND x.reference_id = v_reference) THEN
        v_moved := v_original.amount;
        v_bonus_part := v_original.bonus_amount;
        v_related := v_original.ledger_transaction_id;
        v_home := CASE WHEN v_bonus_part > 0 THEN bonus_money_home(v_round.user_bonus_id, p_wallet_id, p_at) ELSE 'bonus' END;
        IF p_action = 'rollbackBet' THEN
          -- The stake back as it was paid, its bonus part to where the bonus keeps its money now.
          v_available_change := CASE v_home WHEN 'available' THEN v_moved ELSE v_moved - v_bonus_part END;
          v_bonus_change := CASE v_home WHEN 'bonus' THEN v_bonus_part ELSE 0 END;
          v_pool_change := CASE v_home WHEN 'pool' THEN v_bonus_part ELSE 0 END;
        ELSIF v_home = 'bonus' THEN
          -- The win taken back as it was paid; bonus money since wagered away is taken from available instead.
          v_bonus_change := -least(v_bonus_part, v_bonus);
          v_available_change := -(v_moved + v_bonus_change);
        ELSE
          v_available_change := CASE v_home WHEN 'available' THEN -v_moved ELSE -(v_moved - v_bonus_part) END;
          v_pool_change := CASE v_home WHEN 'pool' THEN -v_bonus_part ELSE 0 END;
        END IF;
        IF v_available + v_available_change < 0 OR v_bonus + v_bonus_change < 0 THEN
          out_code := 'INSUFFICIENT_BALANCE';
        END IF;
      END IF;
    END IF;
  END IF;
  IF out_code IS NOT NULL THEN
    RETURN NEXT;
    RETURN;
  END IF;

  -- 5. The round, the ledger, the wagering, the call.
  IF v_round.id IS NULL THEN
    INSERT INTO game_rounds AS r (provider_id, round_id, session_id, user_id, wallet_id, currency_id, game_id, free_spin, staked_available,
      staked_bonus, won, settled, closed, user_bonus_id, created_at, updated_at)
    VALUES (p_provider_id, p_round_id, p_session_id, p_user_id, p_wallet_id, p_currency_id, p_game_id, p_action = 'freeSpin',
      CASE p_action WHEN 'bet' THEN -v_available_change ELSE 0 END, CASE p_action WHEN 'bet' THEN -v_bonus_change ELSE 0 END,
      CASE p_action WHEN 'freeSpin' THEN p_amount ELSE 0 END, p_action = 'freeSpin', v_rollback, v_user_bonus, p_at, p_at)
    ON CONFLICT (provider_id, round_id) DO NOTHING
    RETURNING r.id INTO v_round_pk;
    IF v_round_pk IS NULL THEN
      out_code := 'INVALID_VALUE';
      RETURN NEXT;
      RETURN;
    END IF;
  ELSE
    v_round_pk := v_round.id;
    UPDATE game_rounds r SET
      staked_available = r.staked_available + CASE p_action WHEN 'bet' THEN -v_available_change
        WHEN 'rollbackBet' THEN -(v_moved - v_bonus_part) ELSE 0 END,
      staked_bonus = r.staked_bonus + CASE p_action WHEN 'bet' THEN -v_bonus_change WHEN 'rollbackBet' THEN -v_bonus_part ELSE 0 END,
      won = r.won + CASE WHEN p_action IN ('win', 'freeSpin') THEN p_amount WHEN p_action = 'rollbackWin' THEN -v_moved ELSE 0 END,
      settled = r.settled OR p_action IN ('win', 'freeSpin'),
      closed = r.closed OR v_rollback,
      user_bonus_id = CASE WHEN p_action = 'bet' THEN v_user_bonus ELSE r.user_bonus_id END,
      updated_at = p_at
    WHERE r.id = v_round_pk;
  END IF;

  IF v_available_change <> 0 OR v_bonus_change <> 0 OR v_pool_change <> 0 THEN
    SELECT l.out_id, l.out_public_id, l.out_replayed, l.out_available, l.out_bonus INTO v_ledger
    FROM ledger_post('game.' || lower(p_action), p_at,
      ARRAY[p_wallet_id, p_wallet_id, NULL, NULL], ARRAY[NULL, NULL, p_currency_id, p_currency_id], ARRAY['available', 'bonus', 'house', 'bonus_pool'],
      ARRAY[v_available_change, v_bonus_change, -(v_available_change + v_bonus_change + v_pool_change), v_pool_change],
      p_ledger_scope, p_ledger_key, p_wallet_id, 'casino', p_action, 'completed', v_moved, p_game_identifier, v_related, p_ledger_public_id) l;
    IF v_ledger.out_replayed THEN
      RAISE EXCEPTION 'the ledger holds call % of round % though the call is not recorded', p_transaction_id, p_round_id;
    END IF;
    v_ledger_id := v_ledger.out_id;
    v_ledger_public := v_ledger.out_public_id;
    v_available := v_ledger.out_available;
    v_bonus := v_ledger.out_bonus;
  END IF;
  -- (A player with no bonus active or queued has no wagering to count.)
  IF (p_action = 'bet' AND v_bonus_in_play) OR (p_action = 'rollbackBet' AND v_moved <> 0) THEN
    -- Wagering may complete the running bonus and move its money: the balances are read after it.
    PERFORM bonus_record_wagering(p_user_id, p_wallet_id, p_currency_id, CASE p_action WHEN 'bet' THEN p_amount ELSE -v_moved END, p_at);
    SELECT w.available, w.bonus INTO v_available, v_bonus FROM wallets w WHERE w.id = p_wallet_id;
  END IF;

  INSERT INTO game_wallet_actions AS a (round_pk, action, transaction_id, reference_id, user_id, amount, bonus_amount, request_hash,
    ledger_transaction_id, available_after, bonus_after, created_at)
  VALUES (v_round_pk, p_action, p_transaction_id, v_reference, p_user_id, v_moved, v_bonus_part, p_request_hash, v_ledger_id, v_available,
    v_bonus, p_at)
  RETURNING a.id INTO out_action_id;
  out_status := 'done';
  out_ledger_public_id := v_ledger_public;
  out_available := v_available;
  out_bonus := v_bonus;
  out_announce := CASE WHEN v_ledger_public IS NOT NULL THEN ARRAY[json_build_object('u', p_user_id, 'k', 'wallets', 'id', p_user_id)::text]
    ELSE ARRAY[]::text[] END;
  out_amount := v_moved;
  out_bonus_amount := v_bonus_part;
  out_reference_id := v_reference;
  out_created_at := p_at;
  RETURN NEXT;
END
$$;
