-- Game wallet calls (server/domain/game-wallet.ts): bets, wins, free spins, and rollbacks of a bet or a
-- win, of real-money sessions the server authenticated. The one implementation of the game wallet's money
-- rules, written set by set: the server passes one call, or a batch of calls of different players
-- gathered while earlier ones were on their way, and each statement below works on all of them at once.
-- A batch holds at most one call per player, per wallet and per round (else it raises): its calls touch
-- nothing in common, so each answers as it would alone.
--
-- For every call, in the order its locks are taken (the wallets first, in id order, the order every writer
-- of several wallets takes them in; then the rounds, in key order):
--   1. the wallet, while it is the player's in the call's currency and the session the server
--      authenticated (possibly from its cache) still holds: the session of this game, and the provider's
--      key the call was checked with. Else 'changed': the server reads the session again, checks the
--      signature afresh, and calls once more.
--   2. the round (provider, round id): another wallet's round refuses the call (INVALID_VALUE); the call's
--      natural key (round, action, provider's transaction id) already recorded answers that first call
--      again ('replayed', moving nothing), or refuses a different request under it ('duplicate').
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
--   5. the rounds opened (ON CONFLICT: another wallet opening the same round id meanwhile refuses the
--      call) or updated, the ledger transactions posted (ledger_post_many: house against the player's
--      accounts, the pool), the bets' wagering counted toward the running bonus (bonus_record_wagering,
--      which may complete it), and the calls recorded with the balances after them.
-- Answers one row per call, in their order: 'done', 'replayed', 'refused' with the code (having written
-- nothing for it) or 'changed'; anything raised is a fault, and fails every call of the batch.
CREATE OR REPLACE FUNCTION game_wallet_play(
  p_action text[],
  p_wallet_id bigint[],
  p_user_id bigint[],
  p_currency_id integer[],
  p_limits_apply boolean[],
  p_provider_id integer[],
  p_session_id text[],
  p_game_id bigint[],
  p_game_identifier text[],
  p_round_id text[],
  p_transaction_id text[],
  p_amount numeric[],
  p_request_hash text[],
  p_ledger_public_id uuid[],
  p_ledger_scope text[],
  p_ledger_key text[],
  p_wallet_secret text[],
  p_reference_id text[],
  p_at timestamptz
) RETURNS TABLE (out_n integer, out_status text, out_code text, out_action_id bigint, out_ledger_public_id uuid, out_available numeric,
  out_bonus numeric, out_announce text[], out_amount numeric, out_bonus_amount numeric, out_reference_id text, out_created_at timestamptz)
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_calls integer := coalesce(cardinality(p_action), 0);
  -- What each call decided (1 to 4), by the call's position.
  v_status text[];
  v_code text[];
  v_round bigint[];
  v_reference text[];
  v_available numeric[];
  v_bonus numeric[];
  v_available_change numeric[];
  v_bonus_change numeric[];
  v_pool_change numeric[];
  v_moved numeric[];
  v_bonus_part numeric[];
  v_user_bonus bigint[];
  v_related bigint[];
  v_wagering numeric[];
  v_replay_action bigint[];
  v_replay_public uuid[];
  v_replay_created timestamptz[];
  -- What was written, by the call's position.
  v_ledger bigint[];
  v_ledger_public uuid[];
  v_action_id bigint[];
  v_posted integer[];
  -- The postings of the calls that move money, and their legs, as ledger_post_many takes them.
  v_kind text[];
  v_scope text[];
  v_key text[];
  v_wallet bigint[];
  v_action_type text[];
  v_amount numeric[];
  v_game text[];
  v_related_of bigint[];
  v_public uuid[];
  v_leg_posting integer[];
  v_leg_wallet bigint[];
  v_leg_currency integer[];
  v_leg_kind text[];
  v_leg_amount numeric[];
  -- A record each for the rows of each loop below: one changing its row type would have plpgsql plan again
  -- every expression that reads it.
  v_opened record;
  v_posting record;
  v_wagered record;
BEGIN
  PERFORM set_config('casino.announce', 'by_server', true);
  IF v_calls = 0 THEN
    RETURN;
  END IF;
  IF EXISTS (SELECT 1 FROM unnest(p_action) a WHERE a IS NULL OR a NOT IN ('bet', 'win', 'freeSpin', 'rollbackBet', 'rollbackWin')) THEN
    RAISE EXCEPTION 'no game wallet action in %', p_action;
  END IF;
  IF (SELECT count(DISTINCT w) FROM unnest(p_wallet_id) w) <> v_calls OR (SELECT count(DISTINCT u) FROM unnest(p_user_id) u) <> v_calls
    OR (SELECT count(DISTINCT (p, r)) FROM unnest(p_provider_id, p_round_id) AS x(p, r)) <> v_calls THEN
    RAISE EXCEPTION 'a batch takes one call per player, per wallet and per round';
  END IF;

  -- The locks: the wallets in id order, then the rounds in key order.
  PERFORM 1 FROM wallets w WHERE w.id = ANY (p_wallet_id) ORDER BY w.id FOR UPDATE;
  PERFORM 1 FROM (SELECT x.p, x.r FROM unnest(p_provider_id, p_round_id) AS x(p, r) ORDER BY x.p, x.r) x
    CROSS JOIN LATERAL (SELECT 1 FROM game_rounds r WHERE r.provider_id = x.p AND r.round_id = x.r FOR UPDATE) r;

  -- 1 to 4, for every call at once.
  WITH c AS (
    SELECT x.n::integer AS n, x.action, x.wallet, x.user_id, x.currency, x.limits, x.provider, x.session, x.game, x.round_id, x.txid, x.amount,
      x.hash, x.secret, x.action IN ('rollbackBet', 'rollbackWin') AS rollback,
      CASE WHEN x.action IN ('rollbackBet', 'rollbackWin') THEN coalesce(x.reference, x.txid) END AS reference
    FROM unnest(p_action, p_wallet_id, p_user_id, p_currency_id, p_limits_apply, p_provider_id, p_session_id, p_game_id, p_round_id,
      p_transaction_id, p_amount, p_request_hash, p_wallet_secret, p_reference_id)
      WITH ORDINALITY AS x(action, wallet, user_id, currency, limits, provider, session, game, round_id, txid, amount, hash, secret, reference, n)
  ), seen AS (
    SELECT c.*, w.available, w.bonus, w.expires_at, w.id IS NOT NULL AS found, r.id AS round_pk, r.wallet_id AS round_wallet, r.staked_available,
      r.staked_bonus, r.won, r.closed, r.user_bonus_id AS round_bonus, e.id AS earlier_id, e.request_hash AS earlier_hash, e.public_id AS earlier_public,
      e.amount AS earlier_amount, e.bonus_amount AS earlier_bonus_amount, e.available_after AS earlier_available, e.bonus_after AS earlier_bonus,
      e.reference_id AS earlier_reference, e.created_at AS earlier_created, u.active, u.excluded, u.bonus_in_play
    FROM c
    -- 1. The wallet, while the session holds.
    LEFT JOIN LATERAL (
      SELECT w.id, w.available, w.bonus, s.expires_at
      FROM wallets w CROSS JOIN LATERAL (SELECT s.expires_at FROM game_sessions s WHERE s.id = c.session AND s.game_id = c.game LIMIT 1) s
      WHERE w.id = c.wallet AND w.user_id = c.user_id AND w.currency_id = c.currency
        AND (SELECT p.wallet_secret FROM providers p WHERE p.id = c.provider) = c.secret
      LIMIT 1
    ) w ON true
    -- 2. The round, and a call already recorded under the same key.
    LEFT JOIN LATERAL (
      SELECT r.id, r.wallet_id, r.staked_available, r.staked_bonus, r.won, r.closed, r.user_bonus_id FROM game_rounds r
      WHERE r.provider_id = c.provider AND r.round_id = c.round_id LIMIT 1
    ) r ON true
    LEFT JOIN LATERAL (
      SELECT a.id, a.request_hash, a.reference_id, a.amount, a.bonus_amount, a.available_after, a.bonus_after, a.created_at,
        (SELECT l.public_id FROM ledger_transactions l WHERE l.id = a.ledger_transaction_id) AS public_id
      FROM game_wallet_actions a WHERE a.round_pk = r.id AND a.action = c.action AND a.transaction_id = c.txid LIMIT 1
    ) e ON true
    -- A bettor: whether they may play, and whether they have a bonus to wager.
    LEFT JOIN LATERAL (
      SELECT u.active, u.self_exclusion_permanent OR u.self_excluded_until > p_at AS excluded,
        EXISTS (SELECT 1 FROM user_bonuses b WHERE b.user_id = u.id AND b.status IN ('active', 'queued')) AS bonus_in_play
      FROM users u WHERE u.id = c.user_id AND c.action = 'bet' LIMIT 1
    ) u ON true
  ), judged AS (
    -- 3. The refusals a call's session, player and round make.
    SELECT s.*, CASE
        WHEN NOT s.found THEN 'changed'
        WHEN s.round_wallet <> s.wallet THEN 'refused'
        WHEN s.earlier_id IS NOT NULL AND s.earlier_hash <> s.hash THEN 'refused'
        WHEN s.earlier_id IS NOT NULL THEN 'replayed'
      END AS status,
      CASE
        WHEN NOT s.found THEN NULL
        WHEN s.round_wallet <> s.wallet THEN 'INVALID_VALUE'
        WHEN s.earlier_id IS NOT NULL AND s.earlier_hash <> s.hash THEN 'duplicate'
        WHEN s.earlier_id IS NOT NULL THEN NULL
        WHEN s.action IN ('bet', 'freeSpin') AND s.expires_at <= p_at THEN 'SESSION_EXPIRED'
        WHEN s.action = 'bet' AND NOT s.active THEN 'USER_INACTIVE'
        WHEN s.action = 'bet' AND s.excluded THEN 'SELF_EXCLUDED'
        WHEN s.action IN ('bet', 'win', 'freeSpin') AND s.closed THEN 'INVALID_VALUE'
        WHEN s.action = 'win' AND s.round_pk IS NULL THEN 'NOT_FOUND'
        WHEN s.action = 'bet' AND s.limits
          AND (SELECT 1 FROM gambling_limits l WHERE l.user_id = s.user_id AND l.kind IN ('bet', 'loss') LIMIT 1) IS NOT NULL
          THEN game_play_limit_exceeded(s.user_id, s.currency, s.amount, p_at)
      END AS code
    FROM seen s
  ), moving AS (
    -- 4. What a call that may go on moves.
    SELECT j.*, k.staked, b.part, b.moved, h.home, m.*
    FROM judged j
    CROSS JOIN LATERAL (
      SELECT coalesce(j.staked_available, 0) + coalesce(j.staked_bonus, 0) AS staked,
        j.amount - least(j.amount, j.available) AS bet_bonus_part, (SELECT y.decimals FROM currencies y WHERE y.id = j.currency) AS decimals
      WHERE j.status IS NULL AND j.code IS NULL
    ) k
    -- The call a rollback cancels, unless a rollback of it came before.
    LEFT JOIN LATERAL (
      SELECT o.amount, o.bonus_amount, o.ledger_transaction_id FROM game_wallet_actions o
      WHERE o.round_pk = j.round_pk AND o.transaction_id = j.reference
        AND o.action = ANY (CASE j.action WHEN 'rollbackBet' THEN ARRAY['bet'] ELSE ARRAY['win', 'freeSpin'] END)
        AND NOT EXISTS (SELECT 1 FROM game_wallet_actions x WHERE x.round_pk = j.round_pk AND x.action = j.action AND x.reference_id = j.reference)
      ORDER BY o.action = 'win' DESC LIMIT 1
    ) o ON j.rollback AND j.round_pk IS NOT NULL
    -- The bonus-paid share of a win, in units of 1e-8 rounded up, then up to the currency's precision (exact integers).
    CROSS JOIN LATERAL (
      SELECT CASE
          WHEN j.action = 'bet' THEN k.bet_bonus_part
          WHEN j.action IN ('win', 'freeSpin') AND coalesce(j.staked_bonus, 0) > 0 AND j.amount > 0 THEN least((div(
              div(j.amount * 100000000 * j.staked_bonus * 100000000 + k.staked * 100000000 - 1, k.staked * 100000000)
              + 10::numeric ^ (8 - k.decimals) - 1, 10::numeric ^ (8 - k.decimals)) * 10::numeric ^ (8 - k.decimals) / 100000000)::numeric(30, 8),
            j.amount)
          WHEN j.rollback THEN coalesce(o.bonus_amount, 0)
          ELSE 0
        END AS part,
        CASE WHEN j.rollback THEN coalesce(o.amount, 0) ELSE coalesce(j.amount, 0) END AS moved
      OFFSET 0
    ) b
    CROSS JOIN LATERAL (
      SELECT CASE
          WHEN j.action IN ('win', 'freeSpin') AND b.part > 0 THEN bonus_money_home(j.round_bonus, j.wallet, p_at)
          WHEN j.rollback AND b.part > 0 THEN bonus_money_home(j.round_bonus, j.wallet, p_at)
          WHEN j.rollback THEN 'bonus'
        END AS home
      OFFSET 0
    ) h
    CROSS JOIN LATERAL (
      SELECT CASE
          WHEN j.action = 'bet' THEN -(j.amount - b.part)
          WHEN j.action IN ('win', 'freeSpin') THEN CASE WHEN h.home IS NULL OR h.home = 'available' THEN j.amount ELSE j.amount - b.part END
          WHEN j.action = 'rollbackBet' THEN CASE h.home WHEN 'available' THEN b.moved ELSE b.moved - b.part END
          WHEN h.home = 'bonus' THEN -(b.moved - least(b.part, j.bonus))
          ELSE CASE h.home WHEN 'available' THEN -b.moved ELSE -(b.moved - b.part) END
        END AS available_change,
        CASE
          WHEN j.action = 'bet' THEN -b.part
          WHEN j.action IN ('win', 'freeSpin', 'rollbackBet') THEN CASE h.home WHEN 'bonus' THEN b.part ELSE 0 END
          WHEN h.home = 'bonus' THEN -least(b.part, j.bonus)
          ELSE 0
        END AS bonus_change,
        CASE
          WHEN j.action IN ('win', 'freeSpin', 'rollbackBet') THEN CASE h.home WHEN 'pool' THEN b.part ELSE 0 END
          WHEN j.action = 'rollbackWin' THEN CASE h.home WHEN 'pool' THEN -b.part ELSE 0 END
          ELSE 0
        END AS pool_change,
        CASE WHEN j.action = 'bet' AND b.part > 0 AND j.round_bonus IS NULL THEN bonus_running_id(j.wallet, p_at) ELSE j.round_bonus END AS user_bonus,
        o.ledger_transaction_id AS related
      OFFSET 0
    ) m
  ), decided AS (
    SELECT m.*, coalesce(m.code, CASE
        WHEN m.action = 'bet' AND m.part > m.bonus THEN 'INSUFFICIENT_BALANCE'
        WHEN m.action = 'win' AND m.won + m.amount > m.staked * (SELECT p.max_win_multiplier FROM providers p WHERE p.id = m.provider) THEN 'amount.max'
        WHEN m.rollback AND (m.available + m.available_change < 0 OR m.bonus + m.bonus_change < 0) THEN 'INSUFFICIENT_BALANCE'
      END) AS refusal
    FROM moving m
  )
  SELECT array_agg(CASE WHEN j.status IS NOT NULL THEN j.status WHEN coalesce(j.code, d.refusal) IS NOT NULL THEN 'refused' END ORDER BY j.n),
    array_agg(coalesce(j.code, d.refusal) ORDER BY j.n), array_agg(j.round_pk ORDER BY j.n), array_agg(CASE WHEN j.earlier_id IS NOT NULL THEN j.earlier_reference ELSE j.reference END ORDER BY j.n),
    array_agg(coalesce(j.earlier_available, j.available) ORDER BY j.n), array_agg(coalesce(j.earlier_bonus, j.bonus) ORDER BY j.n),
    array_agg(d.available_change ORDER BY j.n), array_agg(d.bonus_change ORDER BY j.n), array_agg(d.pool_change ORDER BY j.n),
    array_agg(coalesce(j.earlier_amount, d.moved) ORDER BY j.n), array_agg(coalesce(j.earlier_bonus_amount, d.part) ORDER BY j.n),
    array_agg(d.user_bonus ORDER BY j.n), array_agg(d.related ORDER BY j.n),
    array_agg(CASE WHEN j.action = 'bet' AND j.bonus_in_play THEN j.amount WHEN j.action = 'rollbackBet' AND d.moved <> 0 THEN -d.moved END ORDER BY j.n),
    array_agg(j.earlier_id ORDER BY j.n), array_agg(j.earlier_public ORDER BY j.n), array_agg(j.earlier_created ORDER BY j.n)
  INTO v_status, v_code, v_round, v_reference, v_available, v_bonus, v_available_change, v_bonus_change, v_pool_change, v_moved, v_bonus_part,
    v_user_bonus, v_related, v_wagering, v_replay_action, v_replay_public, v_replay_created
  FROM judged j LEFT JOIN decided d ON d.n = j.n;

  -- 5. The rounds: new ones opened (one another wallet opened meanwhile refuses the call), the others updated.
  FOR v_opened IN
    WITH opened AS (
      INSERT INTO game_rounds AS r (provider_id, round_id, session_id, user_id, wallet_id, currency_id, game_id, free_spin, staked_available,
        staked_bonus, won, settled, closed, user_bonus_id, created_at, updated_at)
      SELECT x.provider, x.round_id, x.session, x.user_id, x.wallet, x.currency, x.game, x.action = 'freeSpin',
        CASE x.action WHEN 'bet' THEN -v_available_change[x.n] ELSE 0 END, CASE x.action WHEN 'bet' THEN -v_bonus_change[x.n] ELSE 0 END,
        CASE x.action WHEN 'freeSpin' THEN x.amount ELSE 0 END, x.action = 'freeSpin', x.action IN ('rollbackBet', 'rollbackWin'), v_user_bonus[x.n],
        p_at, p_at
      FROM unnest(p_action, p_provider_id, p_round_id, p_session_id, p_user_id, p_wallet_id, p_currency_id, p_game_id, p_amount)
        WITH ORDINALITY AS x(action, provider, round_id, session, user_id, wallet, currency, game, amount, n)
      WHERE v_status[x.n] IS NULL AND v_round[x.n] IS NULL
      ORDER BY x.provider, x.round_id
      ON CONFLICT (provider_id, round_id) DO NOTHING
      RETURNING r.id, r.provider_id, r.round_id
    )
    SELECT x.n::integer AS n, o.id FROM unnest(p_provider_id, p_round_id) WITH ORDINALITY AS x(provider, round_id, n)
    LEFT JOIN opened o ON o.provider_id = x.provider AND o.round_id = x.round_id
    WHERE v_status[x.n] IS NULL AND v_round[x.n] IS NULL
  LOOP
    IF v_opened.id IS NULL THEN
      v_status[v_opened.n] := 'refused';
      v_code[v_opened.n] := 'INVALID_VALUE';
    ELSE
      v_round[v_opened.n] := -v_opened.id;
    END IF;
  END LOOP;
  -- (A round opened here is marked by its negated id until the others are updated.)
  UPDATE game_rounds r SET
    staked_available = r.staked_available + CASE x.action WHEN 'bet' THEN -v_available_change[x.n]
      WHEN 'rollbackBet' THEN -(v_moved[x.n] - v_bonus_part[x.n]) ELSE 0 END,
    staked_bonus = r.staked_bonus + CASE x.action WHEN 'bet' THEN -v_bonus_change[x.n] WHEN 'rollbackBet' THEN -v_bonus_part[x.n] ELSE 0 END,
    won = r.won + CASE WHEN x.action IN ('win', 'freeSpin') THEN x.amount WHEN x.action = 'rollbackWin' THEN -v_moved[x.n] ELSE 0 END,
    settled = r.settled OR x.action IN ('win', 'freeSpin'),
    closed = r.closed OR x.action IN ('rollbackBet', 'rollbackWin'),
    user_bonus_id = CASE WHEN x.action = 'bet' THEN v_user_bonus[x.n] ELSE r.user_bonus_id END,
    updated_at = p_at
  FROM unnest(p_action, p_amount) WITH ORDINALITY AS x(action, amount, n)
  WHERE v_status[x.n] IS NULL AND v_round[x.n] > 0 AND r.id = ANY (v_round) AND r.id = v_round[x.n];
  SELECT array_agg(abs(x.id) ORDER BY x.n) INTO v_round FROM unnest(v_round) WITH ORDINALITY AS x(id, n);

  -- The ledger: one posting per call that moves money, all in one set.
  SELECT array_agg(x.n::integer ORDER BY x.n) INTO v_posted FROM unnest(p_action) WITH ORDINALITY AS x(action, n)
  WHERE v_status[x.n] IS NULL AND (v_available_change[x.n] <> 0 OR v_bonus_change[x.n] <> 0 OR v_pool_change[x.n] <> 0);
  v_ledger := array_fill(NULL::bigint, ARRAY[v_calls]);
  v_ledger_public := array_fill(NULL::uuid, ARRAY[v_calls]);
  IF v_posted IS NOT NULL THEN
    SELECT array_agg('game.' || lower(p_action[q.i]) ORDER BY q.k), array_agg(p_ledger_scope[q.i] ORDER BY q.k), array_agg(p_ledger_key[q.i] ORDER BY q.k),
      array_agg(p_wallet_id[q.i] ORDER BY q.k), array_agg(p_action[q.i] ORDER BY q.k), array_agg(v_moved[q.i] ORDER BY q.k),
      array_agg(p_game_identifier[q.i] ORDER BY q.k), array_agg(v_related[q.i] ORDER BY q.k), array_agg(p_ledger_public_id[q.i] ORDER BY q.k)
    INTO v_kind, v_scope, v_key, v_wallet, v_action_type, v_amount, v_game, v_related_of, v_public
    FROM unnest(v_posted) WITH ORDINALITY AS q(i, k);
    -- Four legs a posting: the player's available and bonus, the house, the pool (zero legs are dropped).
    SELECT array_agg(q.k::integer ORDER BY q.k, g.g), array_agg(CASE WHEN g.g <= 2 THEN p_wallet_id[q.i] END ORDER BY q.k, g.g),
      array_agg(CASE WHEN g.g > 2 THEN p_currency_id[q.i] END ORDER BY q.k, g.g),
      array_agg((ARRAY['available', 'bonus', 'house', 'bonus_pool'])[g.g] ORDER BY q.k, g.g),
      array_agg(CASE g.g WHEN 1 THEN v_available_change[q.i] WHEN 2 THEN v_bonus_change[q.i]
        WHEN 3 THEN -(v_available_change[q.i] + v_bonus_change[q.i] + v_pool_change[q.i]) ELSE v_pool_change[q.i] END ORDER BY q.k, g.g)
    INTO v_leg_posting, v_leg_wallet, v_leg_currency, v_leg_kind, v_leg_amount
    FROM unnest(v_posted) WITH ORDINALITY AS q(i, k) CROSS JOIN generate_series(1, 4) AS g(g);
    FOR v_posting IN
      SELECT v_posted[l.out_n] AS n, l.out_id, l.out_public_id, l.out_replayed, l.out_available, l.out_bonus
      FROM ledger_post_many(p_at, v_kind, v_scope, v_key, v_wallet, array_fill('casino'::text, ARRAY[cardinality(v_posted)]), v_action_type,
        array_fill('completed'::text, ARRAY[cardinality(v_posted)]), v_amount, v_game, v_related_of, v_public, v_leg_posting, v_leg_wallet,
        v_leg_currency, v_leg_kind, v_leg_amount) l
    LOOP
      IF v_posting.out_replayed THEN
        RAISE EXCEPTION 'the ledger holds call % of round % though the call is not recorded', p_transaction_id[v_posting.n], p_round_id[v_posting.n];
      END IF;
      v_ledger[v_posting.n] := v_posting.out_id;
      v_ledger_public[v_posting.n] := v_posting.out_public_id;
      v_available[v_posting.n] := v_posting.out_available;
      v_bonus[v_posting.n] := v_posting.out_bonus;
    END LOOP;
  END IF;

  -- The wagering of bets (and their rollbacks) by players with a bonus active or queued: it may complete the
  -- running bonus and move its money, so their balances are read after it.
  IF EXISTS (SELECT 1 FROM unnest(v_wagering) WITH ORDINALITY AS x(amount, n) WHERE x.amount IS NOT NULL AND v_status[x.n] IS NULL) THEN
    FOR v_wagered IN
      SELECT x.n::integer AS n, w.available, w.bonus
      FROM unnest(v_wagering) WITH ORDINALITY AS x(amount, n)
      CROSS JOIN LATERAL (SELECT bonus_record_wagering(p_user_id[x.n], p_wallet_id[x.n], p_currency_id[x.n], x.amount, p_at)) r
      CROSS JOIN LATERAL (SELECT w.available, w.bonus FROM wallets w WHERE w.id = p_wallet_id[x.n] LIMIT 1) w
      WHERE x.amount IS NOT NULL AND v_status[x.n] IS NULL
    LOOP
      v_available[v_wagered.n] := v_wagered.available;
      v_bonus[v_wagered.n] := v_wagered.bonus;
    END LOOP;
  END IF;

  -- The calls recorded, with the balances after them.
  WITH recorded AS (
    INSERT INTO game_wallet_actions AS a (round_pk, action, transaction_id, reference_id, user_id, amount, bonus_amount, request_hash,
      ledger_transaction_id, available_after, bonus_after, created_at)
    SELECT v_round[x.n], x.action, x.txid, v_reference[x.n], x.user_id, v_moved[x.n], v_bonus_part[x.n], x.hash, v_ledger[x.n], v_available[x.n],
      v_bonus[x.n], p_at
    FROM unnest(p_action, p_transaction_id, p_user_id, p_request_hash) WITH ORDINALITY AS x(action, txid, user_id, hash, n)
    WHERE v_status[x.n] IS NULL
    ORDER BY x.n
    RETURNING a.id, a.round_pk
  )
  SELECT array_agg(r.id ORDER BY x.n) INTO v_action_id FROM unnest(v_round) WITH ORDINALITY AS x(round_pk, n)
  LEFT JOIN recorded r ON r.round_pk = x.round_pk AND v_status[x.n] IS NULL;

  RETURN QUERY
  SELECT x.n::integer, coalesce(v_status[x.n], 'done'), v_code[x.n],
    CASE WHEN v_status[x.n] IS NULL THEN v_action_id[x.n] ELSE v_replay_action[x.n] END,
    CASE WHEN v_status[x.n] IS NULL THEN v_ledger_public[x.n] ELSE v_replay_public[x.n] END,
    CASE WHEN v_status[x.n] IN ('changed', 'refused') THEN NULL ELSE v_available[x.n] END,
    CASE WHEN v_status[x.n] IN ('changed', 'refused') THEN NULL ELSE v_bonus[x.n] END,
    CASE WHEN v_status[x.n] IS NULL AND v_ledger[x.n] IS NOT NULL THEN ARRAY[json_build_object('u', p_user_id[x.n], 'k', 'wallets', 'id', p_user_id[x.n])::text]
      WHEN v_status[x.n] IN ('changed', 'refused') THEN NULL ELSE ARRAY[]::text[] END,
    CASE WHEN v_status[x.n] IN ('changed', 'refused') THEN NULL ELSE v_moved[x.n] END,
    CASE WHEN v_status[x.n] IN ('changed', 'refused') THEN NULL ELSE v_bonus_part[x.n] END,
    CASE WHEN v_status[x.n] IN ('changed', 'refused') THEN NULL ELSE v_reference[x.n] END,
    CASE WHEN v_status[x.n] IS NULL THEN p_at WHEN v_status[x.n] = 'replayed' THEN v_replay_created[x.n] END
  FROM generate_series(1, v_calls) AS x(n)
  ORDER BY x.n;
END
$$;
