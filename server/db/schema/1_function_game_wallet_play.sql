-- A game wallet bet, win or rollback in one statement from the server (server/domain/game-wallet.ts): the
-- common case, a bet paid from the available balance by a player with no bonus and no bet or loss limit
-- in play, a win of a round staked from the available balance alone that keeps the round's wins within
-- its stake times the provider's max_win_multiplier, or the rollback of such a call. In the order every
-- call of a wallet takes its locks (the wallet row first):
--   1. the wallet locked, only while it is the player's in the call's currency, the session the server
--      authenticated from its cache still holds (the provider's key the call was checked with, and for a
--      bet the session not expired) and, for a bet, available covers it (else SQLSTATE GW002: the server
--      reads the session again and checks the signature afresh);
--   2. (bet) the player may bet: active, not self-excluded, no bonus of this wallet to wager, no limit
--      to check (read after the wallet's lock, so it sees what committed before);
--   3. the round opened or its stake added (bet), its win added (win), refused unless it is this
--      wallet's and open;
--   4. the ledger transaction posted by ledger_post (house against the player's available);
--   5. the call recorded on its natural key (round, action, the provider's transaction id).
-- A replay is found in 4 (the ledger's key) or 5 (ON CONFLICT DO NOTHING finds the first call's row), and every case this
-- function does not take (a bonus in play, a limit, a balance too low, a closed or foreign round, a
-- stake with a bonus part, a win past the bound, ...) raises SQLSTATE GW001 before it commits: nothing
-- stays, and the server runs the general path, which answers replays and refusals.
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
) RETURNS TABLE (out_action_id bigint, out_ledger_id bigint, out_available numeric, out_bonus numeric, out_announce text[], out_amount numeric)
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_available numeric;
  v_bonus numeric;
  v_round bigint;
  v_may_bet boolean;
  v_ledger bigint;
  v_action bigint;
  v_change numeric;
  v_moved numeric := p_amount;
  v_replayed boolean;
  v_related bigint;
  v_original_bonus numeric;
  v_rolled_back boolean;
  v_bonus_in_play boolean;
BEGIN
  PERFORM set_config('casino.announce', 'by_server', true);
  IF p_action = 'bet' THEN
    IF p_amount <= 0 THEN
      RAISE EXCEPTION 'a bet moves a positive amount' USING ERRCODE = 'GW001';
    END IF;
    SELECT w.available, w.bonus INTO v_available, v_bonus FROM wallets w
    WHERE w.id = p_wallet_id AND w.user_id = p_user_id AND w.currency_id = p_currency_id AND w.available >= p_amount
      AND EXISTS (SELECT 1 FROM game_sessions s WHERE s.id = p_session_id AND s.game_id = p_game_id AND s.expires_at > p_at)
      AND (SELECT p.wallet_secret FROM providers p WHERE p.id = p_provider_id) = p_wallet_secret
    FOR UPDATE OF w;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'the available balance does not cover the bet, or the session changed' USING ERRCODE = 'GW002';
    END IF;
    SELECT u.active AND NOT u.self_exclusion_permanent AND (u.self_excluded_until IS NULL OR u.self_excluded_until <= p_at)
      AND NOT EXISTS (SELECT 1 FROM user_bonuses b WHERE b.user_id = p_user_id AND b.wallet_id = p_wallet_id AND b.status IN ('active', 'queued'))
      AND (NOT p_limits_apply OR NOT EXISTS (SELECT 1 FROM gambling_limits l WHERE l.user_id = p_user_id AND l.kind IN ('bet', 'loss')))
    INTO v_may_bet FROM users u WHERE u.id = p_user_id;
    IF v_may_bet IS NOT TRUE THEN
      RAISE EXCEPTION 'the bet needs the general path' USING ERRCODE = 'GW001';
    END IF;
    INSERT INTO game_rounds AS r (provider_id, round_id, session_id, user_id, wallet_id, currency_id, game_id, staked_available, created_at, updated_at)
    VALUES (p_provider_id, p_round_id, p_session_id, p_user_id, p_wallet_id, p_currency_id, p_game_id, p_amount, p_at, p_at)
    ON CONFLICT (provider_id, round_id) DO UPDATE SET staked_available = r.staked_available + EXCLUDED.staked_available, updated_at = EXCLUDED.updated_at
      WHERE r.wallet_id = EXCLUDED.wallet_id AND NOT r.closed
    RETURNING r.id INTO v_round;
    IF v_round IS NULL THEN
      RAISE EXCEPTION 'the round is closed or not this wallet''s' USING ERRCODE = 'GW001';
    END IF;
    v_change := -p_amount;
  ELSIF p_action = 'win' THEN
    IF p_amount < 0 THEN
      RAISE EXCEPTION 'a win is not negative' USING ERRCODE = 'GW001';
    END IF;
    SELECT w.available, w.bonus INTO v_available, v_bonus FROM wallets w
    WHERE w.id = p_wallet_id AND w.user_id = p_user_id AND w.currency_id = p_currency_id
      AND EXISTS (SELECT 1 FROM game_sessions s WHERE s.id = p_session_id AND s.game_id = p_game_id)
      AND (SELECT p.wallet_secret FROM providers p WHERE p.id = p_provider_id) = p_wallet_secret
    FOR UPDATE OF w;
    IF v_available IS NULL THEN
      RAISE EXCEPTION 'the session changed' USING ERRCODE = 'GW002';
    END IF;
    UPDATE game_rounds r SET won = r.won + p_amount, settled = true, updated_at = p_at
    WHERE r.provider_id = p_provider_id AND r.round_id = p_round_id AND r.wallet_id = p_wallet_id AND NOT r.closed AND r.staked_bonus = 0
      AND r.won + p_amount <= r.staked_available * (SELECT p.max_win_multiplier FROM providers p WHERE p.id = p_provider_id)
    RETURNING r.id INTO v_round;
    IF v_round IS NULL THEN
      RAISE EXCEPTION 'the win needs the general path' USING ERRCODE = 'GW001';
    END IF;
    v_change := p_amount;
  ELSIF p_action IN ('rollbackBet', 'rollbackWin') THEN
    -- A rollback of a bet or a win of this wallet's round, paid from available alone, not rolled back
    -- before, by a player with no bonus to wager: it moves back exactly what the call moved and closes
    -- the round. Six statements.
    SELECT w.available, w.bonus INTO v_available, v_bonus FROM wallets w
    WHERE w.id = p_wallet_id AND w.user_id = p_user_id AND w.currency_id = p_currency_id
      AND EXISTS (SELECT 1 FROM game_sessions s WHERE s.id = p_session_id AND s.game_id = p_game_id)
      AND (SELECT p.wallet_secret FROM providers p WHERE p.id = p_provider_id) = p_wallet_secret
    FOR UPDATE OF w;
    IF v_available IS NULL THEN
      RAISE EXCEPTION 'the session changed' USING ERRCODE = 'GW002';
    END IF;
    SELECT r.id, o.amount, o.bonus_amount, o.ledger_transaction_id,
      EXISTS (SELECT 1 FROM game_wallet_actions x WHERE x.round_pk = r.id AND x.action = p_action AND x.reference_id = p_reference_id),
      EXISTS (SELECT 1 FROM user_bonuses b WHERE b.user_id = p_user_id AND b.wallet_id = p_wallet_id AND b.status IN ('active', 'queued'))
    INTO v_round, v_moved, v_original_bonus, v_related, v_rolled_back, v_bonus_in_play
    FROM game_rounds r JOIN game_wallet_actions o ON o.round_pk = r.id AND o.transaction_id = p_reference_id
      AND o.action = CASE p_action WHEN 'rollbackBet' THEN 'bet' ELSE 'win' END
    WHERE r.provider_id = p_provider_id AND r.round_id = p_round_id AND r.wallet_id = p_wallet_id;
    IF v_round IS NULL OR v_rolled_back OR v_original_bonus <> 0 OR (p_action = 'rollbackBet' AND v_bonus_in_play) THEN
      RAISE EXCEPTION 'the rollback needs the general path' USING ERRCODE = 'GW001';
    END IF;
    IF p_action = 'rollbackBet' THEN
      v_change := v_moved;
    ELSE
      v_change := -v_moved;
    END IF;
    IF v_available + v_change < 0 THEN
      RAISE EXCEPTION 'the available balance does not cover the rollback' USING ERRCODE = 'GW002';
    END IF;
    UPDATE game_rounds r SET closed = true, updated_at = p_at,
      staked_available = r.staked_available - CASE p_action WHEN 'rollbackBet' THEN v_moved ELSE 0 END,
      won = r.won - CASE p_action WHEN 'rollbackWin' THEN v_moved ELSE 0 END
    WHERE r.id = v_round;
  ELSE
    RAISE EXCEPTION 'action % takes the general path', p_action USING ERRCODE = 'GW001';
  END IF;

  IF v_change <> 0 THEN
    SELECT l.out_id, l.out_replayed, l.out_available, l.out_bonus INTO v_ledger, v_replayed, v_available, v_bonus
    FROM ledger_post('game.' || lower(p_action), p_at, ARRAY[p_wallet_id, NULL], ARRAY[NULL, p_currency_id], ARRAY['available', 'house'],
      ARRAY[v_change, -v_change], p_ledger_scope, p_ledger_key, p_wallet_id, 'casino', p_action, 'completed', v_moved, p_game_identifier, v_related,
      p_ledger_public_id) l;
    IF v_replayed THEN
      RAISE EXCEPTION 'the ledger already holds this call' USING ERRCODE = 'GW001';
    END IF;
  END IF;

  INSERT INTO game_wallet_actions AS a (round_pk, action, transaction_id, reference_id, user_id, amount, bonus_amount, request_hash,
    ledger_transaction_id, available_after, bonus_after, created_at)
  VALUES (v_round, p_action, p_transaction_id, CASE WHEN p_action IN ('rollbackBet', 'rollbackWin') THEN p_reference_id END, p_user_id, v_moved, 0,
    p_request_hash, v_ledger, v_available, v_bonus, p_at)
  ON CONFLICT (round_pk, action, transaction_id) DO NOTHING
  RETURNING a.id INTO v_action;
  IF v_action IS NULL THEN
    RAISE EXCEPTION 'a replay' USING ERRCODE = 'GW001';
  END IF;
  RETURN QUERY SELECT v_action, v_ledger, v_available, v_bonus,
    CASE WHEN v_change <> 0 THEN ARRAY[json_build_object('u', p_user_id, 'k', 'wallets', 'id', p_user_id)::text] ELSE ARRAY[]::text[] END, v_moved;
END
$$;
