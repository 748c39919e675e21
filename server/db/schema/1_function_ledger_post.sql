-- The ledger's one writer: posts one balanced transaction. Every balance change of the casino is one call
-- of it, from the money operations written in SQL and from server/domain/ledger.ts (postTransaction) alike.
--
-- Legs are parallel arrays: a player's account is (wallet, kind), a casino account (currency, kind); an
-- amount is added to its account (negative takes money out). Legs on one account are netted, zero legs
-- and zero nets dropped (a caller lists every account an operation may move). In this order:
--   1. the posting checked: its kind, its idempotency key, at least two accounts, each known, each amount
--      within its currency's precision, the entries summing to zero per currency, the visible record
--      whole (raises SQLSTATE LG003, the message 'PROBLEM: detail');
--   2. a key used before: the same posting (same request hash) gets that first transaction back,
--      replayed; another posting raises LG002 (concurrent postings of one key wait on its advisory lock,
--      then see the first);
--   3. the cached balances moved, one conditional update per wallet in id order, never below zero
--      (raises LG001, the message 'wallet:kind:balance:change' of the first balance that cannot take it);
--   4. the transaction (with the player-visible record: the wallet's available balance before and after)
--      and its entries, vouched for in casino.ledger_balanced_by: balanced by construction in 1, they
--      skip the check at commit that any other writer's transaction gets (ledger_transactions_balanced).
-- The request hash is SHA-256 of the posting's canonical JSON, kind, netted legs in key order, visible
-- record and related transaction: what tells a replay from a reuse of its key.
CREATE OR REPLACE FUNCTION ledger_post(
  p_kind text,
  p_at timestamptz,
  p_leg_wallet bigint[],
  p_leg_currency integer[],
  p_leg_kind text[],
  p_leg_amount numeric[],
  p_scope text DEFAULT NULL,
  p_key text DEFAULT NULL,
  p_visible_wallet bigint DEFAULT NULL,
  p_type text DEFAULT NULL,
  p_action_type text DEFAULT NULL,
  p_status text DEFAULT NULL,
  p_visible_amount numeric DEFAULT NULL,
  p_game_identifier text DEFAULT NULL,
  p_related bigint DEFAULT NULL,
  p_public_id uuid DEFAULT NULL
) RETURNS TABLE (out_id bigint, out_public_id uuid, out_replayed boolean, out_available numeric, out_bonus numeric)
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_public_id uuid := coalesce(p_public_id, gen_random_uuid());
  v_problem text;
  v_hash text;
  v_account bigint[];
  v_currency integer[];
  v_amount numeric[];
  v_leg_wallet bigint[];
  v_leg_kind text[];
  v_wallets bigint[];
  v_existing record;
  v_w bigint;
  v_after record;
  v_change numeric;
  v_visible_currency integer;
  v_user bigint;
BEGIN
  -- 1. The posting checked, netted per account, each account found by its key, the request hash made,
  --    and the transaction vouched for (an error below undoes the setting with the rest), in one query.
  WITH input AS (
    SELECT x.wallet, x.currency, x.kind, x.amount FROM unnest(p_leg_wallet, p_leg_currency, p_leg_kind, p_leg_amount) AS x(wallet, currency, kind, amount)
  ), refused AS (
    SELECT CASE
        WHEN p_kind IS NULL OR p_kind !~ '^[a-z][a-z0-9_.]{0,49}$' THEN 'BAD_KIND: kind ' || coalesce(to_json(p_kind)::text, 'null')
        WHEN p_at IS NULL THEN 'BAD_DATE: at is required'
        WHEN (p_scope IS NULL) <> (p_key IS NULL) OR length(p_scope) NOT BETWEEN 1 AND 200 OR length(p_key) NOT BETWEEN 1 AND 200
          THEN 'BAD_IDEMPOTENCY_KEY: idempotency scope and key are 1 to 200 characters'
        WHEN cardinality(p_leg_kind) IS NULL OR cardinality(p_leg_wallet) IS DISTINCT FROM cardinality(p_leg_kind)
          OR cardinality(p_leg_currency) IS DISTINCT FROM cardinality(p_leg_kind) OR cardinality(p_leg_amount) IS DISTINCT FROM cardinality(p_leg_kind)
          THEN 'TOO_FEW_LEGS: the legs'' arrays differ in length'
        WHEN bool_or(i.amount IS NULL) THEN 'BAD_AMOUNT: a leg has no amount'
        WHEN bool_or(abs(i.amount) >= 1e22) THEN 'BAD_AMOUNT: a leg amount does not fit NUMERIC(30,8)'
        WHEN bool_or((i.wallet IS NULL) = (i.currency IS NULL) OR coalesce(i.wallet, i.currency) <= 0) THEN 'BAD_ACCOUNT: a leg names one wallet or one currency'
        WHEN bool_or(i.wallet IS NOT NULL AND i.kind NOT IN ('available', 'pending', 'bonus', 'held')) THEN 'BAD_ACCOUNT: a wallet account kind'
        WHEN bool_or(i.wallet IS NULL AND i.kind NOT IN ('house', 'provider_clearing', 'fees', 'bonus_pool', 'adjustments'))
          THEN 'BAD_ACCOUNT: a system account kind'
        WHEN p_visible_wallet IS NOT NULL AND (p_visible_amount IS NULL OR p_visible_amount < 0) THEN 'BAD_AMOUNT: visible.amount is unsigned'
        WHEN p_visible_wallet IS NOT NULL AND ((p_type = 'casino') IS DISTINCT FROM (p_game_identifier IS NOT NULL)
          OR length(p_game_identifier) NOT BETWEEN 1 AND 100)
          THEN 'GAME_IDENTIFIER: casino transactions carry a game identifier (1 to 100 characters), others none'
        WHEN p_related <= 0 THEN 'BAD_ACCOUNT: relatedTransactionId must be a positive integer'
      END AS problem
    FROM input i
  ), net AS (
    SELECT CASE WHEN i.wallet IS NOT NULL THEN 'wallet:' || i.wallet || ':' || i.kind ELSE 'system:' || i.currency || ':' || i.kind END AS key,
      i.wallet, i.currency, i.kind, sum(i.amount) AS amount
    FROM input i GROUP BY i.wallet, i.currency, i.kind HAVING sum(i.amount) <> 0
  ), resolved AS (
    SELECT n.key, n.wallet, n.kind, n.amount, a.id AS account_id, a.currency_id, c.decimals
    FROM net n
    -- Each account found by its key (a subquery of its own: never a join over the table).
    LEFT JOIN LATERAL (
      SELECT x.id, x.currency_id FROM ledger_accounts x WHERE x.wallet_id = n.wallet AND x.kind = n.kind
      UNION ALL
      SELECT x.id, x.currency_id FROM ledger_accounts x WHERE x.wallet_id IS NULL AND x.currency_id = n.currency AND x.kind = n.kind
      LIMIT 1
    ) a ON true
    LEFT JOIN LATERAL (SELECT y.decimals FROM currencies y WHERE y.id = a.currency_id LIMIT 1) c ON true
  ), checked AS (
    SELECT coalesce((SELECT r.problem FROM refused r), CASE
        WHEN count(*) < 2 THEN 'TOO_FEW_LEGS: a balance change moves money between at least two accounts'
        WHEN bool_or(r.account_id IS NULL) THEN 'UNKNOWN_ACCOUNT: ' || min(r.key) FILTER (WHERE r.account_id IS NULL)
        WHEN bool_or(trunc(r.amount * 10::numeric ^ r.decimals) <> r.amount * 10::numeric ^ r.decimals)
          THEN 'PRECISION: ' || min(r.key) FILTER (WHERE trunc(r.amount * 10::numeric ^ r.decimals) <> r.amount * 10::numeric ^ r.decimals)
            || ' is finer than its currency'
        WHEN EXISTS (SELECT 1 FROM resolved u GROUP BY u.currency_id HAVING sum(u.amount) <> 0)
          THEN 'UNBALANCED: legs in currency ' || (SELECT min(u.currency_id) FROM (SELECT u.currency_id FROM resolved u GROUP BY u.currency_id
            HAVING sum(u.amount) <> 0) u) || ' do not sum to zero'
        WHEN p_visible_wallet IS NOT NULL AND NOT coalesce(bool_or(r.wallet = p_visible_wallet), false)
          THEN 'VISIBLE_WALLET_UNTOUCHED: no leg touches wallet ' || p_visible_wallet
        WHEN p_visible_wallet IS NOT NULL AND trunc(p_visible_amount * 10::numeric ^ min(r.decimals) FILTER (WHERE r.wallet = p_visible_wallet))
          <> p_visible_amount * 10::numeric ^ min(r.decimals) FILTER (WHERE r.wallet = p_visible_wallet)
          THEN 'PRECISION: visible amount ' || p_visible_amount || ' is finer than its currency'
      END) AS problem,
      array_agg(r.account_id ORDER BY r.account_id) AS account_ids, array_agg(r.currency_id ORDER BY r.account_id) AS currency_ids,
      array_agg(r.amount ORDER BY r.account_id) AS amounts, array_agg(r.wallet ORDER BY r.account_id) AS leg_wallets,
      array_agg(r.kind ORDER BY r.account_id) AS leg_kinds,
      array_agg(DISTINCT r.wallet ORDER BY r.wallet) FILTER (WHERE r.wallet IS NOT NULL) AS wallets,
      min(r.currency_id) FILTER (WHERE r.wallet = p_visible_wallet) AS visible_currency,
      '{"kind":' || to_json(p_kind)::text || ',"legs":['
        || string_agg('[' || to_json(r.key)::text || ',"' || (r.amount * 100000000)::numeric(40, 0)::text || '"]', ',' ORDER BY r.key COLLATE "C")
        || '],"visible":' || CASE WHEN p_visible_wallet IS NULL THEN 'null' ELSE '[' || p_visible_wallet || ',' || to_json(p_type)::text || ','
          || to_json(p_action_type)::text || ',' || to_json(p_status)::text || ',"' || (p_visible_amount * 100000000)::numeric(40, 0)::text || '",'
          || coalesce(to_json(p_game_identifier)::text, 'null') || ']' END
        || ',"related":' || coalesce(p_related::text, 'null') || '}' AS canonical
    FROM resolved r
  )
  SELECT c.problem, encode(sha256(convert_to(c.canonical, 'UTF8')), 'hex'), c.account_ids, c.currency_ids, c.amounts, c.leg_wallets, c.leg_kinds,
    c.wallets, c.visible_currency
  INTO v_problem, v_hash, v_account, v_currency, v_amount, v_leg_wallet, v_leg_kind, v_wallets, v_visible_currency
  FROM checked c;
  IF v_problem IS NOT NULL THEN
    RAISE EXCEPTION '%', v_problem USING ERRCODE = 'LG003';
  END IF;

  -- 2. A key used before: the same posting is a replay, another a refusal.
  IF p_scope IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('ledger:' || length(p_scope) || ':' || p_scope || ':' || p_key, 0));
    SELECT t.id, t.public_id, t.request_hash, w.available, w.bonus INTO v_existing
    FROM ledger_transactions t LEFT JOIN LATERAL (SELECT w.available, w.bonus FROM wallets w WHERE w.id = t.wallet_id LIMIT 1) w ON true
    WHERE t.idempotency_scope = p_scope AND t.idempotency_key = p_key;
    IF FOUND THEN
      IF v_existing.request_hash <> v_hash THEN
        RAISE EXCEPTION 'IDEMPOTENCY_KEY_REUSED: % / % was used by transaction % for a different posting', p_scope, p_key, v_existing.public_id
          USING ERRCODE = 'LG002';
      END IF;
      out_id := v_existing.id;
      out_public_id := v_existing.public_id;
      out_replayed := true;
      out_available := v_existing.available;
      out_bonus := v_existing.bonus;
      RETURN NEXT;
      RETURN;
    END IF;
  END IF;

  -- 3. The cached balances, wallet by wallet in id order (the order every writer locks wallets in).
  FOREACH v_w IN ARRAY coalesce(v_wallets, ARRAY[]::bigint[]) LOOP
    UPDATE wallets w SET available = w.available + c.available, pending = w.pending + c.pending, bonus = w.bonus + c.bonus, held = w.held + c.held
    FROM (
      SELECT coalesce(sum(u.amount) FILTER (WHERE u.kind = 'available'), 0) AS available, coalesce(sum(u.amount) FILTER (WHERE u.kind = 'pending'), 0) AS pending,
        coalesce(sum(u.amount) FILTER (WHERE u.kind = 'bonus'), 0) AS bonus, coalesce(sum(u.amount) FILTER (WHERE u.kind = 'held'), 0) AS held
      FROM unnest(v_leg_wallet, v_leg_kind, v_amount) AS u(wallet, kind, amount) WHERE u.wallet = v_w
    ) c
    WHERE w.id = v_w AND w.available + c.available >= 0 AND w.pending + c.pending >= 0 AND w.bonus + c.bonus >= 0 AND w.held + c.held >= 0
    RETURNING w.user_id, w.available, w.bonus, c.available AS change INTO v_after;
    IF NOT FOUND THEN
      SELECT format('%s:%s:%s:%s', w.id, k.kind, k.balance, k.change) INTO v_problem
      FROM wallets w CROSS JOIN LATERAL (
        SELECT u.kind, CASE u.kind WHEN 'available' THEN w.available WHEN 'pending' THEN w.pending WHEN 'bonus' THEN w.bonus ELSE w.held END AS balance,
          sum(u.amount) AS change, min(array_position(ARRAY['available', 'pending', 'bonus', 'held'], u.kind)) AS n
        FROM unnest(v_leg_wallet, v_leg_kind, v_amount) AS u(wallet, kind, amount) WHERE u.wallet = v_w GROUP BY u.kind
      ) k
      WHERE w.id = v_w AND k.balance + k.change < 0 ORDER BY k.n LIMIT 1;
      RAISE EXCEPTION '%', v_problem USING ERRCODE = 'LG001';
    END IF;
    IF v_w = p_visible_wallet THEN
      out_available := v_after.available;
      out_bonus := v_after.bonus;
      v_change := v_after.change;
      v_user := v_after.user_id;
    END IF;
  END LOOP;

  -- 4. The transaction, vouched for as balanced by construction (checked in 1), and its entries.
  PERFORM set_config('casino.ledger_balanced_by', CASE WHEN coalesce(current_setting('casino.ledger_balanced_by', true), '') = '' THEN ''
    ELSE current_setting('casino.ledger_balanced_by', true) || ',' END || v_public_id, true);
  WITH t AS (
    INSERT INTO ledger_transactions (public_id, kind, idempotency_scope, idempotency_key, request_hash, related_transaction_id, user_id, wallet_id,
      currency_id, type, action_type, status, amount, before_balance, after_balance, game_identifier, created_at)
    VALUES (v_public_id, p_kind, p_scope, p_key, v_hash, p_related, v_user,
      p_visible_wallet, v_visible_currency, p_type, p_action_type, p_status, p_visible_amount, out_available - v_change, out_available,
      p_game_identifier, p_at)
    RETURNING id
  ), e AS (
    INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
    SELECT t.id, x.account, x.currency, x.amount FROM t CROSS JOIN unnest(v_account, v_currency, v_amount) AS x(account, currency, amount)
  )
  SELECT t.id INTO out_id FROM t;
  out_public_id := v_public_id;
  out_replayed := false;
  RETURN NEXT;
END
$$;
