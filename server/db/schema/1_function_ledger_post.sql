-- The ledger's one writer: posts one balanced transaction. Every balance change of the casino is one call
-- of it, from the money operations written in SQL and from server/domain/ledger.ts (postTransaction) alike.
--
-- Legs are parallel arrays: a player's account is (wallet, kind), a casino account (currency, kind); an
-- amount is added to its account (negative takes money out). Legs on one account are netted, zero nets
-- dropped. In this order:
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
  v_legs integer := cardinality(p_leg_kind);
  v_account bigint[];
  v_currency integer[];
  v_amount numeric[];
  v_wallet bigint[];
  v_kind text[];
  v_problem text;
  v_hash text;
  v_existing record;
  v_w bigint;
  v_change numeric[];
  v_after record;
  v_user bigint;
  v_visible_currency integer;
  v_visible_change numeric;
  v_visible_after numeric;
  v_visible_bonus numeric;
  v_id bigint;
  v_public_id uuid := coalesce(p_public_id, gen_random_uuid());
  v_balanced text;
BEGIN
  IF p_kind IS NULL OR p_kind !~ '^[a-z][a-z0-9_.]{0,49}$' THEN
    RAISE EXCEPTION 'BAD_KIND: kind %', coalesce(to_json(p_kind)::text, 'null') USING ERRCODE = 'LG003';
  END IF;
  IF p_at IS NULL THEN
    RAISE EXCEPTION 'BAD_DATE: at is required' USING ERRCODE = 'LG003';
  END IF;
  IF (p_scope IS NULL) <> (p_key IS NULL) OR length(p_scope) NOT BETWEEN 1 AND 200 OR length(p_key) NOT BETWEEN 1 AND 200 THEN
    RAISE EXCEPTION 'BAD_IDEMPOTENCY_KEY: idempotency scope and key are 1 to 200 characters' USING ERRCODE = 'LG003';
  END IF;
  IF v_legs IS NULL OR cardinality(p_leg_wallet) IS DISTINCT FROM v_legs OR cardinality(p_leg_currency) IS DISTINCT FROM v_legs
    OR cardinality(p_leg_amount) IS DISTINCT FROM v_legs THEN
    RAISE EXCEPTION 'TOO_FEW_LEGS: the legs'' arrays differ in length' USING ERRCODE = 'LG003';
  END IF;
  SELECT CASE
      WHEN bool_or(l.amount IS NULL OR l.amount = 0) THEN 'BAD_AMOUNT: a leg amount is zero'
      WHEN bool_or(abs(l.amount) >= 1e22) THEN 'BAD_AMOUNT: a leg amount does not fit NUMERIC(30,8)'
      WHEN bool_or((l.wallet IS NULL) = (l.currency IS NULL) OR coalesce(l.wallet, l.currency) <= 0) THEN 'BAD_ACCOUNT: a leg names one wallet or one currency'
      WHEN bool_or(l.wallet IS NOT NULL AND l.kind NOT IN ('available', 'pending', 'bonus', 'held')) THEN 'BAD_ACCOUNT: a wallet account kind'
      WHEN bool_or(l.wallet IS NULL AND l.kind NOT IN ('house', 'provider_clearing', 'fees', 'bonus_pool', 'adjustments'))
        THEN 'BAD_ACCOUNT: a system account kind'
    END INTO v_problem
  FROM unnest(p_leg_wallet, p_leg_currency, p_leg_kind, p_leg_amount) AS l(wallet, currency, kind, amount);
  IF v_problem IS NOT NULL THEN
    RAISE EXCEPTION '%', v_problem USING ERRCODE = 'LG003';
  END IF;

  -- Netted per account, resolved to the account, its currency's precision checked; key order for the hash.
  SELECT array_agg(n.account_id ORDER BY n.key COLLATE "C"), array_agg(n.currency_id ORDER BY n.key COLLATE "C"),
    array_agg(n.amount ORDER BY n.key COLLATE "C"), array_agg(n.wallet ORDER BY n.key COLLATE "C"), array_agg(n.kind ORDER BY n.key COLLATE "C"),
    CASE
      WHEN count(*) < 2 THEN 'TOO_FEW_LEGS: a balance change moves money between at least two accounts'
      WHEN bool_or(n.account_id IS NULL) THEN 'UNKNOWN_ACCOUNT: ' || min(n.key) FILTER (WHERE n.account_id IS NULL)
      WHEN bool_or(trunc(n.amount * 10::numeric ^ n.decimals) <> n.amount * 10::numeric ^ n.decimals)
        THEN 'PRECISION: ' || min(n.key) FILTER (WHERE trunc(n.amount * 10::numeric ^ n.decimals) <> n.amount * 10::numeric ^ n.decimals)
          || ' is finer than its currency'
    END,
    '[' || string_agg('[' || to_json(n.key)::text || ',"' || (n.amount * 100000000)::numeric(40, 0)::text || '"]', ',' ORDER BY n.key COLLATE "C") || ']'
  INTO v_account, v_currency, v_amount, v_wallet, v_kind, v_problem, v_hash
  FROM (
    SELECT l.key, l.wallet, l.kind, l.amount, a.id AS account_id, a.currency_id, c.decimals
    FROM (
      SELECT CASE WHEN x.wallet IS NOT NULL THEN 'wallet:' || x.wallet || ':' || x.kind ELSE 'system:' || x.currency || ':' || x.kind END AS key,
        x.wallet, x.currency, x.kind, sum(x.amount) AS amount
      FROM unnest(p_leg_wallet, p_leg_currency, p_leg_kind, p_leg_amount) AS x(wallet, currency, kind, amount)
      GROUP BY x.wallet, x.currency, x.kind HAVING sum(x.amount) <> 0
    ) l
    -- Each account found by its key (a subquery of its own: never a join over the table).
    LEFT JOIN LATERAL (
      SELECT x.id, x.currency_id FROM ledger_accounts x WHERE x.wallet_id = l.wallet AND x.kind = l.kind
      UNION ALL
      SELECT x.id, x.currency_id FROM ledger_accounts x WHERE x.wallet_id IS NULL AND x.currency_id = l.currency AND x.kind = l.kind
      LIMIT 1
    ) a ON true
    LEFT JOIN LATERAL (SELECT y.decimals FROM currencies y WHERE y.id = a.currency_id LIMIT 1) c ON true
  ) n;
  IF v_problem IS NULL AND v_account IS NULL THEN
    v_problem := 'TOO_FEW_LEGS: a balance change moves money between at least two accounts';
  END IF;
  IF v_problem IS NULL THEN
    SELECT 'UNBALANCED: legs in currency ' || s.currency || ' sum to ' || s.total INTO v_problem
    FROM (SELECT u.currency, sum(u.amount) AS total FROM unnest(v_currency, v_amount) AS u(currency, amount) GROUP BY u.currency) s
    WHERE s.total <> 0 ORDER BY s.currency LIMIT 1;
  END IF;
  IF v_problem IS NULL AND p_visible_wallet IS NOT NULL THEN
    v_problem := CASE
      WHEN p_visible_amount IS NULL OR p_visible_amount < 0 THEN 'BAD_AMOUNT: visible.amount is unsigned'
      WHEN (p_type = 'casino') <> (p_game_identifier IS NOT NULL) OR length(p_game_identifier) NOT BETWEEN 1 AND 100
        THEN 'GAME_IDENTIFIER: casino transactions carry a game identifier (1 to 100 characters), others none'
      WHEN NOT coalesce(p_visible_wallet = ANY (v_wallet), false) THEN 'VISIBLE_WALLET_UNTOUCHED: no leg touches wallet ' || p_visible_wallet
    END;
  END IF;
  IF v_problem IS NULL AND p_related IS NOT NULL AND p_related <= 0 THEN
    v_problem := 'BAD_ACCOUNT: relatedTransactionId must be a positive integer';
  END IF;
  IF v_problem IS NOT NULL THEN
    RAISE EXCEPTION '%', v_problem USING ERRCODE = 'LG003';
  END IF;
  v_hash := encode(sha256(convert_to('{"kind":' || to_json(p_kind)::text || ',"legs":' || v_hash || ',"visible":'
    || CASE WHEN p_visible_wallet IS NULL THEN 'null' ELSE '[' || p_visible_wallet || ',' || to_json(p_type)::text || ',' || to_json(p_action_type)::text
      || ',' || to_json(p_status)::text || ',"' || (p_visible_amount * 100000000)::numeric(40, 0)::text || '",' || coalesce(to_json(p_game_identifier)::text, 'null') || ']' END
    || ',"related":' || coalesce(p_related::text, 'null') || '}', 'UTF8')), 'hex');

  IF p_scope IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('ledger:' || length(p_scope) || ':' || p_scope || ':' || p_key, 0));
    SELECT t.id, t.public_id, t.request_hash, t.wallet_id INTO v_existing FROM ledger_transactions t
    WHERE t.idempotency_scope = p_scope AND t.idempotency_key = p_key;
    IF FOUND THEN
      IF v_existing.request_hash <> v_hash THEN
        RAISE EXCEPTION 'IDEMPOTENCY_KEY_REUSED: % / % was used by transaction % for a different posting', p_scope, p_key, v_existing.public_id
          USING ERRCODE = 'LG002';
      END IF;
      RETURN QUERY SELECT v_existing.id, v_existing.public_id, true, w.available, w.bonus
        FROM (SELECT 1) one LEFT JOIN wallets w ON w.id = v_existing.wallet_id;
      RETURN;
    END IF;
  END IF;

  -- The cached balances, wallet by wallet in id order (the order every writer locks wallets in).
  FOR v_w IN SELECT DISTINCT u.w FROM unnest(v_wallet) AS u(w) WHERE u.w IS NOT NULL ORDER BY 1 LOOP
    SELECT ARRAY[coalesce(sum(u.amount) FILTER (WHERE u.kind = 'available'), 0), coalesce(sum(u.amount) FILTER (WHERE u.kind = 'pending'), 0),
      coalesce(sum(u.amount) FILTER (WHERE u.kind = 'bonus'), 0), coalesce(sum(u.amount) FILTER (WHERE u.kind = 'held'), 0)]
    INTO v_change FROM unnest(v_wallet, v_kind, v_amount) AS u(wallet, kind, amount) WHERE u.wallet = v_w;
    UPDATE wallets w SET available = w.available + v_change[1], pending = w.pending + v_change[2], bonus = w.bonus + v_change[3],
      held = w.held + v_change[4]
    WHERE w.id = v_w AND w.available + v_change[1] >= 0 AND w.pending + v_change[2] >= 0 AND w.bonus + v_change[3] >= 0
      AND w.held + v_change[4] >= 0
    RETURNING w.user_id, w.currency_id, w.available, w.bonus INTO v_after;
    IF NOT FOUND THEN
      SELECT format('%s:%s:%s:%s', w.id, k.kind, k.balance, k.change) INTO v_problem
      FROM wallets w CROSS JOIN LATERAL (VALUES (1, 'available', w.available, v_change[1]), (2, 'pending', w.pending, v_change[2]),
        (3, 'bonus', w.bonus, v_change[3]), (4, 'held', w.held, v_change[4])) AS k(n, kind, balance, change)
      WHERE w.id = v_w AND k.balance + k.change < 0 ORDER BY k.n LIMIT 1;
      RAISE EXCEPTION '%', v_problem USING ERRCODE = 'LG001';
    END IF;
    IF v_w = p_visible_wallet THEN
      v_user := v_after.user_id;
      v_visible_currency := v_after.currency_id;
      v_visible_change := v_change[1];
      v_visible_after := v_after.available;
      v_visible_bonus := v_after.bonus;
    END IF;
  END LOOP;
  IF p_visible_wallet IS NOT NULL AND (SELECT trunc(p_visible_amount * 10::numeric ^ c.decimals) <> p_visible_amount * 10::numeric ^ c.decimals
    FROM currencies c WHERE c.id = v_visible_currency) THEN
    RAISE EXCEPTION 'PRECISION: visible amount % is finer than its currency', p_visible_amount USING ERRCODE = 'LG003';
  END IF;

  v_balanced := current_setting('casino.ledger_balanced_by', true);
  PERFORM set_config('casino.ledger_balanced_by', CASE WHEN coalesce(v_balanced, '') = '' THEN '' ELSE v_balanced || ',' END || v_public_id, true);
  INSERT INTO ledger_transactions (public_id, kind, idempotency_scope, idempotency_key, request_hash, related_transaction_id, user_id, wallet_id,
    currency_id, type, action_type, status, amount, before_balance, after_balance, game_identifier, created_at)
  VALUES (v_public_id, p_kind, p_scope, p_key, v_hash, p_related, v_user, p_visible_wallet, v_visible_currency, p_type, p_action_type, p_status,
    p_visible_amount, v_visible_after - v_visible_change, v_visible_after, p_game_identifier, p_at)
  RETURNING id INTO v_id;
  INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
  SELECT v_id, e.account, e.currency, e.amount FROM unnest(v_account, v_currency, v_amount) AS e(account, currency, amount) ORDER BY e.account;
  RETURN QUERY SELECT v_id, v_public_id, false, v_visible_after, v_visible_bonus;
END
$$;
