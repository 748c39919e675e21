-- A deposit notification in one statement from the server (server/domain/deposits.ts), for its two
-- common cases: a new transfer seen with fewer confirmations than required (the deposit recorded, its
-- amount put in the wallet's pending balance), and a pending transfer now confirmed (credited: pending to
-- available, and the player told) by a player with no bonus in play, no deposit limit and no held money
-- (the general path splits such a credit by the limits), while the confirmations required are still
-- those the server has cached from settings (else GW002: the server reads settings again). The deposit's
-- row is locked before the wallet's, as the general path takes them. Anything else (a replay, a
-- confirmation that credits nothing yet, a transfer confirmed at once, below the minimum, a mismatch)
-- raises SQLSTATE GW001 before it commits: nothing stays, and the server runs the general path. The
-- ledger transactions are posted by ledger_post, as every other.
CREATE OR REPLACE FUNCTION deposit_notification_apply(
  p_provider text,
  p_tx_id text,
  p_address text,
  p_currency_code text,
  p_amount numeric,
  p_confirmations integer,
  p_required integer,
  p_ledger_public_id uuid,
  p_ledger_scope text,
  p_ledger_key text,
  p_notice_title text,
  p_notice_message text,
  p_at timestamptz
) RETURNS TABLE (out_status text, out_confirmations integer, out_announce text[])
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
  v_bonus_in_play boolean;
  v_deposit bigint;
  v_pending bigint;
  v_ledger bigint;
  v_replayed boolean;
  v_confirmations integer;
  v_notification bigint;
  v_required integer;
BEGIN
  PERFORM set_config('casino.announce', 'by_server', true);
  SELECT d.id, d.wallet_id, w.user_id, w.currency_id, c.code, c.decimals, c.min_deposit,
    EXISTS (SELECT 1 FROM user_bonuses b WHERE b.user_id = w.user_id AND b.status IN ('active', 'queued'))
      OR w.held > 0 OR EXISTS (SELECT 1 FROM gambling_limits l WHERE l.user_id = w.user_id AND l.kind = 'deposit'),
    (SELECT st.deposit_confirmations FROM settings st WHERE st.id = 1)
  INTO v_address, v_wallet, v_user, v_currency, v_code, v_decimals, v_min, v_bonus_in_play, v_required
  -- The address, its wallet and the wallet's currency each found by its key (a subquery of its own with
  -- LIMIT, which PostgreSQL does not merge into a join that a plan kept from small tables would scan).
  FROM (SELECT d.id, d.wallet_id FROM deposit_addresses d WHERE d.provider = p_provider AND d.address = p_address LIMIT 1) d
    CROSS JOIN LATERAL (SELECT w.user_id, w.currency_id, w.held FROM wallets w WHERE w.id = d.wallet_id LIMIT 1) w
    CROSS JOIN LATERAL (SELECT c.code, c.decimals, c.min_deposit FROM currencies c WHERE c.id = w.currency_id LIMIT 1) c;
  IF v_address IS NOT NULL AND v_required IS DISTINCT FROM p_required THEN
    RAISE EXCEPTION 'the confirmations required changed' USING ERRCODE = 'GW002';
  END IF;
  IF v_address IS NULL OR v_code <> p_currency_code OR p_amount <= 0 OR p_amount < v_min
    OR trunc(p_amount * 10::numeric ^ v_decimals) <> p_amount * 10::numeric ^ v_decimals THEN
    RAISE EXCEPTION 'the notification needs the general path' USING ERRCODE = 'GW001';
  END IF;

  IF p_confirmations < p_required THEN
    -- The deposit's row first (the general path's order), then the wallet's in ledger_post.
    INSERT INTO deposits (provider, provider_tx_id, deposit_address_id, wallet_id, user_id, currency_id, amount, confirmations, status,
      created_at, updated_at)
    VALUES (p_provider, p_tx_id, v_address, v_wallet, v_user, v_currency, p_amount, p_confirmations, 'pending', p_at, p_at)
    ON CONFLICT (provider, provider_tx_id) DO NOTHING
    RETURNING id INTO v_deposit;
    IF v_deposit IS NULL THEN
      RAISE EXCEPTION 'a transfer already recorded' USING ERRCODE = 'GW001';
    END IF;
    SELECT l.out_id, l.out_replayed INTO v_ledger, v_replayed FROM ledger_post('deposit.pending', p_at, ARRAY[NULL, v_wallet],
      ARRAY[v_currency, NULL], ARRAY['provider_clearing', 'pending'], ARRAY[-p_amount, p_amount], p_ledger_scope, p_ledger_key || ':pending',
      v_wallet, 'deposit', 'deposit', 'pending', p_amount, NULL, NULL, p_ledger_public_id) l;
    IF v_replayed THEN
      RAISE EXCEPTION 'the ledger already holds this posting' USING ERRCODE = 'GW001';
    END IF;
    UPDATE deposits d SET pending_transaction_id = v_ledger WHERE d.id = v_deposit;
    RETURN QUERY SELECT 'pending'::text, p_confirmations, ARRAY[
      json_build_object('u', v_user, 'k', 'deposit', 'id', v_deposit)::text, json_build_object('u', v_user, 'k', 'wallets', 'id', v_user)::text];
    RETURN;
  END IF;

  IF v_bonus_in_play THEN
    RAISE EXCEPTION 'a bonus may take this deposit, or a deposit limit may hold part of it' USING ERRCODE = 'GW001';
  END IF;
  -- The deposit's row first (the general path's order), then the wallet's in ledger_post.
  SELECT d.id, d.pending_transaction_id INTO v_deposit, v_pending FROM deposits d
  WHERE d.provider = p_provider AND d.provider_tx_id = p_tx_id AND d.status = 'pending' AND d.pending_transaction_id IS NOT NULL
    AND d.deposit_address_id = v_address AND d.amount = p_amount
  FOR UPDATE;
  IF v_deposit IS NULL THEN
    RAISE EXCEPTION 'no pending transfer to credit' USING ERRCODE = 'GW001';
  END IF;
  SELECT l.out_id, l.out_replayed INTO v_ledger, v_replayed FROM ledger_post('deposit.credit', p_at, ARRAY[v_wallet, v_wallet],
    ARRAY[NULL, NULL]::integer[], ARRAY['available', 'pending'], ARRAY[p_amount, -p_amount], p_ledger_scope, p_ledger_key || ':credit', v_wallet,
    'deposit', 'deposit', 'completed', p_amount, NULL, v_pending, p_ledger_public_id) l;
  IF v_replayed THEN
    RAISE EXCEPTION 'the ledger already holds this posting' USING ERRCODE = 'GW001';
  END IF;
  UPDATE deposits d SET confirmations = greatest(d.confirmations, p_confirmations), status = 'credited', settled_transaction_id = v_ledger,
    credited_at = p_at, updated_at = p_at
  WHERE d.id = v_deposit
  RETURNING d.confirmations INTO v_confirmations;
  INSERT INTO user_notifications (user_id, title, message, created_at) VALUES (v_user, p_notice_title, p_notice_message, p_at)
  RETURNING id INTO v_notification;
  RETURN QUERY SELECT 'credited'::text, v_confirmations, ARRAY[
    json_build_object('u', v_user, 'k', 'deposit', 'id', v_deposit)::text, json_build_object('u', v_user, 'k', 'wallets', 'id', v_user)::text,
    json_build_object('u', v_user, 'k', 'notification', 'id', v_notification)::text];
END
$$;
