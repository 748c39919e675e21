-- The money path's references, checked once per statement instead of once per row, and not at all for
-- the rows the batch functions write, which they check themselves. A foreign key runs a query of its own
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
--   keys), unless the statement is the write of a batch function, which vouches for its rows by the
--   setting casino.references_checked for that statement alone. game_wallet_play_batch checks each call's
--   wallet, player, currency and session before writing, and writes the rounds, ledger transactions,
--   entries and calls that refer to one another in one statement; deposit_notification_apply_batch takes
--   each ledger transaction's wallet, player and currency from the wallet's own row.
-- - The rows referred to stay: a wallet, a game session, a round and a ledger transaction (append-only
--   since migration 0006) are never deleted, and their keys never change; nor do a round's or a call's
--   referring columns (ledger rows do not change at all). So a row found once is there at commit, and
--   no check needs the KEY SHARE lock a foreign key takes on it. The triggers that refuse those changes
--   fire once per statement, only on a delete or on an update that names such a column, which no path
--   makes.
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

-- The check, unless the statement's writer vouches for its rows (the batch functions, below).
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

-- The rows referred to stay, with their keys, and so do the rounds' and the calls' references. A statement
-- that deletes from these tables, or names one of these columns in its SET list, is refused as a whole
-- (no path makes one). Checked once per statement, not per row: a row trigger on an update, even one
-- that never fires, has PostgreSQL lock and copy every row the update touches before it is written.
CREATE FUNCTION references_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION '% rows are kept: other rows refer to them', TG_TABLE_NAME
      USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME;
  END IF;
  RAISE EXCEPTION '% does not change % of its rows: other rows refer to them by these', TG_TABLE_NAME, array_to_string(TG_ARGV, ', ')
    USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME;
END
$$;
CREATE TRIGGER wallets_kept BEFORE DELETE OR UPDATE OF id, user_id, currency_id ON wallets
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('id', 'user_id', 'currency_id');
CREATE TRIGGER game_sessions_kept BEFORE DELETE OR UPDATE OF id ON game_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('id');
CREATE TRIGGER game_rounds_kept BEFORE DELETE OR UPDATE OF id, session_id, wallet_id, user_id, currency_id ON game_rounds
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('id', 'session_id', 'wallet_id', 'user_id', 'currency_id');
-- A call's round and ledger transaction are those it was written with (calls are never deleted either).
CREATE TRIGGER game_wallet_actions_kept BEFORE DELETE OR UPDATE OF round_pk, ledger_transaction_id ON game_wallet_actions
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('round_pk', 'ledger_transaction_id');

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

-- deposit_notification_apply_batch as in migration 0025, its write vouching for its ledger rows' references
-- in the same way.
CREATE OR REPLACE FUNCTION deposit_notification_apply_batch(
  p_provider text,
  p_tx_id text[],
  p_address text[],
  p_currency_code text[],
  p_amount numeric[],
  p_confirmations integer[],
  p_required integer[],
  p_ledger_public_id uuid[],
  p_ledger_scope text,
  p_ledger_key text[],
  p_notice_title text[],
  p_notice_message text[],
  p_at timestamptz
) RETURNS TABLE (out_n integer, out_status text, out_confirmations integer, out_announce text[])
-- Planned once per connection (see game_wallet_play_batch), and never by scanning a table: a plan cached
-- while the tables were small would otherwise read every deposit, wallet or ledger row of the provider at
-- each batch once they have grown (migration 0026). Every row it reads is found by its key.
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_calls integer := cardinality(p_tx_id);
  v_status text[];
  v_address bigint[];
  v_wallet bigint[];
  v_user bigint[];
  v_currency integer[];
  v_available numeric[];
  v_pending_id bigint[];
  v_deposit bigint[];
  v_confirmations integer[];
  v_hash text[];
  v_ledger bigint[];
  v_notice bigint[];
  v_seen integer;
  v_credited integer;
  v_counts integer[];
  v_required integer;
BEGIN
  IF v_calls IS NULL OR v_calls = 0 THEN
    RETURN;
  END IF;
  -- The transfers' deposit rows and the addresses' wallets, each found by its whole key.
  v_deposit := ARRAY(SELECT (SELECT d.id FROM deposits d WHERE d.provider = p_provider AND d.provider_tx_id = x) FROM unnest(p_tx_id) x);
  v_wallet := ARRAY(SELECT (SELECT d.wallet_id FROM deposit_addresses d WHERE d.provider = p_provider AND d.address = x) FROM unnest(p_address) x);
  IF (SELECT count(DISTINCT x) FROM unnest(p_tx_id) x) <> v_calls OR (SELECT count(DISTINCT x) FROM unnest(p_address) x) <> v_calls
    OR (SELECT count(DISTINCT w) <> count(w) FROM unnest(v_wallet) w) THEN
    RAISE EXCEPTION 'a batch takes one notification per transfer and per wallet';
  END IF;
  PERFORM 1 FROM deposits d WHERE d.id = ANY (v_deposit) ORDER BY d.id FOR UPDATE;
  PERFORM 1 FROM wallets w WHERE w.id = ANY (v_wallet) ORDER BY w.id FOR UPDATE;
  v_required := (SELECT st.deposit_confirmations FROM settings st WHERE st.id = 1);

  -- Each notification's checks, read after the locks, in deposit_notification_apply's order.
  SELECT array_agg(c.status ORDER BY c.n), array_agg(c.address_id ORDER BY c.n), array_agg(c.wallet_id ORDER BY c.n),
    array_agg(c.user_id ORDER BY c.n), array_agg(c.currency_id ORDER BY c.n), array_agg(c.available ORDER BY c.n),
    array_agg(c.pending_id ORDER BY c.n), array_agg(c.deposit_id ORDER BY c.n), array_agg(c.confirmations ORDER BY c.n),
    array_agg(CASE c.status
      WHEN 'pending' THEN encode(sha256(convert_to(format(
        '{"kind":"deposit.pending","legs":[["system:%s:provider_clearing","-%s"],["wallet:%s:pending","%s"]],"visible":[%s,"deposit","deposit","pending","%s",null],"related":null}',
        c.currency_id, c.units, c.wallet_id, c.units, c.wallet_id, c.units), 'UTF8')), 'hex')
      WHEN 'credited' THEN encode(sha256(convert_to(format(
        '{"kind":"deposit.credit","legs":[["wallet:%s:available","%s"],["wallet:%s:pending","-%s"]],"visible":[%s,"deposit","deposit","completed","%s",null],"related":%s}',
        c.wallet_id, c.units, c.wallet_id, c.units, c.wallet_id, c.units, c.pending_id), 'UTF8')), 'hex')
    END ORDER BY c.n),
    count(*) FILTER (WHERE c.status = 'pending'), count(*) FILTER (WHERE c.status = 'credited')
  INTO v_status, v_address, v_wallet, v_user, v_currency, v_available, v_pending_id, v_deposit, v_confirmations, v_hash, v_seen, v_credited
  FROM (
    SELECT i.n, a.id AS address_id, a.wallet_id, a.user_id, a.currency_id, a.available, dep.pending_transaction_id AS pending_id,
      dep.id AS deposit_id, greatest(dep.confirmations, i.confirmations) AS confirmations,
      (i.amount * 100000000)::numeric(40, 0)::text AS units,
      CASE
        WHEN a.id IS NOT NULL AND v_required IS DISTINCT FROM i.required THEN 'changed'
        WHEN a.id IS NULL OR a.code <> i.currency_code OR i.amount <= 0 OR i.amount < a.min_deposit
          OR trunc(i.amount * 10::numeric ^ a.decimals) <> i.amount * 10::numeric ^ a.decimals THEN 'general'
        WHEN i.confirmations < i.required THEN CASE WHEN dep.id IS NOT NULL OR posted.found THEN 'general' ELSE 'pending' END
        WHEN bonus.found OR a.held > 0 OR deposit_limit.found THEN 'general'
        WHEN dep.id IS NULL OR dep.status <> 'pending' OR dep.pending_transaction_id IS NULL OR dep.deposit_address_id <> a.id
          OR dep.amount <> i.amount OR posted.found THEN 'general'
        ELSE 'credited'
      END AS status
    FROM unnest(p_tx_id, p_address, p_currency_code, p_amount, p_confirmations, p_required, p_ledger_key)
      WITH ORDINALITY AS i(tx_id, address, currency_code, amount, confirmations, required, ledger_key, n)
    -- Every look-up is a subquery of its own (LIMIT keeps PostgreSQL from merging it into a join), run
    -- notification by notification with its whole key: joined or hashed instead, a plan cached while the
    -- tables were small read them whole at every batch once they had grown.
    LEFT JOIN LATERAL (
      SELECT d.id, d.wallet_id, w.user_id, w.currency_id, w.available, w.held, c.code, c.decimals, c.min_deposit
      FROM deposit_addresses d JOIN wallets w ON w.id = d.wallet_id JOIN currencies c ON c.id = w.currency_id
      WHERE d.provider = p_provider AND d.address = i.address LIMIT 1
    ) a ON true
    LEFT JOIN LATERAL (
      SELECT d.id, d.status, d.pending_transaction_id, d.deposit_address_id, d.amount, d.confirmations FROM deposits d
      WHERE d.provider = p_provider AND d.provider_tx_id = i.tx_id LIMIT 1
    ) dep ON true
    LEFT JOIN LATERAL (
      SELECT true AS found FROM ledger_transactions t
      WHERE t.idempotency_scope = p_ledger_scope
        AND t.idempotency_key = i.ledger_key || CASE WHEN i.confirmations < i.required THEN ':pending' ELSE ':credit' END
      LIMIT 1
    ) posted ON true
    LEFT JOIN LATERAL (
      SELECT true AS found FROM user_bonuses b WHERE b.user_id = a.user_id AND b.status IN ('active', 'queued') LIMIT 1
    ) bonus ON true
    LEFT JOIN LATERAL (
      SELECT true AS found FROM gambling_limits l WHERE l.user_id = a.user_id AND l.kind = 'deposit' LIMIT 1
    ) deposit_limit ON true
    -- Each notification's status worked out once (a subquery merged into the aggregates above would repeat
    -- its checks for every aggregate that reads the status).
    OFFSET 0
  ) c;

  IF v_seen + v_credited > 0 THEN
    -- The ids the writes take, given now so that each notification's answer names its own rows.
    SELECT array_agg(CASE WHEN x.status IN ('pending', 'credited') THEN nextval('ledger_transactions_id_seq') END ORDER BY x.n),
      array_agg(CASE WHEN x.status = 'credited' THEN nextval('user_notifications_id_seq') END ORDER BY x.n),
      array_agg(CASE WHEN x.status = 'pending' THEN nextval('deposits_id_seq') ELSE x.deposit END ORDER BY x.n)
    INTO v_ledger, v_notice, v_deposit
    FROM unnest(v_status, v_deposit) WITH ORDINALITY AS x(status, deposit, n);
    -- The write below vouches for the references of its ledger rows (the wallet, player and currency of each
    -- transaction are those of the wallet row read above, and the entries are written with their
    -- transactions); for that statement alone.
    PERFORM set_config('casino.announce', 'by_server', true), set_config('casino.references_checked', 'on', true),
      set_config('casino.ledger_balanced_by', array_to_string(ARRAY(
        SELECT x.public_id::text FROM unnest(p_ledger_public_id, v_status) AS x(public_id, status) WHERE x.status IN ('pending', 'credited')), ','), true);

    -- The notifications that passed, written together: a transfer seen recorded and its amount added to the
    -- wallet's pending balance; a pending transfer now confirmed credited, its amount moved from pending to
    -- available, and the player told; the ledger transactions and their two entries each.
    WITH b AS (
      SELECT * FROM unnest(p_tx_id, p_amount, p_confirmations, p_ledger_public_id, p_ledger_key, p_notice_title, p_notice_message, v_status,
          v_address, v_wallet, v_user, v_currency, v_available, v_pending_id, v_deposit, v_confirmations, v_hash, v_ledger, v_notice)
        AS b(tx_id, amount, confirmations, public_id, ledger_key, notice_title, notice_message, status,
          address_id, wallet_id, user_id, currency_id, available, pending_id, deposit_id, new_confirmations, hash, ledger_id, notice_id)
      WHERE b.status IN ('pending', 'credited')
    ), seen AS (
      INSERT INTO deposits (id, provider, provider_tx_id, deposit_address_id, wallet_id, user_id, currency_id, amount, confirmations, status,
        pending_transaction_id, created_at, updated_at)
      SELECT b.deposit_id, p_provider, b.tx_id, b.address_id, b.wallet_id, b.user_id, b.currency_id, b.amount, b.confirmations, 'pending',
        b.ledger_id, p_at, p_at
      FROM b WHERE b.status = 'pending'
      ON CONFLICT (provider, provider_tx_id) DO NOTHING
      RETURNING 1
    ), credited AS (
      UPDATE deposits d SET confirmations = b.new_confirmations, status = 'credited', settled_transaction_id = b.ledger_id, credited_at = p_at,
        updated_at = p_at
      FROM b WHERE b.status = 'credited' AND d.id = b.deposit_id AND d.id = ANY (v_deposit) AND d.status = 'pending'
      RETURNING 1
    ), moved AS (
      UPDATE wallets w SET pending = w.pending + CASE b.status WHEN 'pending' THEN b.amount ELSE -b.amount END,
        available = w.available + CASE b.status WHEN 'credited' THEN b.amount ELSE 0 END
      FROM b WHERE w.id = b.wallet_id AND w.id = ANY (v_wallet) AND (b.status = 'pending' OR w.pending >= b.amount)
      RETURNING 1
    ), t AS (
      INSERT INTO ledger_transactions (id, public_id, kind, idempotency_scope, idempotency_key, request_hash, related_transaction_id, user_id,
        wallet_id, currency_id, type, action_type, status, amount, before_balance, after_balance, created_at)
      SELECT b.ledger_id, b.public_id, CASE b.status WHEN 'pending' THEN 'deposit.pending' ELSE 'deposit.credit' END, p_ledger_scope,
        b.ledger_key || CASE b.status WHEN 'pending' THEN ':pending' ELSE ':credit' END, b.hash,
        CASE b.status WHEN 'credited' THEN b.pending_id END, b.user_id, b.wallet_id, b.currency_id, 'deposit', 'deposit',
        CASE b.status WHEN 'pending' THEN 'pending' ELSE 'completed' END, b.amount, b.available,
        b.available + CASE b.status WHEN 'credited' THEN b.amount ELSE 0 END, p_at
      FROM b
      ON CONFLICT (idempotency_scope, idempotency_key) DO NOTHING
      RETURNING id
    ), e AS (
      INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
      SELECT t.id, a.id, b.currency_id,
        CASE WHEN a.kind = 'available' OR b.status = 'pending' THEN b.amount ELSE -b.amount END
      FROM t JOIN b ON b.ledger_id = t.id
        JOIN ledger_accounts a ON a.wallet_id = b.wallet_id AND a.wallet_id = ANY (v_wallet)
          AND (a.kind = 'pending' OR (a.kind = 'available' AND b.status = 'credited'))
      UNION ALL
      SELECT t.id, a.id, b.currency_id, -b.amount
      FROM t JOIN b ON b.ledger_id = t.id
        JOIN ledger_accounts a ON a.wallet_id IS NULL AND a.currency_id = b.currency_id AND a.kind = 'provider_clearing'
      WHERE b.status = 'pending'
      RETURNING 1
    ), notices AS (
      INSERT INTO user_notifications (id, user_id, title, message, created_at)
      SELECT b.notice_id, b.user_id, b.notice_title, b.notice_message, p_at FROM b WHERE b.status = 'credited'
      RETURNING 1
    )
    SELECT ARRAY[(SELECT count(*) FROM seen), (SELECT count(*) FROM credited), (SELECT count(*) FROM moved), (SELECT count(*) FROM t),
      (SELECT count(*) FROM e), (SELECT count(*) FROM notices)]::integer[]
    INTO v_counts;

    PERFORM set_config('casino.references_checked', '', true);

    IF v_counts <> ARRAY[v_seen, v_credited, v_seen + v_credited, v_seen + v_credited, 2 * (v_seen + v_credited), v_credited] THEN
      RAISE EXCEPTION 'the batch wrote % (deposits seen, credited, wallets, ledger transactions, entries, notices) for % seen and % credited',
        v_counts, v_seen, v_credited;
    END IF;
  END IF;

  -- Each notification's answer, in the order given.
  RETURN QUERY
  SELECT x.n::integer, x.status,
    CASE x.status WHEN 'pending' THEN x.confirmations WHEN 'credited' THEN x.new_confirmations END,
    CASE x.status
      WHEN 'pending' THEN ARRAY[json_build_object('u', x.user_id, 'k', 'deposit', 'id', x.deposit_id)::text,
        json_build_object('u', x.user_id, 'k', 'wallets', 'id', x.user_id)::text]
      WHEN 'credited' THEN ARRAY[json_build_object('u', x.user_id, 'k', 'deposit', 'id', x.deposit_id)::text,
        json_build_object('u', x.user_id, 'k', 'wallets', 'id', x.user_id)::text,
        json_build_object('u', x.user_id, 'k', 'notification', 'id', x.notice_id)::text]
      ELSE ARRAY[]::text[]
    END
  FROM unnest(v_status, p_confirmations, v_confirmations, v_user, v_deposit, v_notice) WITH ORDINALITY
    AS x(status, confirmations, new_confirmations, user_id, deposit_id, notice_id, n)
  ORDER BY x.n;
END
$$;
