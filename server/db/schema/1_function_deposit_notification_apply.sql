-- A payment provider's deposit notification (server/domain/deposits.ts): the one implementation of what a
-- notification does; deposit_notification_apply_batch applies it to each notification of a batch.
-- Notifications carry state, not events: a replay moves nothing (out_changed false). In this order:
--   1. the refusals, before anything is written: an address the provider never gave (NOT_FOUND), another
--      currency than the address's, an amount not positive or finer than the currency's decimals;
--   2. the transfer recorded at its first sight (below the currency's minimum deposit: `below_minimum`,
--      never credited), and its row locked; a notification that contradicts the recorded address or
--      amount is refused whole;
--   3. at its first sight at or above the minimum: provider_clearing to the wallet's pending balance
--      (deposit.pending, a visible pending deposit, key `<txId>:pending`);
--   4. once it has the confirmations settings require: pending to available (deposit.credit, a visible
--      completed deposit, key `<txId>:credit`), the deposit `credited` in the same transaction, so once.
--      In the deposit limits' currency (p_limits_currency) the player's deposit-limit reckoning is locked
--      first, held money waiting is released (deposit_release_held), and the part of the deposit over the
--      limits goes to the held balance instead (deposit_limit_room). The player is told, and a deposit
--      bonus waiting for a qualifying deposit takes the part credited as playable (bonus_apply_deposit);
--   5. under the minimum, once confirmed: the coins sit at the provider with nobody owed them,
--      provider_clearing to adjustments (deposit.below_minimum, internal, key `<txId>:below_minimum`).
-- Locks in the order every writer takes them: the deposit's row, the deposit-limit lock, the wallet (in
-- ledger_post). Every posting goes through ledger_post. Refusals return 'refused' with the field and code,
-- having written nothing. The live updates are returned (out_announce) for the server to announce once
-- committed.
CREATE OR REPLACE FUNCTION deposit_notification_apply(
  p_provider text,
  p_tx_id text,
  p_address text,
  p_currency_code text,
  p_amount numeric,
  p_confirmations integer,
  p_limits_currency text,
  p_ledger_scope text,
  p_ledger_key text,
  p_at timestamptz
) RETURNS TABLE (out_status text, out_field text, out_code text, out_confirmations integer, out_required integer, out_changed boolean,
  out_announce text[])
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_address bigint;
  v_wallet bigint;
  v_user bigint;
  v_currency integer;
  v_code text;
  v_decimals integer;
  v_min numeric;
  v_inserted bigint;
  v_deposit record;
  v_status text;
  v_pending bigint;
  v_settled bigint;
  v_credit boolean;
  v_limited boolean;
  v_room numeric;
  v_held numeric := 0;
  v_wallet_moved boolean := false;
  v_notification bigint;
BEGIN
  PERFORM set_config('casino.announce', 'by_server', true);
  out_announce := ARRAY[]::text[];
  SELECT st.deposit_confirmations INTO out_required FROM settings st WHERE st.id = 1;
  -- The address, its wallet and the wallet's currency each found by its key (a subquery of its own with
  -- LIMIT, which PostgreSQL does not merge into a join that a plan kept from small tables would scan).
  SELECT d.id, d.wallet_id, w.user_id, w.currency_id, c.code, c.decimals, c.min_deposit
  INTO v_address, v_wallet, v_user, v_currency, v_code, v_decimals, v_min
  FROM (SELECT d.id, d.wallet_id FROM deposit_addresses d WHERE d.provider = p_provider AND d.address = p_address LIMIT 1) d
    CROSS JOIN LATERAL (SELECT w.user_id, w.currency_id FROM wallets w WHERE w.id = d.wallet_id LIMIT 1) w
    CROSS JOIN LATERAL (SELECT c.code, c.decimals, c.min_deposit FROM currencies c WHERE c.id = w.currency_id LIMIT 1) c;
  IF v_address IS NULL THEN
    out_code := 'NOT_FOUND';
  ELSIF v_code <> p_currency_code THEN
    out_field := 'currencyCode';
    out_code := 'mismatch';
  ELSIF p_amount IS NULL OR p_amount <= 0 THEN
    out_field := 'amount';
    out_code := 'amount.positive';
  ELSIF trunc(p_amount, v_decimals) <> p_amount THEN
    out_field := 'amount';
    out_code := 'amount.decimals';
  END IF;
  IF out_code IS NOT NULL THEN
    out_status := 'refused';
    RETURN NEXT;
    RETURN;
  END IF;

  INSERT INTO deposits (provider, provider_tx_id, deposit_address_id, wallet_id, user_id, currency_id, amount, confirmations, status,
    created_at, updated_at)
  VALUES (p_provider, p_tx_id, v_address, v_wallet, v_user, v_currency, p_amount, p_confirmations,
    CASE WHEN p_amount < v_min THEN 'below_minimum' ELSE 'pending' END, p_at, p_at)
  ON CONFLICT (provider, provider_tx_id) DO NOTHING
  RETURNING id INTO v_inserted;
  SELECT d.id, d.deposit_address_id, d.amount, d.confirmations, d.status, d.pending_transaction_id, d.settled_transaction_id INTO v_deposit
  FROM deposits d WHERE d.provider = p_provider AND d.provider_tx_id = p_tx_id FOR UPDATE;
  -- A transfer's address and amount never change.
  IF v_deposit.deposit_address_id <> v_address OR v_deposit.amount <> p_amount THEN
    out_status := 'refused';
    out_field := CASE WHEN v_deposit.deposit_address_id <> v_address THEN 'address' ELSE 'amount' END;
    out_code := 'mismatch';
    RETURN NEXT;
    RETURN;
  END IF;
  out_changed := v_inserted IS NOT NULL OR p_confirmations > v_deposit.confirmations;
  out_confirmations := greatest(v_deposit.confirmations, p_confirmations);
  v_status := v_deposit.status;
  v_pending := v_deposit.pending_transaction_id;
  v_settled := v_deposit.settled_transaction_id;
  v_credit := v_status = 'pending' AND out_confirmations >= out_required;
  v_limited := v_credit AND v_code = p_limits_currency;
  IF v_limited THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('deposit-limits:' || v_user, 0));
  END IF;

  IF v_status = 'pending' AND v_pending IS NULL THEN
    SELECT l.out_id INTO v_pending FROM ledger_post('deposit.pending', p_at, ARRAY[NULL, v_wallet], ARRAY[v_currency, NULL],
      ARRAY['provider_clearing', 'pending'], ARRAY[-p_amount, p_amount], p_ledger_scope, p_ledger_key || ':pending',
      v_wallet, 'deposit', 'deposit', 'pending', p_amount) l;
    out_changed := true;
    v_wallet_moved := true;
  END IF;
  IF v_credit THEN
    IF v_limited THEN
      PERFORM deposit_release_held(v_user, p_limits_currency, p_at);
      v_room := deposit_limit_room(v_user, v_currency, p_at);
      v_held := CASE WHEN v_room IS NULL OR v_room >= p_amount THEN 0 ELSE p_amount - v_room END;
    END IF;
    SELECT l.out_id INTO v_settled FROM ledger_post('deposit.credit', p_at, ARRAY[v_wallet, v_wallet, v_wallet], ARRAY[NULL, NULL, NULL]::integer[],
      ARRAY['pending', 'available', 'held'], ARRAY[-p_amount, p_amount - v_held, v_held], p_ledger_scope, p_ledger_key || ':credit',
      v_wallet, 'deposit', 'deposit', 'completed', p_amount, NULL, v_pending) l;
    v_status := 'credited';
    out_changed := true;
    v_wallet_moved := true;
    INSERT INTO user_notifications (user_id, title, message, created_at)
    VALUES (v_user, 'Deposit credited', format('Your deposit of %s %s has been credited to your wallet%s', trim_scale(p_amount), v_code,
      CASE WHEN v_held = 0 THEN '.' ELSE format(': %s%s %s held apart over your deposit limit, released as the limit allows (you may withdraw it at any time).',
        CASE WHEN v_held < p_amount THEN format('%s %s to your balance, ', trim_scale(p_amount - v_held), v_code) ELSE '' END, trim_scale(v_held), v_code) END),
      p_at)
    RETURNING id INTO v_notification;
    -- A deposit bonus matches the part credited as playable; a deposit held whole funds none.
    IF v_held < p_amount THEN
      PERFORM bonus_apply_deposit(v_deposit.id, v_user, v_wallet, v_currency, p_amount - v_held, p_at);
    END IF;
  ELSIF v_status = 'below_minimum' AND v_settled IS NULL AND out_confirmations >= out_required THEN
    SELECT l.out_id INTO v_settled FROM ledger_post('deposit.below_minimum', p_at, ARRAY[NULL, NULL]::bigint[], ARRAY[v_currency, v_currency],
      ARRAY['provider_clearing', 'adjustments'], ARRAY[-p_amount, p_amount], p_ledger_scope, p_ledger_key || ':below_minimum') l;
    out_changed := true;
  END IF;

  IF out_changed THEN
    UPDATE deposits d SET confirmations = out_confirmations, status = v_status, pending_transaction_id = v_pending,
      settled_transaction_id = v_settled, credited_at = CASE WHEN v_credit THEN p_at ELSE d.credited_at END, updated_at = p_at,
      held_amount = d.held_amount + v_held
    WHERE d.id = v_deposit.id;
    out_announce := ARRAY[json_build_object('u', v_user, 'k', 'deposit', 'id', v_deposit.id)::text]
      || CASE WHEN v_wallet_moved THEN ARRAY[json_build_object('u', v_user, 'k', 'wallets', 'id', v_user)::text] ELSE ARRAY[]::text[] END
      || CASE WHEN v_notification IS NOT NULL
        THEN ARRAY[json_build_object('u', v_user, 'k', 'notification', 'id', v_notification)::text] ELSE ARRAY[]::text[] END;
  END IF;
  out_status := v_status;
  RETURN NEXT;
END
$$;
