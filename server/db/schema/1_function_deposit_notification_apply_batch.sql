-- Deposit notifications of many transfers in one database transaction: deposit_notification_apply_batch
-- takes the notifications the server gathered while earlier ones were on their way (one per transfer, one
-- per deposit address, so one per wallet), checks each as deposit_notification_apply checks it, and writes
-- the deposits, wallets, ledger transactions, their entries and the players' notices of all of them in one
-- statement each, as game_wallet_play_batch does for bets and wins.
--
-- Nothing is written for a notification before every check has passed. The function locks the deposit rows
-- the notifications name, then their wallets in the order of their ids: every other writer of a deposit
-- takes its row before its wallet (deposit_notification_apply and the general path), so what the checks
-- read stays true until commit. A notification that fails a check answers like deposit_notification_apply's
-- errors, without writing: 'general' (GW001: the general path takes it: a replay, a transfer confirmed at
-- once, under the minimum, an unknown address, a bonus or a deposit limit in play) or 'changed' (GW002: the
-- confirmations required are no longer those the server gave). Anything else (a transfer another process
-- recorded meanwhile, a wallet holding less pending than the deposit, a missing ledger account) raises, and
-- the server runs each notification of the batch alone.
--
-- Each notification's address, its wallet and the wallet's currency are each a subquery of their own with
-- LIMIT (which keeps PostgreSQL from merging them into a join), so each is found by its key: with the
-- generic plan kept for the connection, a merge join chosen on small tables would read every wallet for
-- every notification once the table had grown (tests/server/batch-plans.test.ts reads the plans). The
-- database's foreign keys check the references of every row it writes, as they check every other writer's.
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
    -- The address, then its wallet by the wallet's id, then the wallet's currency by its id.
    LEFT JOIN LATERAL (
      SELECT d.id, d.wallet_id, w.user_id, w.currency_id, w.available, w.held, c.code, c.decimals, c.min_deposit
      FROM (SELECT d.id, d.wallet_id FROM deposit_addresses d WHERE d.provider = p_provider AND d.address = i.address LIMIT 1) d
        CROSS JOIN LATERAL (
          SELECT w.user_id, w.currency_id, w.available, w.held FROM wallets w WHERE w.id = d.wallet_id LIMIT 1
        ) w
        CROSS JOIN LATERAL (
          SELECT c.code, c.decimals, c.min_deposit FROM currencies c WHERE c.id = w.currency_id LIMIT 1
        ) c
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
    PERFORM set_config('casino.announce', 'by_server', true),
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
