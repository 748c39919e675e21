-- The ledger's one writer: posts a set of balanced transactions (postings), statement by statement over
-- the whole set, so a batch of many players' calls costs each of them little more than its rows. Every
-- balance change of the casino goes through it: ledger_post is its call for one posting (from
-- server/domain/ledger.ts and the money functions), game_wallet_play passes its whole batch at once.
--
-- A posting n (1..N) is one element of each per-posting array; its legs are the elements of the leg arrays
-- whose p_leg_posting is n. A player's account is (wallet, kind), a casino account (currency, kind); an
-- amount is added to its account (negative takes money out). Legs on one account are netted, zero legs
-- and zero nets dropped (a caller lists every account an operation may move). In this order:
--   1. every posting checked: its kind, its idempotency key (not twice in one set), at least two accounts,
--      each known (a player's wallet in one posting of the set at most), each amount within its currency's
--      precision, the entries summing to zero per currency,
--      the visible record whole (raises SQLSTATE LG003, the message 'PROBLEM: detail', of the first
--      posting that is wrong);
--   2. a key used before: the same posting (same request hash) gets that first transaction back,
--      replayed; another posting raises LG002 (concurrent postings of one key wait on its advisory lock,
--      taken in the order of the locks' numbers, then see the first);
--   3. the cached balances moved, the wallets locked in id order (the order every writer locks wallets
--      in), never below zero (raises LG001, the message 'wallet:kind:balance:change' of the first posting's
--      balance that cannot take it);
--   4. the transactions (with the player-visible record: the wallet's available balance before and after
--      the posting) and their entries, in one statement; the database checks each again at commit
--      (ledger_transactions_balanced), as it does any writer's.
-- The request hash is SHA-256 of the posting's canonical JSON, kind, netted legs in key order, visible
-- record and related transaction: what tells a replay from a reuse of its key.
-- Answers one row per posting, in order: its transaction, whether it was a replay, and the visible
-- wallet's available and bonus balances after it (now, for a replay).
CREATE OR REPLACE FUNCTION ledger_post_many(
  p_at timestamptz,
  p_kind text[],
  p_scope text[],
  p_key text[],
  p_visible_wallet bigint[],
  p_type text[],
  p_action_type text[],
  p_status text[],
  p_visible_amount numeric[],
  p_game_identifier text[],
  p_related bigint[],
  p_public_id uuid[],
  p_leg_posting integer[],
  p_leg_wallet bigint[],
  p_leg_currency integer[],
  p_leg_kind text[],
  p_leg_amount numeric[]
) RETURNS TABLE (out_n integer, out_id bigint, out_public_id uuid, out_replayed boolean, out_available numeric, out_bonus numeric)
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_postings integer := coalesce(cardinality(p_kind), 0);
  v_legs integer := cardinality(p_leg_kind);
  v_problem text;
  v_public uuid[];
  v_hash text[];
  v_visible_currency integer[];
  v_leg_n integer[];
  v_leg_account bigint[];
  v_leg_currency integer[];
  v_leg_amount numeric[];
  v_leg_wallet bigint[];
  v_leg_kind text[];
  v_replayed bigint[];
  v_replay_n integer[];
  v_wallets bigint[];
  v_moved_all boolean;
  v_user bigint[];
  v_after numeric[];
  v_change numeric[];
  v_bonus_after numeric[];
  v_ids bigint[];
BEGIN
  IF v_postings = 0 OR v_legs IS NULL
    OR cardinality(p_leg_posting) IS DISTINCT FROM v_legs OR cardinality(p_leg_wallet) IS DISTINCT FROM v_legs
    OR cardinality(p_leg_currency) IS DISTINCT FROM v_legs OR cardinality(p_leg_amount) IS DISTINCT FROM v_legs
    OR cardinality(p_scope) IS DISTINCT FROM v_postings OR cardinality(p_key) IS DISTINCT FROM v_postings
    OR cardinality(p_visible_wallet) IS DISTINCT FROM v_postings OR cardinality(p_type) IS DISTINCT FROM v_postings
    OR cardinality(p_action_type) IS DISTINCT FROM v_postings OR cardinality(p_status) IS DISTINCT FROM v_postings
    OR cardinality(p_visible_amount) IS DISTINCT FROM v_postings OR cardinality(p_game_identifier) IS DISTINCT FROM v_postings
    OR cardinality(p_related) IS DISTINCT FROM v_postings OR cardinality(p_public_id) IS DISTINCT FROM v_postings
    OR EXISTS (SELECT 1 FROM unnest(p_leg_posting) x(n) WHERE x.n IS NULL OR x.n NOT BETWEEN 1 AND v_postings) THEN
    RAISE EXCEPTION 'TOO_FEW_LEGS: the legs'' arrays differ in length' USING ERRCODE = 'LG003';
  END IF;

  -- 1. Every posting checked, netted per account, each account found by its key, its request hash made.
  WITH posting AS (
    SELECT p.n::integer AS n, p.kind, p.scope, p.key, p.vwallet, p.type, p.action_type, p.status, p.vamount, p.game, p.related,
      coalesce(p.public_id, gen_random_uuid()) AS public_id
    FROM unnest(p_kind, p_scope, p_key, p_visible_wallet, p_type, p_action_type, p_status, p_visible_amount, p_game_identifier, p_related,
      p_public_id) WITH ORDINALITY AS p(kind, scope, key, vwallet, type, action_type, status, vamount, game, related, public_id, n)
  ), input AS (
    SELECT x.n, x.wallet, x.currency, x.kind, x.amount
    FROM unnest(p_leg_posting, p_leg_wallet, p_leg_currency, p_leg_kind, p_leg_amount) AS x(n, wallet, currency, kind, amount)
  ), refused AS (
    SELECT p.n, CASE
        WHEN p.kind IS NULL OR p.kind !~ '^[a-z][a-z0-9_.]{0,49}$' THEN 'BAD_KIND: kind ' || coalesce(to_json(p.kind)::text, 'null')
        WHEN p_at IS NULL THEN 'BAD_DATE: at is required'
        WHEN (p.scope IS NULL) <> (p.key IS NULL) OR length(p.scope) NOT BETWEEN 1 AND 200 OR length(p.key) NOT BETWEEN 1 AND 200
          THEN 'BAD_IDEMPOTENCY_KEY: idempotency scope and key are 1 to 200 characters'
        WHEN p.scope IS NOT NULL AND EXISTS (SELECT 1 FROM posting q WHERE q.n < p.n AND q.scope = p.scope AND q.key = p.key)
          THEN 'BAD_IDEMPOTENCY_KEY: ' || p.scope || ' / ' || p.key || ' is the key of two postings of one set'
        WHEN bool_or(i.n IS NOT NULL AND i.amount IS NULL) THEN 'BAD_AMOUNT: a leg has no amount'
        WHEN bool_or(abs(i.amount) >= 1e22) THEN 'BAD_AMOUNT: a leg amount does not fit NUMERIC(30,8)'
        WHEN bool_or(i.n IS NOT NULL AND ((i.wallet IS NULL) = (i.currency IS NULL) OR coalesce(i.wallet, i.currency) <= 0)) THEN 'BAD_ACCOUNT: a leg names one wallet or one currency'
        WHEN bool_or(i.wallet IS NOT NULL AND i.kind NOT IN ('available', 'pending', 'bonus', 'held')) THEN 'BAD_ACCOUNT: a wallet account kind'
        WHEN bool_or(i.n IS NOT NULL AND i.wallet IS NULL AND i.kind NOT IN ('house', 'provider_clearing', 'fees', 'bonus_pool', 'adjustments'))
          THEN 'BAD_ACCOUNT: a system account kind'
        WHEN p.vwallet IS NOT NULL AND (p.vamount IS NULL OR p.vamount < 0) THEN 'BAD_AMOUNT: visible.amount is unsigned'
        WHEN p.vwallet IS NOT NULL AND ((p.type = 'casino') IS DISTINCT FROM (p.game IS NOT NULL) OR length(p.game) NOT BETWEEN 1 AND 100)
          THEN 'GAME_IDENTIFIER: casino transactions carry a game identifier (1 to 100 characters), others none'
        WHEN p.related <= 0 THEN 'BAD_ACCOUNT: relatedTransactionId must be a positive integer'
      END AS problem
    FROM posting p LEFT JOIN input i ON i.n = p.n
    GROUP BY p.n, p.kind, p.scope, p.key, p.vwallet, p.vamount, p.type, p.game, p.related
  ), net AS (
    SELECT i.n, CASE WHEN i.wallet IS NOT NULL THEN 'wallet:' || i.wallet || ':' || i.kind ELSE 'system:' || i.currency || ':' || i.kind END AS key,
      i.wallet, i.currency, i.kind, sum(i.amount) AS amount
    FROM input i GROUP BY i.n, i.wallet, i.currency, i.kind HAVING sum(i.amount) <> 0
  ), resolved AS (
    SELECT n.n, n.key, n.wallet, n.kind, n.amount, a.id AS account_id, a.currency_id, c.decimals
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
    SELECT p.n, p.public_id, coalesce(f.problem, CASE
        WHEN count(r.n) < 2 THEN 'TOO_FEW_LEGS: a balance change moves money between at least two accounts'
        WHEN bool_or(r.account_id IS NULL) THEN 'UNKNOWN_ACCOUNT: ' || min(r.key) FILTER (WHERE r.account_id IS NULL)
        WHEN bool_or(trunc(r.amount * 10::numeric ^ r.decimals) <> r.amount * 10::numeric ^ r.decimals)
          THEN 'PRECISION: ' || min(r.key) FILTER (WHERE trunc(r.amount * 10::numeric ^ r.decimals) <> r.amount * 10::numeric ^ r.decimals)
            || ' is finer than its currency'
        WHEN EXISTS (SELECT 1 FROM resolved u WHERE u.n = p.n GROUP BY u.currency_id HAVING sum(u.amount) <> 0)
          THEN 'UNBALANCED: legs in currency ' || (SELECT min(u.currency_id) FROM (SELECT u.currency_id FROM resolved u WHERE u.n = p.n
            GROUP BY u.currency_id HAVING sum(u.amount) <> 0) u) || ' do not sum to zero'
        WHEN bool_or((SELECT 1 FROM resolved u WHERE u.n < p.n AND u.wallet = r.wallet LIMIT 1) IS NOT NULL)
          THEN 'BAD_ACCOUNT: a wallet is in two postings of one set'
        WHEN p.vwallet IS NOT NULL AND NOT coalesce(bool_or(r.wallet = p.vwallet), false)
          THEN 'VISIBLE_WALLET_UNTOUCHED: no leg touches wallet ' || p.vwallet
        WHEN p.vwallet IS NOT NULL AND trunc(p.vamount * 10::numeric ^ min(r.decimals) FILTER (WHERE r.wallet = p.vwallet))
          <> p.vamount * 10::numeric ^ min(r.decimals) FILTER (WHERE r.wallet = p.vwallet)
          THEN 'PRECISION: visible amount ' || p.vamount || ' is finer than its currency'
      END) AS problem,
      min(r.currency_id) FILTER (WHERE r.wallet = p.vwallet) AS visible_currency,
      '{"kind":' || to_json(p.kind)::text || ',"legs":['
        || string_agg('[' || to_json(r.key)::text || ',"' || (r.amount * 100000000)::numeric(40, 0)::text || '"]', ',' ORDER BY r.key COLLATE "C")
        || '],"visible":' || CASE WHEN p.vwallet IS NULL THEN 'null' ELSE '[' || p.vwallet || ',' || to_json(p.type)::text || ','
          || to_json(p.action_type)::text || ',' || to_json(p.status)::text || ',"' || (p.vamount * 100000000)::numeric(40, 0)::text || '",'
          || coalesce(to_json(p.game)::text, 'null') || ']' END
        || ',"related":' || coalesce(p.related::text, 'null') || '}' AS canonical
    FROM posting p JOIN refused f ON f.n = p.n LEFT JOIN resolved r ON r.n = p.n
    GROUP BY p.n, p.public_id, p.kind, p.vwallet, p.type, p.action_type, p.status, p.vamount, p.game, p.related, f.problem
  )
  SELECT (SELECT c.problem FROM checked c WHERE c.problem IS NOT NULL ORDER BY c.n LIMIT 1),
    (SELECT array_agg(c.public_id ORDER BY c.n) FROM checked c),
    (SELECT array_agg(encode(sha256(convert_to(c.canonical, 'UTF8')), 'hex') ORDER BY c.n) FROM checked c),
    (SELECT array_agg(c.visible_currency ORDER BY c.n) FROM checked c),
    array_agg(r.n ORDER BY r.n, r.account_id), array_agg(r.account_id ORDER BY r.n, r.account_id),
    array_agg(r.currency_id ORDER BY r.n, r.account_id), array_agg(r.amount ORDER BY r.n, r.account_id),
    array_agg(r.wallet ORDER BY r.n, r.account_id), array_agg(r.kind ORDER BY r.n, r.account_id)
  INTO v_problem, v_public, v_hash, v_visible_currency, v_leg_n, v_leg_account, v_leg_currency, v_leg_amount, v_leg_wallet, v_leg_kind
  FROM resolved r;
  IF v_problem IS NOT NULL THEN
    RAISE EXCEPTION '%', v_problem USING ERRCODE = 'LG003';
  END IF;

  -- 2. Keys used before: the same posting is a replay, another a refusal.
  v_replayed := array_fill(NULL::bigint, ARRAY[v_postings]);
  IF EXISTS (SELECT 1 FROM unnest(p_scope) s WHERE s IS NOT NULL) THEN
    PERFORM pg_advisory_xact_lock(l.k) FROM (
      SELECT hashtextextended('ledger:' || length(x.scope) || ':' || x.scope || ':' || x.key, 0) AS k
      FROM unnest(p_scope, p_key) AS x(scope, key) WHERE x.scope IS NOT NULL ORDER BY 1
    ) l;
    SELECT min(format('IDEMPOTENCY_KEY_REUSED: %s / %s was used by transaction %s for a different posting', x.scope, x.key, t.public_id)
        ORDER BY x.n) FILTER (WHERE t.request_hash <> x.hash),
      array_agg(t.id ORDER BY x.n), array_agg(x.n::integer ORDER BY x.n)
    INTO v_problem, v_ids, v_replay_n
    FROM unnest(p_scope, p_key, v_hash) WITH ORDINALITY AS x(scope, key, hash, n)
    CROSS JOIN LATERAL (
      SELECT t.id, t.public_id, t.request_hash FROM ledger_transactions t WHERE t.idempotency_scope = x.scope AND t.idempotency_key = x.key LIMIT 1
    ) t;
    IF v_problem IS NOT NULL THEN
      RAISE EXCEPTION '%', v_problem USING ERRCODE = 'LG002';
    END IF;
    IF v_ids IS NOT NULL THEN
      FOR i IN 1 .. cardinality(v_ids) LOOP
        v_replayed[v_replay_n[i]] := v_ids[i];
      END LOOP;
      -- The legs of the postings to write, the replays' left out.
      SELECT array_agg(l.n ORDER BY l.i), array_agg(l.account ORDER BY l.i), array_agg(l.currency ORDER BY l.i), array_agg(l.amount ORDER BY l.i),
        array_agg(l.wallet ORDER BY l.i), array_agg(l.kind ORDER BY l.i)
      INTO v_leg_n, v_leg_account, v_leg_currency, v_leg_amount, v_leg_wallet, v_leg_kind
      FROM unnest(v_leg_n, v_leg_account, v_leg_currency, v_leg_amount, v_leg_wallet, v_leg_kind) WITH ORDINALITY AS l(n, account, currency, amount, wallet, kind, i)
      WHERE v_replayed[l.n] IS NULL;
    END IF;
  END IF;

  IF v_leg_n IS NOT NULL THEN
    -- 3. The cached balances: the wallets locked in id order, then each moved by its posting, never below zero.
    SELECT array_agg(DISTINCT l.wallet ORDER BY l.wallet) INTO v_wallets FROM unnest(v_leg_wallet) AS l(wallet) WHERE l.wallet IS NOT NULL;
    PERFORM 1 FROM wallets w WHERE w.id = ANY (v_wallets) ORDER BY w.id FOR UPDATE;
    WITH moved AS (
      UPDATE wallets w SET available = w.available + c.available, pending = w.pending + c.pending, bonus = w.bonus + c.bonus, held = w.held + c.held
      FROM (
        SELECT l.wallet, coalesce(sum(l.amount) FILTER (WHERE l.kind = 'available'), 0) AS available,
          coalesce(sum(l.amount) FILTER (WHERE l.kind = 'pending'), 0) AS pending, coalesce(sum(l.amount) FILTER (WHERE l.kind = 'bonus'), 0) AS bonus,
          coalesce(sum(l.amount) FILTER (WHERE l.kind = 'held'), 0) AS held
        FROM unnest(v_leg_wallet, v_leg_kind, v_leg_amount) AS l(wallet, kind, amount) WHERE l.wallet IS NOT NULL GROUP BY l.wallet
      ) c
      WHERE w.id = ANY (v_wallets) AND w.id = c.wallet
        AND w.available + c.available >= 0 AND w.pending + c.pending >= 0 AND w.bonus + c.bonus >= 0 AND w.held + c.held >= 0
      RETURNING w.id, w.user_id, w.available, w.bonus, c.available AS change
    )
    SELECT (SELECT count(*) FROM moved) = coalesce(cardinality(v_wallets), 0), array_agg(m.user_id ORDER BY v.n), array_agg(m.available ORDER BY v.n),
      array_agg(m.change ORDER BY v.n), array_agg(m.bonus ORDER BY v.n)
    INTO v_moved_all, v_user, v_after, v_change, v_bonus_after
    FROM unnest(p_visible_wallet) WITH ORDINALITY AS v(wallet, n) LEFT JOIN moved m ON m.id = v.wallet AND v_replayed[v.n] IS NULL;
    IF NOT v_moved_all THEN
      -- The first balance that cannot take its change, in the postings' order.
      SELECT format('%s:%s:%s:%s', w.id, k.kind, k.balance, k.change) INTO v_problem
      FROM (SELECT l.wallet, min(l.n) AS n FROM unnest(v_leg_wallet, v_leg_n) AS l(wallet, n) WHERE l.wallet IS NOT NULL GROUP BY l.wallet) x
      CROSS JOIN LATERAL (SELECT w.id, w.available, w.pending, w.bonus, w.held FROM wallets w WHERE w.id = x.wallet LIMIT 1) w
      CROSS JOIN LATERAL (
        SELECT u.kind, CASE u.kind WHEN 'available' THEN w.available WHEN 'pending' THEN w.pending WHEN 'bonus' THEN w.bonus ELSE w.held END AS balance,
          sum(u.amount) AS change, min(array_position(ARRAY['available', 'pending', 'bonus', 'held'], u.kind)) AS i
        FROM unnest(v_leg_wallet, v_leg_kind, v_leg_amount) AS u(wallet, kind, amount) WHERE u.wallet = x.wallet GROUP BY u.kind
      ) k
      WHERE k.balance + k.change < 0 ORDER BY x.n, x.wallet, k.i LIMIT 1;
      RAISE EXCEPTION '%', v_problem USING ERRCODE = 'LG001';
    END IF;

    -- 4. The transactions and their entries.
    WITH t AS (
      INSERT INTO ledger_transactions (public_id, kind, idempotency_scope, idempotency_key, request_hash, related_transaction_id, user_id, wallet_id,
        currency_id, type, action_type, status, amount, before_balance, after_balance, game_identifier, created_at)
      SELECT x.public_id, x.kind, x.scope, x.key, x.hash, x.related, v_user[x.n], x.vwallet, v_visible_currency[x.n], x.type, x.action_type, x.status,
        x.vamount, v_after[x.n] - v_change[x.n], v_after[x.n], x.game, p_at
      FROM unnest(v_public, p_kind, p_scope, p_key, v_hash, p_related, p_visible_wallet, p_type, p_action_type, p_status, p_visible_amount,
        p_game_identifier) WITH ORDINALITY AS x(public_id, kind, scope, key, hash, related, vwallet, type, action_type, status, vamount, game, n)
      WHERE v_replayed[x.n] IS NULL
      ORDER BY x.n
      RETURNING id, public_id
    ), e AS (
      INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
      SELECT t.id, l.account, l.currency, l.amount
      FROM unnest(v_leg_n, v_leg_account, v_leg_currency, v_leg_amount) AS l(n, account, currency, amount) JOIN t ON t.public_id = v_public[l.n]
    )
    SELECT array_agg(t.id ORDER BY x.n) INTO v_ids FROM unnest(v_public) WITH ORDINALITY AS x(id, n) LEFT JOIN t ON t.public_id = x.id;
  ELSE
    v_ids := array_fill(NULL::bigint, ARRAY[v_postings]);
  END IF;

  RETURN QUERY
  SELECT x.n::integer, coalesce(v_replayed[x.n], v_ids[x.n]), CASE WHEN v_replayed[x.n] IS NULL THEN x.public_id ELSE t.public_id END,
    v_replayed[x.n] IS NOT NULL, CASE WHEN v_replayed[x.n] IS NULL THEN v_after[x.n] ELSE t.available END,
    CASE WHEN v_replayed[x.n] IS NULL THEN v_bonus_after[x.n] ELSE t.bonus END
  FROM unnest(v_public) WITH ORDINALITY AS x(public_id, n)
  LEFT JOIN LATERAL (
    SELECT r.public_id, w.available, w.bonus FROM ledger_transactions r
    LEFT JOIN LATERAL (SELECT w.available, w.bonus FROM wallets w WHERE w.id = r.wallet_id LIMIT 1) w ON true
    WHERE r.id = v_replayed[x.n] LIMIT 1
  ) t ON true
  ORDER BY x.n;
END
$$;
