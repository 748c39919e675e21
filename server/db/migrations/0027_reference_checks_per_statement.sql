-- The money path's references, checked once per statement instead of once per row, and not at all for
-- the rows game_wallet_play_batch writes, which it checks itself. A foreign key runs a query of its own
-- for every row written (an executor started, a plan run, a row locked): a batch of 8 bets and 8 wins ran
-- 80 of them. The six foreign keys that every bet, win and deposit credit checked are replaced:
--
--   game_rounds (session_id) -> game_sessions (id)                    game_rounds_session_id_fkey
--   game_rounds (wallet_id, user_id, currency_id) -> wallets           game_rounds_wallet_id_user_id_currency_id_fkey
--   ledger_transactions (wallet_id, user_id, currency_id) -> wallets   ledger_transactions_wallet_id_user_id_currency_id_fkey
--   ledger_entries (transaction_id, xact) -> ledger_transactions       ledger_entries_transaction_xact
--   game_wallet_actions (round_pk) -> game_rounds (id)                 game_wallet_actions_round_pk_fkey
--   game_wallet_actions (ledger_transaction_id) -> ledger_transactions game_wallet_actions_ledger_transaction_id_fkey
--
-- - Every statement that writes one of these tables has every row it wrote checked at its end, in one
--   query over the statement's transition table (same names, error code 23503 and message as the foreign
--   keys), unless the statement is game_wallet_play_batch's own write, which vouches for its rows by the
--   setting casino.references_checked for that statement alone: it checks each call's wallet, player,
--   currency and session before writing, and writes the rounds, ledger transactions, entries and calls
--   that refer to one another in one statement.
-- - The rows referred to stay: a wallet, a game session, a round and a ledger transaction (append-only
--   since migration 0006) are never deleted, and their keys never change; nor do a round's or a call's
--   referring columns (ledger rows do not change at all). So a row found once is there at commit, and
--   no check needs the KEY SHARE lock a foreign key takes on it. The triggers that refuse those changes
--   fire only on a delete or on an update that names such a column, which no path makes.
-- - Rows are found through the referred tables' own keys, never by scanning them.
ALTER TABLE game_rounds DROP CONSTRAINT game_rounds_session_id_fkey;
ALTER TABLE game_rounds DROP CONSTRAINT game_rounds_wallet_id_user_id_currency_id_fkey;
ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_wallet_id_user_id_currency_id_fkey;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_transaction_xact;
ALTER TABLE game_wallet_actions DROP CONSTRAINT game_wallet_actions_round_pk_fkey;
ALTER TABLE game_wallet_actions DROP CONSTRAINT game_wallet_actions_ledger_transaction_id_fkey;

-- The error a foreign key raises, for a row of p_table whose p_columns hold p_key with no such row in p_referred.
CREATE FUNCTION reference_missing(p_table text, p_constraint text, p_columns text, p_key text, p_referred text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'insert or update on table "%" violates foreign key constraint "%"', p_table, p_constraint
    USING ERRCODE = 'foreign_key_violation', CONSTRAINT = p_constraint, TABLE = p_table,
      DETAIL = format('Key (%s)=(%s) is not present in table "%s".', p_columns, p_key, p_referred);
END
$$;

-- The check, unless the statement's writer vouches for its rows (game_wallet_play_batch, below).
-- Planned once per connection like any plpgsql statement, and never as a scan of the referred table (a
-- plan made while a table is small would otherwise keep scanning it once it is large; migration 0026):
-- each row is looked up by its key in a subquery of its own, which LIMIT keeps from being merged into a join.
CREATE FUNCTION game_rounds_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  SELECT n.session_id INTO v_missing
  FROM (SELECT DISTINCT w.session_id FROM written w) n
  LEFT JOIN LATERAL (SELECT s.id FROM game_sessions s WHERE s.id = n.session_id LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('game_rounds', 'game_rounds_session_id_fkey', 'session_id', v_missing.session_id, 'game_sessions');
  END IF;
  SELECT n.wallet_id, n.user_id, n.currency_id INTO v_missing
  FROM (SELECT DISTINCT w.wallet_id, w.user_id, w.currency_id FROM written w) n
  LEFT JOIN LATERAL (
    SELECT x.id FROM wallets x WHERE x.id = n.wallet_id AND x.user_id = n.user_id AND x.currency_id = n.currency_id LIMIT 1
  ) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('game_rounds', 'game_rounds_wallet_id_user_id_currency_id_fkey', 'wallet_id, user_id, currency_id',
      concat_ws(', ', v_missing.wallet_id, v_missing.user_id, v_missing.currency_id), 'wallets');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER game_rounds_references AFTER INSERT ON game_rounds
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION game_rounds_check_references();

CREATE FUNCTION ledger_transactions_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  -- A transaction with no wallet (a system-only posting) refers to none (MATCH SIMPLE: a null column skips the check).
  SELECT n.wallet_id, n.user_id, n.currency_id INTO v_missing
  FROM (
    SELECT DISTINCT w.wallet_id, w.user_id, w.currency_id FROM written w
    WHERE w.wallet_id IS NOT NULL AND w.user_id IS NOT NULL AND w.currency_id IS NOT NULL
  ) n
  LEFT JOIN LATERAL (
    SELECT x.id FROM wallets x WHERE x.id = n.wallet_id AND x.user_id = n.user_id AND x.currency_id = n.currency_id LIMIT 1
  ) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('ledger_transactions', 'ledger_transactions_wallet_id_user_id_currency_id_fkey', 'wallet_id, user_id, currency_id',
      concat_ws(', ', v_missing.wallet_id, v_missing.user_id, v_missing.currency_id), 'wallets');
  END IF;
  RETURN NULL;
END
$$;
-- Ledger transactions are append-only: an insert is the only way a row gets its wallet.
CREATE TRIGGER ledger_transactions_references AFTER INSERT ON ledger_transactions
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION ledger_transactions_check_references();

-- An entry's ledger transaction was written by the same database transaction (its xact, migration 0015),
-- so the commit-time balance check sees every entry of it.
CREATE FUNCTION ledger_entries_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  SELECT n.transaction_id, n.xact INTO v_missing
  FROM (SELECT DISTINCT w.transaction_id, w.xact FROM written w) n
  LEFT JOIN LATERAL (SELECT t.id FROM ledger_transactions t WHERE t.id = n.transaction_id AND t.xact = n.xact LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('ledger_entries', 'ledger_entries_transaction_xact', 'transaction_id, xact',
      concat_ws(', ', v_missing.transaction_id, v_missing.xact), 'ledger_transactions');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER ledger_entries_references AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION ledger_entries_check_references();

CREATE FUNCTION game_wallet_actions_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  SELECT n.round_pk INTO v_missing
  FROM (SELECT DISTINCT w.round_pk FROM written w) n
  LEFT JOIN LATERAL (SELECT r.id FROM game_rounds r WHERE r.id = n.round_pk LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('game_wallet_actions', 'game_wallet_actions_round_pk_fkey', 'round_pk', v_missing.round_pk::text, 'game_rounds');
  END IF;
  SELECT n.ledger_transaction_id INTO v_missing
  FROM (SELECT DISTINCT w.ledger_transaction_id FROM written w WHERE w.ledger_transaction_id IS NOT NULL) n
  LEFT JOIN LATERAL (SELECT t.id FROM ledger_transactions t WHERE t.id = n.ledger_transaction_id LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('game_wallet_actions', 'game_wallet_actions_ledger_transaction_id_fkey', 'ledger_transaction_id',
      v_missing.ledger_transaction_id::text, 'ledger_transactions');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER game_wallet_actions_references AFTER INSERT ON game_wallet_actions
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION game_wallet_actions_check_references();

-- The rows referred to stay, with their keys, and so do the rounds' and the calls' references.
CREATE FUNCTION references_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_column text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION '% rows are kept: other rows refer to them', TG_TABLE_NAME
      USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME;
  END IF;
  FOREACH v_column IN ARRAY TG_ARGV LOOP
    IF (to_jsonb(NEW) -> v_column) IS DISTINCT FROM (to_jsonb(OLD) -> v_column) THEN
      RAISE EXCEPTION '%.% is a key other rows refer to and does not change', TG_TABLE_NAME, v_column
        USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME, COLUMN = v_column;
    END IF;
  END LOOP;
  RETURN NEW;
END
$$;
CREATE TRIGGER wallets_kept BEFORE DELETE OR UPDATE OF id, user_id, currency_id ON wallets
  FOR EACH ROW EXECUTE FUNCTION references_kept('id', 'user_id', 'currency_id');
CREATE TRIGGER game_sessions_kept BEFORE DELETE OR UPDATE OF id ON game_sessions
  FOR EACH ROW EXECUTE FUNCTION references_kept('id');
CREATE TRIGGER game_rounds_kept BEFORE DELETE OR UPDATE OF id, session_id, wallet_id, user_id, currency_id ON game_rounds
  FOR EACH ROW EXECUTE FUNCTION references_kept('id', 'session_id', 'wallet_id', 'user_id', 'currency_id');
-- A call's round and ledger transaction are those it was written with (calls are never deleted either).
CREATE TRIGGER game_wallet_actions_kept BEFORE DELETE OR UPDATE OF round_pk, ledger_transaction_id ON game_wallet_actions
  FOR EACH ROW EXECUTE FUNCTION references_kept('round_pk', 'ledger_transaction_id');

-- game_wallet_play_batch as in migration 0026, with two changes: a call whose wallet is not its player's in
-- its currency is 'changed' (the server reads the session again), where the foreign keys would have failed
-- the whole batch; and its write vouches for the references of its rows (casino.references_checked), set
-- just before it and cleared just after. A session the checks found stays (sessions are kept), as do the
-- wallets, locked by the batch.
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
    -- The write below vouches for the references of the rows it writes (the checks above passed for each,
    -- and the rows that refer to one another are written together); for that statement alone.
    PERFORM set_config('casino.announce', 'by_server', true), set_config('casino.references_checked', 'on', true),
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

    PERFORM set_config('casino.references_checked', '', true);

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
