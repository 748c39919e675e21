-- Bets and wins of many players in one database transaction: game_wallet_play_batch takes the calls the
-- server gathered while earlier ones were on their way (one per wallet, one per round), checks each as
-- game_wallet_play checks it, and writes the wallets, rounds, ledger transactions, their entries and the
-- calls of all of them in one statement each. PostgreSQL starts an executor and rebuilds a table's CHECK
-- constraints once per statement, not once per call: `npm run bench:batching` measured a bet at a third
-- to a quarter of its CPU in batches of 8 to 16.
--
-- Nothing is written for a call before every check has passed. The function first locks the wallets (in
-- the order of their ids); every other writer of a wallet's rounds, calls and ledger rows holds that lock
-- (game_wallet_play and the general path take it first), so what the checks read stays true until commit.
-- A call that fails a check answers like game_wallet_play's errors, without writing: 'general' (GW001: the
-- general path takes it) or 'changed' (GW002: the session changed, the balance does not cover the bet, or
-- the wallet is not its player's in its currency). Anything else (a round id another wallet took
-- meanwhile, a missing ledger account) raises, and the server runs each call of the batch alone.
--
-- Every look-up is a subquery of its own, run call by call with its whole key, and no plan of the function
-- scans a table (enable_seqscan off for its statements alone): the plans are made once per connection,
-- and a hash join chosen while the tables were small would read every round ever played once they had
-- grown (tests/server/batch-plans.test.ts reads the plans). The database's foreign keys check the
-- references of every row it writes, as they check every other writer's.
CREATE OR REPLACE FUNCTION game_wallet_play_batch(
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
  p_ledger_hash text[],
  p_wallet_secret text[],
  p_at timestamptz
) RETURNS TABLE (out_n integer, out_status text, out_action_id bigint, out_ledger_id bigint, out_available numeric, out_bonus numeric,
  out_announce text[], out_amount numeric)
-- Its statements are planned once per connection (left to choose, PostgreSQL plans these large statements
-- afresh at every call, about 10 ms for a batch), and never by scanning a table.
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_calls integer := cardinality(p_action);
  v_status text[];
  v_round_pk bigint[];
  v_available numeric[];
  v_bonus numeric[];
  v_done integer;
  v_moving integer;
  v_counts integer[];
  v_action_ids bigint[];
  v_ledger_ids bigint[];
BEGIN
  IF v_calls IS NULL OR v_calls = 0 THEN
    RETURN;
  END IF;
  IF (SELECT count(DISTINCT w) FROM unnest(p_wallet_id) w) <> v_calls
    OR (SELECT count(DISTINCT (p, r)) FROM unnest(p_provider_id, p_round_id) AS x(p, r)) <> v_calls THEN
    RAISE EXCEPTION 'a batch takes one call per wallet and per round';
  END IF;
  PERFORM 1 FROM wallets w WHERE w.id = ANY (p_wallet_id) ORDER BY w.id FOR UPDATE;

  -- Each call's checks, read after the wallets' locks, in game_wallet_play's order.
  SELECT array_agg(c.status ORDER BY c.n), array_agg(c.round_pk ORDER BY c.n), array_agg(c.available ORDER BY c.n), array_agg(c.bonus ORDER BY c.n),
    count(*) FILTER (WHERE c.status = 'done'), count(*) FILTER (WHERE c.status = 'done' AND c.amount <> 0)
  INTO v_status, v_round_pk, v_available, v_bonus, v_done, v_moving
  FROM (
    SELECT i.n, i.amount, r.id AS round_pk, w.available, w.bonus,
      CASE
        WHEN i.action = 'bet' THEN CASE
          WHEN i.amount <= 0 THEN 'general'
          WHEN w.id IS NULL OR w.available < i.amount OR session.expires_at IS NULL OR session.expires_at <= p_at THEN 'changed'
          WHEN player.may_play IS NOT TRUE OR bonus.found OR (i.limits_apply AND bet_limit.found) THEN 'general'
          WHEN r.id IS NOT NULL AND (r.wallet_id <> i.wallet_id OR r.closed) THEN 'general'
          WHEN called.found OR posted.found THEN 'general'
          ELSE 'done'
        END
        WHEN i.action = 'win' THEN CASE
          WHEN i.amount < 0 THEN 'general'
          WHEN w.id IS NULL OR session.expires_at IS NULL THEN 'changed'
          WHEN r.id IS NULL OR r.wallet_id <> i.wallet_id OR r.closed OR r.staked_bonus <> 0
            OR r.won + i.amount > r.staked_available * provider.max_win_multiplier THEN 'general'
          WHEN called.found THEN 'general'
          WHEN i.amount > 0 AND posted.found THEN 'general'
          ELSE 'done'
        END
        ELSE 'general'
      END AS status
    FROM unnest(p_action, p_wallet_id, p_user_id, p_currency_id, p_limits_apply, p_provider_id, p_session_id, p_game_id, p_round_id, p_transaction_id,
        p_amount, p_ledger_scope, p_ledger_key, p_wallet_secret)
      WITH ORDINALITY AS i(action, wallet_id, user_id, currency_id, limits_apply, provider_id, session_id, game_id, round_id, transaction_id,
        amount, ledger_scope, ledger_key, wallet_secret, n)
    -- Every look-up is a subquery of its own (LIMIT keeps PostgreSQL from merging it into a join), run call
    -- by call with its whole key. Merged into joins (migration 0024), they were planned as hash joins and
    -- hashed subqueries over whole tables whenever the tables were small at planning, and the plan, cached
    -- for the connection, went on reading every round ever played at each batch.
    -- The wallet, if it is this player's in this currency: the rounds and ledger transactions below name all three.
    LEFT JOIN LATERAL (
      SELECT w.id, w.available, w.bonus FROM wallets w WHERE w.id = i.wallet_id AND w.user_id = i.user_id AND w.currency_id = i.currency_id LIMIT 1
    ) w ON true
    LEFT JOIN LATERAL (
      SELECT r.id, r.wallet_id, r.closed, r.staked_available, r.staked_bonus, r.won FROM game_rounds r
      WHERE r.provider_id = i.provider_id AND r.round_id = i.round_id LIMIT 1
    ) r ON true
    -- The session, if it is this game's and the provider signs with this key (any expiry).
    LEFT JOIN LATERAL (
      SELECT s.expires_at FROM game_sessions s JOIN games g ON g.id = s.game_id
      WHERE s.id = i.session_id AND s.game_id = i.game_id
        AND (SELECT p.wallet_secret FROM providers p WHERE p.id = g.provider_id) = i.wallet_secret
      LIMIT 1
    ) session ON true
    LEFT JOIN LATERAL (
      SELECT u.active AND NOT u.self_exclusion_permanent AND (u.self_excluded_until IS NULL OR u.self_excluded_until <= p_at) AS may_play
      FROM users u WHERE u.id = i.user_id LIMIT 1
    ) player ON true
    LEFT JOIN LATERAL (
      SELECT true AS found FROM user_bonuses b WHERE b.user_id = i.user_id AND b.wallet_id = i.wallet_id AND b.status IN ('active', 'queued') LIMIT 1
    ) bonus ON true
    LEFT JOIN LATERAL (SELECT true AS found FROM gambling_limits l WHERE l.user_id = i.user_id AND l.kind IN ('bet', 'loss') LIMIT 1) bet_limit ON true
    LEFT JOIN LATERAL (
      SELECT true AS found FROM game_wallet_actions a WHERE a.round_pk = r.id AND a.action = i.action AND a.transaction_id = i.transaction_id LIMIT 1
    ) called ON true
    LEFT JOIN LATERAL (
      SELECT true AS found FROM ledger_transactions t WHERE t.idempotency_scope = i.ledger_scope AND t.idempotency_key = i.ledger_key LIMIT 1
    ) posted ON true
    LEFT JOIN LATERAL (SELECT p.max_win_multiplier FROM providers p WHERE p.id = i.provider_id LIMIT 1) provider ON true
    -- Each call's status worked out once (a subquery merged into the aggregates above would repeat its checks
    -- for every aggregate that reads the status).
    OFFSET 0
  ) c;

  IF v_done > 0 THEN
    PERFORM set_config('casino.announce', 'by_server', true),
      set_config('casino.ledger_balanced_by', array_to_string(ARRAY(
        SELECT x.public_id::text FROM unnest(p_ledger_public_id, p_amount, v_status) AS x(public_id, amount, status)
        WHERE x.status = 'done' AND x.amount <> 0), ','), true);

    -- The calls that passed, written together: the wallets moved, a bet's round opened or its stake added
    -- to, a win added to its round's winnings, the ledger transactions and their two entries each, the calls.
    WITH b AS (
      SELECT * FROM unnest(p_action, p_wallet_id, p_user_id, p_currency_id, p_provider_id, p_session_id, p_game_id, p_game_identifier, p_round_id,
          p_transaction_id, p_amount, p_request_hash, p_ledger_public_id, p_ledger_scope, p_ledger_key, p_ledger_hash, v_status, v_round_pk,
          v_available, v_bonus)
        WITH ORDINALITY AS b(action, wallet_id, user_id, currency_id, provider_id, session_id, game_id, game_identifier, round_id,
          transaction_id, amount, request_hash, public_id, ledger_scope, ledger_key, ledger_hash, status, round_pk,
          available, bonus, n)
      WHERE b.status = 'done'
    ), moved AS (
      UPDATE wallets w SET available = w.available + CASE b.action WHEN 'bet' THEN -b.amount ELSE b.amount END
      FROM b WHERE b.amount <> 0 AND w.id = b.wallet_id AND w.id = ANY (p_wallet_id)
      RETURNING w.id
    ), opened AS (
      INSERT INTO game_rounds AS r (provider_id, round_id, session_id, user_id, wallet_id, currency_id, game_id, staked_available, created_at, updated_at)
      SELECT b.provider_id, b.round_id, b.session_id, b.user_id, b.wallet_id, b.currency_id, b.game_id, b.amount, p_at, p_at
      FROM b WHERE b.action = 'bet'
      ON CONFLICT (provider_id, round_id) DO UPDATE SET staked_available = r.staked_available + EXCLUDED.staked_available, updated_at = EXCLUDED.updated_at
        WHERE r.wallet_id = EXCLUDED.wallet_id AND NOT r.closed
      RETURNING r.id, r.wallet_id
    ), settled AS (
      UPDATE game_rounds r SET won = r.won + b.amount, settled = true, updated_at = p_at
      FROM b WHERE b.action = 'win' AND r.id = b.round_pk AND r.id = ANY (v_round_pk)
      RETURNING r.id, r.wallet_id
    ), rounds AS (
      SELECT * FROM opened UNION ALL SELECT * FROM settled
    ), t AS (
      INSERT INTO ledger_transactions (public_id, kind, idempotency_scope, idempotency_key, request_hash, user_id, wallet_id, currency_id,
        type, action_type, status, amount, before_balance, after_balance, game_identifier, created_at)
      SELECT b.public_id, 'game.' || b.action, b.ledger_scope, b.ledger_key, b.ledger_hash, b.user_id, b.wallet_id, b.currency_id,
        'casino', b.action, 'completed', b.amount, b.available, b.available + CASE b.action WHEN 'bet' THEN -b.amount ELSE b.amount END,
        b.game_identifier, p_at
      FROM b WHERE b.amount <> 0
      ON CONFLICT (idempotency_scope, idempotency_key) DO NOTHING
      RETURNING id, wallet_id
    ), e AS (
      INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
      SELECT t.id, a.id, b.currency_id, CASE b.action WHEN 'bet' THEN -b.amount ELSE b.amount END
      FROM t JOIN b ON b.wallet_id = t.wallet_id JOIN ledger_accounts a ON a.wallet_id = b.wallet_id AND a.wallet_id = ANY (p_wallet_id) AND a.kind = 'available'
      UNION ALL
      SELECT t.id, a.id, b.currency_id, CASE b.action WHEN 'bet' THEN b.amount ELSE -b.amount END
      FROM t JOIN b ON b.wallet_id = t.wallet_id JOIN ledger_accounts a ON a.wallet_id IS NULL AND a.currency_id = b.currency_id AND a.kind = 'house'
      RETURNING 1
    ), calls AS (
      INSERT INTO game_wallet_actions (round_pk, action, transaction_id, reference_id, user_id, amount, bonus_amount, request_hash,
        ledger_transaction_id, available_after, bonus_after, created_at)
      SELECT rounds.id, b.action, b.transaction_id, NULL, b.user_id, b.amount, 0, b.request_hash, t.id,
        b.available + CASE b.action WHEN 'bet' THEN -b.amount ELSE b.amount END, b.bonus, p_at
      FROM b LEFT JOIN rounds ON rounds.wallet_id = b.wallet_id LEFT JOIN t ON t.wallet_id = b.wallet_id
      ON CONFLICT (round_pk, action, transaction_id) DO NOTHING
      RETURNING id, user_id, ledger_transaction_id, round_pk
    )
    SELECT ARRAY[(SELECT count(*) FROM moved), (SELECT count(*) FROM rounds), (SELECT count(*) FROM t), (SELECT count(*) FROM e), (SELECT count(*) FROM calls)]::integer[],
      (SELECT array_agg(calls.id ORDER BY b.n) FROM b LEFT JOIN calls ON calls.round_pk = (SELECT r.id FROM rounds r WHERE r.wallet_id = b.wallet_id)),
      (SELECT array_agg(calls.ledger_transaction_id ORDER BY b.n) FROM b LEFT JOIN calls ON calls.round_pk = (SELECT r.id FROM rounds r WHERE r.wallet_id = b.wallet_id))
    INTO v_counts, v_action_ids, v_ledger_ids;

    IF v_counts <> ARRAY[v_moving, v_done, v_moving, 2 * v_moving, v_done] OR array_position(v_action_ids, NULL) IS NOT NULL THEN
      RAISE EXCEPTION 'the batch wrote % (wallets, rounds, ledger transactions, entries, calls) for % calls, % of them moving money',
        v_counts, v_done, v_moving;
    END IF;
  END IF;

  -- Each call's answer, in the order given; the written ones' ids in the order of the calls that passed.
  RETURN QUERY
  SELECT i.n::integer, i.status,
    CASE WHEN i.status = 'done' THEN v_action_ids[i.k] END,
    CASE WHEN i.status = 'done' THEN v_ledger_ids[i.k] END,
    CASE WHEN i.status = 'done' THEN i.available + CASE i.action WHEN 'bet' THEN -i.amount ELSE i.amount END END,
    CASE WHEN i.status = 'done' THEN i.bonus END,
    CASE WHEN i.status = 'done' AND i.amount <> 0 THEN ARRAY[json_build_object('u', i.user_id, 'k', 'wallets', 'id', i.user_id)::text]
      ELSE ARRAY[]::text[] END,
    i.amount
  FROM (
    SELECT x.*, (count(*) FILTER (WHERE x.status = 'done') OVER (ORDER BY x.n))::integer AS k
    FROM unnest(p_action, p_user_id, p_amount, v_status, v_available, v_bonus) WITH ORDINALITY AS x(action, user_id, amount, status, available, bonus, n)
  ) i
  ORDER BY i.n;
END
$$;
