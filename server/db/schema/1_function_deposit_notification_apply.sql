-- Payment provider deposit notifications (server/domain/deposits.ts): the one implementation of what a
-- notification does. It takes a set of notifications, decided and written statement by statement over the
-- whole set: one notification is a set of one, a batch (the server gathers notifications of different
-- transfers, addresses and players while earlier ones are on their way) the same function. Notifications
-- carry state, not events: a replay moves nothing (out_changed false). In this order:
--   1. the refusals, before anything is written: an address the provider never gave (NOT_FOUND), another
--      currency than the address's, an amount not positive or finer than the currency's decimals;
--   2. the deposit-limit locks (a transaction-level advisory lock per player, in player order) of the
--      players a credit in the limits' currency (p_limits_currency) may hold money for, those with a
--      deposit limit or held money, before anything else of theirs (deposit_release_held takes the same
--      lock before their wallets);
--   3. each transfer recorded at its first sight (below the currency's minimum deposit: `below_minimum`,
--      never credited), the deposit rows locked in id order, then the wallets in id order; a notification
--      that contradicts the recorded address or amount is refused whole;
--   4. at first sight at or above the minimum: provider_clearing to the wallet's pending balance
--      (deposit.pending, a visible pending deposit, key `<txId>:pending`);
--   5. once it has the confirmations settings require: for those players, held money waiting is released
--      first (deposit_release_held) and the part of the deposit over the limits (deposit_limit_room) goes
--      to the held balance; the rest, pending to available (deposit.credit, a visible completed deposit,
--      key `<txId>:credit`), the deposit `credited` in the same transaction, so once. Under the minimum,
--      once confirmed, the coins sit at the provider with nobody owed them: provider_clearing to
--      adjustments (deposit.below_minimum, internal, key `<txId>:below_minimum`);
--   6. each credited player told, and a deposit bonus waiting for a qualifying deposit takes the part
--      credited as playable (bonus_apply_deposit, for the players with a bonus active or queued).
-- Every posting goes through ledger_post_many. Answers one row per notification, in their order: the
-- deposit's status after it, or 'refused' with the field (none for NOT_FOUND) and code, having written
-- nothing for it; the live updates to announce once committed (out_announce). Anything raised is a fault
-- and fails every notification of the set.
CREATE OR REPLACE FUNCTION deposit_notification_apply(
  p_provider text,
  p_tx_id text[],
  p_address text[],
  p_currency_code text[],
  p_amount numeric[],
  p_confirmations integer[],
  p_limits_currency text,
  p_ledger_scope text,
  p_ledger_key text[],
  p_at timestamptz
) RETURNS TABLE (out_n integer, out_status text, out_field text, out_code text, out_confirmations integer, out_required integer,
  out_changed boolean, out_announce text[])
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_calls integer := coalesce(cardinality(p_tx_id), 0);
  v_required integer;
  -- Per notification, indexed by its place in the set.
  v_address bigint[];
  v_wallet bigint[];
  v_user bigint[];
  v_currency integer[];
  v_code text[];
  v_min numeric[];
  v_refusal text[];
  v_new text[];
  v_deposit bigint[];
  v_status text[];
  v_pending bigint[];
  v_settled bigint[];
  v_confirmations integer[];
  v_changed boolean[];
  v_limited boolean[];
  v_credited boolean[];
  v_moved boolean[];
  v_held numeric[];
  v_notification bigint[];
  -- The notifications posted in a statement, and the postings' arrays.
  v_posted integer[];
  v_kind text[];
  v_key text[];
  v_visible_wallet bigint[];
  v_type text[];
  v_visible_status text[];
  v_visible_amount numeric[];
  v_related bigint[];
  v_leg_n integer[];
  v_leg_wallet bigint[];
  v_leg_currency integer[];
  v_leg_kind text[];
  v_leg_amount numeric[];
  v_row record;
BEGIN
  IF v_calls = 0 THEN
    RETURN;
  END IF;
  IF cardinality(p_address) IS DISTINCT FROM v_calls OR cardinality(p_currency_code) IS DISTINCT FROM v_calls
    OR cardinality(p_amount) IS DISTINCT FROM v_calls OR cardinality(p_confirmations) IS DISTINCT FROM v_calls
    OR cardinality(p_ledger_key) IS DISTINCT FROM v_calls THEN
    RAISE EXCEPTION 'the notifications'' arrays differ in length';
  END IF;
  PERFORM set_config('casino.announce', 'by_server', true);
  SELECT st.deposit_confirmations INTO v_required FROM settings st WHERE st.id = 1;

  -- 1. Each notification's address, wallet, player and currency, each found by its key (a subquery of its
  --    own with LIMIT, which PostgreSQL does not merge into a join that a plan kept from small tables would
  --    scan), and its refusal.
  SELECT array_agg(d.id ORDER BY x.n), array_agg(d.wallet_id ORDER BY x.n), array_agg(w.user_id ORDER BY x.n),
    array_agg(w.currency_id ORDER BY x.n), array_agg(c.code ORDER BY x.n), array_agg(c.min_deposit ORDER BY x.n),
    array_agg(CASE
        WHEN d.id IS NULL THEN 'NOT_FOUND'
        WHEN c.code <> x.code THEN 'currencyCode:mismatch'
        WHEN x.amount IS NULL OR x.amount <= 0 THEN 'amount:amount.positive'
        WHEN trunc(x.amount, c.decimals) <> x.amount THEN 'amount:amount.decimals'
      END ORDER BY x.n)
  INTO v_address, v_wallet, v_user, v_currency, v_code, v_min, v_refusal
  FROM unnest(p_address, p_currency_code, p_amount) WITH ORDINALITY AS x(address, code, amount, n)
    LEFT JOIN LATERAL (SELECT d.id, d.wallet_id FROM deposit_addresses d WHERE d.provider = p_provider AND d.address = x.address LIMIT 1) d ON true
    LEFT JOIN LATERAL (SELECT w.user_id, w.currency_id FROM wallets w WHERE w.id = d.wallet_id LIMIT 1) w ON true
    LEFT JOIN LATERAL (SELECT c.code, c.decimals, c.min_deposit FROM currencies c WHERE c.id = w.currency_id LIMIT 1) c ON true;
  -- A player's deposit limits and bonuses span their wallets: one notification per player, so one per wallet.
  IF (SELECT count(DISTINCT x) FROM unnest(p_tx_id) x) <> v_calls OR (SELECT count(DISTINCT x) FROM unnest(p_address) x) <> v_calls
    OR (SELECT count(DISTINCT u) <> count(u) FROM unnest(v_user) u) THEN
    RAISE EXCEPTION 'a set takes one notification per transfer and per wallet, and one per player';
  END IF;

  -- 2. The deposit-limit locks of the players a credit may hold money for, before anything else of theirs is
  --    locked (recording a deposit locks its wallet's key): a notification that brings, or finds recorded, the
  --    confirmations required, in the limits' currency, of a player with a deposit limit or held money.
  v_limited := ARRAY(
    SELECT v_refusal[g.n] IS NULL AND v_code[g.n] = p_limits_currency
      AND (p_confirmations[g.n] >= v_required
        OR (SELECT d.confirmations FROM deposits d WHERE d.provider = p_provider AND d.provider_tx_id = p_tx_id[g.n] LIMIT 1) >= v_required)
      AND (EXISTS (SELECT 1 FROM gambling_limits l WHERE l.user_id = v_user[g.n] AND l.kind = 'deposit')
        OR EXISTS (SELECT 1 FROM wallets w WHERE w.user_id = v_user[g.n] AND w.held > 0))
    FROM generate_subscripts(p_tx_id, 1) AS g(n) ORDER BY g.n);
  PERFORM pg_advisory_xact_lock(hashtextextended('deposit-limits:' || l.user_id, 0))
  FROM (SELECT v_user[g.n] AS user_id FROM generate_subscripts(p_tx_id, 1) AS g(n) WHERE v_limited[g.n] ORDER BY 1) l;

  -- 3. The transfers seen for the first time recorded, then every deposit row locked and read, then the wallets.
  WITH recorded AS (
    INSERT INTO deposits (provider, provider_tx_id, deposit_address_id, wallet_id, user_id, currency_id, amount, confirmations, status,
      created_at, updated_at)
    SELECT p_provider, p_tx_id[g.n], v_address[g.n], v_wallet[g.n], v_user[g.n], v_currency[g.n], p_amount[g.n], p_confirmations[g.n],
      CASE WHEN p_amount[g.n] < v_min[g.n] THEN 'below_minimum' ELSE 'pending' END, p_at, p_at
    FROM generate_subscripts(p_tx_id, 1) AS g(n) WHERE v_refusal[g.n] IS NULL ORDER BY g.n
    ON CONFLICT (provider, provider_tx_id) DO NOTHING
    RETURNING provider_tx_id
  )
  SELECT array_agg(r.provider_tx_id) INTO v_new FROM recorded r;
  PERFORM 1 FROM deposits d
  WHERE d.id = ANY (ARRAY(SELECT (SELECT d.id FROM deposits d WHERE d.provider = p_provider AND d.provider_tx_id = x) FROM unnest(p_tx_id) x))
  ORDER BY d.id FOR UPDATE;
  SELECT array_agg(d.id ORDER BY g.n), array_agg(d.status ORDER BY g.n), array_agg(d.pending_transaction_id ORDER BY g.n),
    array_agg(d.settled_transaction_id ORDER BY g.n), array_agg(greatest(d.confirmations, p_confirmations[g.n]) ORDER BY g.n),
    array_agg(coalesce(d.provider_tx_id = ANY (v_new), false) OR p_confirmations[g.n] > d.confirmations ORDER BY g.n),
    -- A transfer's address and amount never change.
    array_agg(CASE
        WHEN v_refusal[g.n] IS NOT NULL THEN v_refusal[g.n]
        WHEN d.deposit_address_id <> v_address[g.n] THEN 'address:mismatch'
        WHEN d.amount <> p_amount[g.n] THEN 'amount:mismatch'
      END ORDER BY g.n)
  INTO v_deposit, v_status, v_pending, v_settled, v_confirmations, v_changed, v_refusal
  FROM generate_subscripts(p_tx_id, 1) AS g(n)
    LEFT JOIN LATERAL (
      SELECT d.id, d.deposit_address_id, d.amount, d.confirmations, d.status, d.pending_transaction_id, d.settled_transaction_id, d.provider_tx_id
      FROM deposits d WHERE d.provider = p_provider AND d.provider_tx_id = p_tx_id[g.n] LIMIT 1
    ) d ON true;

  PERFORM 1 FROM wallets w
  WHERE w.id = ANY (ARRAY(SELECT v_wallet[g.n] FROM generate_subscripts(p_tx_id, 1) AS g(n) WHERE v_refusal[g.n] IS NULL))
  ORDER BY w.id FOR UPDATE;
  -- Only the transfers credited now (not those credited before) hold money over the limits.
  v_limited := ARRAY(SELECT v_limited[g.n] AND v_refusal[g.n] IS NULL AND v_status[g.n] = 'pending'
    FROM generate_subscripts(p_tx_id, 1) AS g(n) ORDER BY g.n);

  -- 4. The transfers seen at or above the minimum: provider_clearing to pending.
  v_posted := ARRAY(SELECT g.n FROM generate_subscripts(p_tx_id, 1) AS g(n)
    WHERE v_refusal[g.n] IS NULL AND v_status[g.n] = 'pending' AND v_pending[g.n] IS NULL ORDER BY g.n);
  v_moved := array_fill(false, ARRAY[v_calls]);
  IF cardinality(v_posted) > 0 THEN
    SELECT array_agg(q.k ORDER BY q.k, l.j), array_agg(l.wallet ORDER BY q.k, l.j), array_agg(l.currency ORDER BY q.k, l.j),
      array_agg(l.kind ORDER BY q.k, l.j), array_agg(l.amount ORDER BY q.k, l.j)
    INTO v_leg_n, v_leg_wallet, v_leg_currency, v_leg_kind, v_leg_amount
    FROM unnest(v_posted) WITH ORDINALITY AS q(i, k)
      CROSS JOIN LATERAL (VALUES (1, NULL::bigint, v_currency[q.i], 'provider_clearing', -p_amount[q.i]),
        (2, v_wallet[q.i], NULL::integer, 'pending', p_amount[q.i])) AS l(j, wallet, currency, kind, amount);
    FOR v_row IN
      SELECT v_posted[m.out_n] AS n, m.out_id
      FROM ledger_post_many(p_at, array_fill('deposit.pending'::text, ARRAY[cardinality(v_posted)]),
        array_fill(p_ledger_scope, ARRAY[cardinality(v_posted)]), ARRAY(SELECT p_ledger_key[q.i] || ':pending' FROM unnest(v_posted) AS q(i)),
        ARRAY(SELECT v_wallet[q.i] FROM unnest(v_posted) AS q(i)), array_fill('deposit'::text, ARRAY[cardinality(v_posted)]),
        array_fill('deposit'::text, ARRAY[cardinality(v_posted)]), array_fill('pending'::text, ARRAY[cardinality(v_posted)]),
        ARRAY(SELECT p_amount[q.i] FROM unnest(v_posted) AS q(i)), array_fill(NULL::text, ARRAY[cardinality(v_posted)]),
        array_fill(NULL::bigint, ARRAY[cardinality(v_posted)]), array_fill(NULL::uuid, ARRAY[cardinality(v_posted)]),
        v_leg_n, v_leg_wallet, v_leg_currency, v_leg_kind, v_leg_amount) m
    LOOP
      v_pending[v_row.n] := v_row.out_id;
      v_changed[v_row.n] := true;
      v_moved[v_row.n] := true;
    END LOOP;
  END IF;

  -- 5. Held money released and the held part reckoned (players with a deposit limit or held money), then
  --    the credits and the settlements below the minimum.
  PERFORM deposit_release_held(v_user[g.n], p_limits_currency, p_at) FROM generate_subscripts(p_tx_id, 1) AS g(n) WHERE v_limited[g.n];
  v_held := ARRAY(
    SELECT CASE WHEN v_limited[g.n] THEN coalesce(greatest(p_amount[g.n] - deposit_limit_room(v_user[g.n], v_currency[g.n], p_at), 0), 0) ELSE 0 END
    FROM generate_subscripts(p_tx_id, 1) AS g(n) ORDER BY g.n);
  v_credited := ARRAY(SELECT v_refusal[g.n] IS NULL AND v_status[g.n] = 'pending' AND v_confirmations[g.n] >= v_required
    FROM generate_subscripts(p_tx_id, 1) AS g(n) ORDER BY g.n);
  v_posted := ARRAY(SELECT g.n FROM generate_subscripts(p_tx_id, 1) AS g(n)
    WHERE v_credited[g.n] OR (v_refusal[g.n] IS NULL AND v_status[g.n] = 'below_minimum' AND v_settled[g.n] IS NULL
      AND v_confirmations[g.n] >= v_required)
    ORDER BY g.n);
  IF cardinality(v_posted) > 0 THEN
    SELECT array_agg(CASE WHEN v_credited[q.i] THEN 'deposit.credit' ELSE 'deposit.below_minimum' END ORDER BY q.k),
      array_agg(p_ledger_key[q.i] || CASE WHEN v_credited[q.i] THEN ':credit' ELSE ':below_minimum' END ORDER BY q.k),
      array_agg(CASE WHEN v_credited[q.i] THEN v_wallet[q.i] END ORDER BY q.k),
      array_agg(CASE WHEN v_credited[q.i] THEN 'deposit' END ORDER BY q.k),
      array_agg(CASE WHEN v_credited[q.i] THEN 'completed' END ORDER BY q.k),
      array_agg(CASE WHEN v_credited[q.i] THEN p_amount[q.i] END ORDER BY q.k),
      array_agg(CASE WHEN v_credited[q.i] THEN v_pending[q.i] END ORDER BY q.k)
    INTO v_kind, v_key, v_visible_wallet, v_type, v_visible_status, v_visible_amount, v_related
    FROM unnest(v_posted) WITH ORDINALITY AS q(i, k);
    -- A credit: pending to available and held (zero legs are dropped); below the minimum: clearing to adjustments.
    SELECT array_agg(q.k ORDER BY q.k, l.j), array_agg(l.wallet ORDER BY q.k, l.j), array_agg(l.currency ORDER BY q.k, l.j),
      array_agg(l.kind ORDER BY q.k, l.j), array_agg(l.amount ORDER BY q.k, l.j)
    INTO v_leg_n, v_leg_wallet, v_leg_currency, v_leg_kind, v_leg_amount
    FROM unnest(v_posted) WITH ORDINALITY AS q(i, k)
      CROSS JOIN LATERAL (SELECT v_credited[q.i] AS credit, v_wallet[q.i] AS wallet, v_currency[q.i] AS currency, p_amount[q.i] AS amount,
        v_held[q.i] AS held) c
      CROSS JOIN LATERAL (VALUES
        (1, CASE WHEN c.credit THEN c.wallet END, CASE WHEN NOT c.credit THEN c.currency END,
          CASE WHEN c.credit THEN 'pending' ELSE 'provider_clearing' END, -c.amount),
        (2, CASE WHEN c.credit THEN c.wallet END, CASE WHEN NOT c.credit THEN c.currency END,
          CASE WHEN c.credit THEN 'available' ELSE 'adjustments' END, CASE WHEN c.credit THEN c.amount - c.held ELSE c.amount END),
        (3, CASE WHEN c.credit THEN c.wallet END, CASE WHEN NOT c.credit THEN c.currency END,
          CASE WHEN c.credit THEN 'held' ELSE 'adjustments' END, CASE WHEN c.credit THEN c.held ELSE 0 END)
      ) AS l(j, wallet, currency, kind, amount);
    FOR v_row IN
      SELECT v_posted[m.out_n] AS n, m.out_id
      FROM ledger_post_many(p_at, v_kind, array_fill(p_ledger_scope, ARRAY[cardinality(v_posted)]), v_key, v_visible_wallet, v_type, v_type,
        v_visible_status, v_visible_amount, array_fill(NULL::text, ARRAY[cardinality(v_posted)]), v_related,
        array_fill(NULL::uuid, ARRAY[cardinality(v_posted)]), v_leg_n, v_leg_wallet, v_leg_currency, v_leg_kind, v_leg_amount) m
    LOOP
      v_settled[v_row.n] := v_row.out_id;
      v_changed[v_row.n] := true;
      IF v_credited[v_row.n] THEN
        v_status[v_row.n] := 'credited';
        v_moved[v_row.n] := true;
      END IF;
    END LOOP;
  END IF;

  -- 6. The credited players told, and their deposit bonuses.
  IF true = ANY (v_credited) THEN
    WITH told AS (
      INSERT INTO user_notifications (user_id, title, message, created_at)
      SELECT v_user[g.n], 'Deposit credited',
        format('Your deposit of %s %s has been credited to your wallet%s', trim_scale(p_amount[g.n]), v_code[g.n], CASE
          WHEN v_held[g.n] = 0 THEN '.'
          ELSE format(': %s%s %s held apart over your deposit limit, released as the limit allows (you may withdraw it at any time).',
            CASE WHEN v_held[g.n] < p_amount[g.n] THEN format('%s %s to your balance, ', trim_scale(p_amount[g.n] - v_held[g.n]), v_code[g.n]) ELSE '' END,
            trim_scale(v_held[g.n]), v_code[g.n])
        END), p_at
      FROM generate_subscripts(p_tx_id, 1) AS g(n) WHERE v_credited[g.n] ORDER BY g.n
      RETURNING id, user_id
    )
    SELECT array_agg(t.id ORDER BY g.n) INTO v_notification
    FROM generate_subscripts(p_tx_id, 1) AS g(n) LEFT JOIN told t ON v_credited[g.n] AND t.user_id = v_user[g.n];
    -- A deposit bonus matches the part credited as playable; a deposit held whole funds none.
    PERFORM bonus_apply_deposit(v_deposit[g.n], v_user[g.n], v_wallet[g.n], v_currency[g.n], p_amount[g.n] - v_held[g.n], p_at)
    FROM generate_subscripts(p_tx_id, 1) AS g(n)
    WHERE v_credited[g.n] AND v_held[g.n] < p_amount[g.n]
      -- A look-up per player (with LIMIT: never a semi-join over the table).
      AND (SELECT true FROM user_bonuses b WHERE b.user_id = v_user[g.n] AND b.status IN ('active', 'queued') LIMIT 1);
  END IF;

  -- The deposits that changed, each found by its key (its place in the set by array_position).
  UPDATE deposits d SET confirmations = v_confirmations[u.n], status = v_status[u.n], pending_transaction_id = v_pending[u.n],
    settled_transaction_id = v_settled[u.n], credited_at = CASE WHEN v_credited[u.n] THEN p_at ELSE d.credited_at END, updated_at = p_at,
    held_amount = d.held_amount + v_held[u.n]
  FROM (SELECT array_position(v_deposit, x.id) AS n, x.id FROM unnest(v_deposit) AS x(id)) u
  WHERE d.id = ANY (ARRAY(SELECT v_deposit[g.n] FROM generate_subscripts(p_tx_id, 1) AS g(n) WHERE v_refusal[g.n] IS NULL AND v_changed[g.n]))
    AND u.id = d.id;

  RETURN QUERY
  SELECT g.n::integer, CASE WHEN v_refusal[g.n] IS NULL THEN v_status[g.n] ELSE 'refused' END,
    CASE WHEN v_refusal[g.n] LIKE '%:%' THEN split_part(v_refusal[g.n], ':', 1) END,
    CASE WHEN v_refusal[g.n] LIKE '%:%' THEN split_part(v_refusal[g.n], ':', 2) ELSE v_refusal[g.n] END,
    CASE WHEN v_refusal[g.n] IS NULL THEN v_confirmations[g.n] END, v_required, coalesce(v_refusal[g.n] IS NULL AND v_changed[g.n], false),
    CASE WHEN v_refusal[g.n] IS NULL AND v_changed[g.n] THEN
      ARRAY[json_build_object('u', v_user[g.n], 'k', 'deposit', 'id', v_deposit[g.n])::text]
      || CASE WHEN v_moved[g.n] THEN ARRAY[json_build_object('u', v_user[g.n], 'k', 'wallets', 'id', v_user[g.n])::text] ELSE ARRAY[]::text[] END
      || CASE WHEN v_notification[g.n] IS NOT NULL
        THEN ARRAY[json_build_object('u', v_user[g.n], 'k', 'notification', 'id', v_notification[g.n])::text] ELSE ARRAY[]::text[] END
    ELSE ARRAY[]::text[] END
  FROM generate_subscripts(p_tx_id, 1) AS g(n) ORDER BY g.n;
END
$$;
