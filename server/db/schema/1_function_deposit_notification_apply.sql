-- A deposit notification in one statement from the server (server/domain/deposits.ts), for its two
-- common cases: a new transfer seen with fewer confirmations than required (the deposit recorded, its
-- amount put in the wallet's pending balance), and a pending transfer now confirmed (credited: pending to
-- available, and the player told) by a player with no bonus in play, no deposit limit and no held money
-- (the general path splits such a credit by the limits), while the confirmations required are still
-- those the server has cached from settings (else GW002: the server reads settings again). The deposit's
-- row is locked before the wallet's, as the general path takes them. Anything else (a replay, a
-- confirmation that credits nothing yet, a transfer confirmed at once, below the minimum, a mismatch)
-- raises SQLSTATE GW001 before it commits: nothing stays, and the server runs the general path. The
-- ledger rows carry the request hash server/domain/ledger.ts gives the same postings, and are vouched for
-- in casino.ledger_balanced_by (ledger_transactions_balanced).
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
LANGUAGE plpgsql AS $$
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
  v_available numeric;
  v_entries integer;
  v_units text;
  v_hash text;
  v_confirmations integer;
  v_notification bigint;
  v_required integer;
BEGIN
  PERFORM set_config('casino.announce', 'by_server', true), set_config('casino.ledger_balanced_by', p_ledger_public_id::text, true);
  SELECT d.id, d.wallet_id, w.user_id, w.currency_id, c.code, c.decimals, c.min_deposit,
    EXISTS (SELECT 1 FROM user_bonuses b WHERE b.user_id = w.user_id AND b.status IN ('active', 'queued'))
      OR w.held > 0 OR EXISTS (SELECT 1 FROM gambling_limits l WHERE l.user_id = w.user_id AND l.kind = 'deposit'),
    (SELECT st.deposit_confirmations FROM settings st WHERE st.id = 1)
  INTO v_address, v_wallet, v_user, v_currency, v_code, v_decimals, v_min, v_bonus_in_play, v_required
  FROM deposit_addresses d JOIN wallets w ON w.id = d.wallet_id JOIN currencies c ON c.id = w.currency_id
  WHERE d.provider = p_provider AND d.address = p_address;
  IF v_address IS NOT NULL AND v_required IS DISTINCT FROM p_required THEN
    RAISE EXCEPTION 'the confirmations required changed' USING ERRCODE = 'GW002';
  END IF;
  IF v_address IS NULL OR v_code <> p_currency_code OR p_amount <= 0 OR p_amount < v_min
    OR trunc(p_amount * 10::numeric ^ v_decimals) <> p_amount * 10::numeric ^ v_decimals THEN
    RAISE EXCEPTION 'the notification needs the general path' USING ERRCODE = 'GW001';
  END IF;
  v_units := (p_amount * 100000000)::numeric(40, 0)::text;
  v_ledger := nextval('ledger_transactions_id_seq');

  IF p_confirmations < p_required THEN
    INSERT INTO deposits (provider, provider_tx_id, deposit_address_id, wallet_id, user_id, currency_id, amount, confirmations, status,
      pending_transaction_id, created_at, updated_at)
    VALUES (p_provider, p_tx_id, v_address, v_wallet, v_user, v_currency, p_amount, p_confirmations, 'pending', v_ledger, p_at, p_at)
    ON CONFLICT (provider, provider_tx_id) DO NOTHING
    RETURNING id INTO v_deposit;
    IF v_deposit IS NULL THEN
      RAISE EXCEPTION 'a transfer already recorded' USING ERRCODE = 'GW001';
    END IF;
    UPDATE wallets w SET pending = w.pending + p_amount WHERE w.id = v_wallet RETURNING w.available INTO v_available;
    v_hash := encode(sha256(convert_to(format(
      '{"kind":"deposit.pending","legs":[["system:%s:provider_clearing","-%s"],["wallet:%s:pending","%s"]],"visible":[%s,"deposit","deposit","pending","%s",null],"related":null}',
      v_currency, v_units, v_wallet, v_units, v_wallet, v_units), 'UTF8')), 'hex');
    WITH t AS (
      INSERT INTO ledger_transactions (id, public_id, kind, idempotency_scope, idempotency_key, request_hash, user_id, wallet_id, currency_id,
        type, action_type, status, amount, before_balance, after_balance, created_at)
      VALUES (v_ledger, p_ledger_public_id, 'deposit.pending', p_ledger_scope, p_ledger_key || ':pending', v_hash, v_user, v_wallet, v_currency,
        'deposit', 'deposit', 'pending', p_amount, v_available, v_available, p_at)
      ON CONFLICT (idempotency_scope, idempotency_key) DO NOTHING
      RETURNING id
    ), e AS (
      INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
      SELECT t.id, x.account_id, v_currency, x.amount FROM t CROSS JOIN (
        SELECT a.id AS account_id, -p_amount AS amount FROM ledger_accounts a
        WHERE a.wallet_id IS NULL AND a.currency_id = v_currency AND a.kind = 'provider_clearing'
        UNION ALL
        SELECT a.id, p_amount FROM ledger_accounts a WHERE a.wallet_id = v_wallet AND a.kind = 'pending'
      ) x
      RETURNING 1
    )
    SELECT (SELECT count(*)::integer FROM e) INTO v_entries FROM t;
    IF v_entries IS NULL THEN
      RAISE EXCEPTION 'the ledger already holds this posting' USING ERRCODE = 'GW001';
    END IF;
    IF v_entries <> 2 THEN
      RAISE EXCEPTION 'wallet % or currency % has no ledger account', v_wallet, v_currency;
    END IF;
    RETURN QUERY SELECT 'pending'::text, p_confirmations, ARRAY[
      json_build_object('u', v_user, 'k', 'deposit', 'id', v_deposit)::text, json_build_object('u', v_user, 'k', 'wallets', 'id', v_user)::text];
    RETURN;
  END IF;

  IF v_bonus_in_play THEN
    RAISE EXCEPTION 'a bonus may take this deposit, or a deposit limit may hold part of it' USING ERRCODE = 'GW001';
  END IF;
  UPDATE deposits d SET confirmations = greatest(d.confirmations, p_confirmations), status = 'credited', settled_transaction_id = v_ledger,
    credited_at = p_at, updated_at = p_at
  WHERE d.provider = p_provider AND d.provider_tx_id = p_tx_id AND d.status = 'pending' AND d.pending_transaction_id IS NOT NULL
    AND d.deposit_address_id = v_address AND d.amount = p_amount
  RETURNING d.id, d.pending_transaction_id, d.confirmations INTO v_deposit, v_pending, v_confirmations;
  IF v_deposit IS NULL THEN
    RAISE EXCEPTION 'no pending transfer to credit' USING ERRCODE = 'GW001';
  END IF;
  UPDATE wallets w SET pending = w.pending - p_amount, available = w.available + p_amount
  WHERE w.id = v_wallet AND w.pending >= p_amount RETURNING w.available INTO v_available;
  IF v_available IS NULL THEN
    RAISE EXCEPTION 'wallet % holds less pending than deposit %', v_wallet, v_deposit;
  END IF;
  v_hash := encode(sha256(convert_to(format(
    '{"kind":"deposit.credit","legs":[["wallet:%s:available","%s"],["wallet:%s:pending","-%s"]],"visible":[%s,"deposit","deposit","completed","%s",null],"related":%s}',
    v_wallet, v_units, v_wallet, v_units, v_wallet, v_units, v_pending), 'UTF8')), 'hex');
  WITH t AS (
    INSERT INTO ledger_transactions (id, public_id, kind, idempotency_scope, idempotency_key, request_hash, related_transaction_id, user_id,
      wallet_id, currency_id, type, action_type, status, amount, before_balance, after_balance, created_at)
    VALUES (v_ledger, p_ledger_public_id, 'deposit.credit', p_ledger_scope, p_ledger_key || ':credit', v_hash, v_pending, v_user,
      v_wallet, v_currency, 'deposit', 'deposit', 'completed', p_amount, v_available - p_amount, v_available, p_at)
    ON CONFLICT (idempotency_scope, idempotency_key) DO NOTHING
    RETURNING id
  ), e AS (
    INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
    SELECT t.id, a.id, v_currency, CASE a.kind WHEN 'available' THEN p_amount ELSE -p_amount END
    FROM t CROSS JOIN ledger_accounts a WHERE a.wallet_id = v_wallet AND a.kind IN ('available', 'pending')
    RETURNING 1
  )
  SELECT (SELECT count(*)::integer FROM e) INTO v_entries FROM t;
  IF v_entries IS NULL THEN
    RAISE EXCEPTION 'the ledger already holds this posting' USING ERRCODE = 'GW001';
  END IF;
  IF v_entries <> 2 THEN
    RAISE EXCEPTION 'wallet % has no ledger account', v_wallet;
  END IF;
  INSERT INTO user_notifications (user_id, title, message, created_at) VALUES (v_user, p_notice_title, p_notice_message, p_at)
  RETURNING id INTO v_notification;
  RETURN QUERY SELECT 'credited'::text, v_confirmations, ARRAY[
    json_build_object('u', v_user, 'k', 'deposit', 'id', v_deposit)::text, json_build_object('u', v_user, 'k', 'wallets', 'id', v_user)::text,
    json_build_object('u', v_user, 'k', 'notification', 'id', v_notification)::text];
END
$$;
