-- A withdrawal's hold in one statement from the server (server/domain/withdrawals.ts), for a request
-- without an Idempotency-Key: the amount and its fee moved from available to pending by a conditional
-- update (the wallet's lock, which every withdrawal of the wallet takes first), then, read after that
-- lock, no other withdrawal of the wallet in flight and no bonus of its currency still to wager, the
-- ledger transaction and its entries in one statement (vouched for in casino.ledger_balanced_by), and the
-- withdrawal recorded. Anything else (a balance too low, a withdrawal in flight, a bonus to wager) raises
-- SQLSTATE GW001: nothing stays, and the server runs the general path, which answers with the refusal.
CREATE OR REPLACE FUNCTION withdrawal_hold(
  p_provider text,
  p_wallet_id bigint,
  p_user_id bigint,
  p_currency_id integer,
  p_address text,
  p_amount numeric,
  p_fee numeric,
  p_ledger_public_id uuid,
  p_at timestamptz
) RETURNS TABLE (out_withdrawal_id bigint, out_announce text[])
LANGUAGE plpgsql AS $$
DECLARE
  v_total numeric := p_amount + p_fee;
  v_available numeric;
  v_blocked boolean;
  v_units text;
  v_hash text;
  v_ledger bigint;
  v_entries integer;
  v_withdrawal bigint;
BEGIN
  PERFORM set_config('casino.announce', 'by_server', true), set_config('casino.ledger_balanced_by', p_ledger_public_id::text, true);
  UPDATE wallets w SET available = w.available - v_total, pending = w.pending + v_total
  WHERE w.id = p_wallet_id AND w.user_id = p_user_id AND w.currency_id = p_currency_id AND w.available >= v_total
  RETURNING w.available INTO v_available;
  IF v_available IS NULL THEN
    RAISE EXCEPTION 'the balance does not cover the withdrawal' USING ERRCODE = 'GW001';
  END IF;
  SELECT EXISTS (SELECT 1 FROM withdrawals x WHERE x.wallet_id = p_wallet_id AND x.status IN ('requested', 'pending'))
    OR EXISTS (SELECT 1 FROM user_bonuses ub WHERE ub.user_id = p_user_id AND ub.currency_id = p_currency_id AND ub.status = 'active'
      AND (ub.expire_at IS NULL OR ub.expire_at > p_at) AND ub.wagered_amount < ub.amount_to_wager)
  INTO v_blocked;
  IF v_blocked THEN
    RAISE EXCEPTION 'a withdrawal in flight or a bonus to wager' USING ERRCODE = 'GW001';
  END IF;
  v_units := (v_total * 100000000)::numeric(40, 0)::text;
  v_hash := encode(sha256(convert_to(format(
    '{"kind":"withdraw.request","legs":[["wallet:%s:available","-%s"],["wallet:%s:pending","%s"]],"visible":[%s,"withdraw","withdraw","pending","%s",null],"related":null}',
    p_wallet_id, v_units, p_wallet_id, v_units, p_wallet_id, v_units), 'UTF8')), 'hex');
  WITH t AS (
    INSERT INTO ledger_transactions (public_id, kind, request_hash, user_id, wallet_id, currency_id, type, action_type, status, amount,
      before_balance, after_balance, created_at)
    VALUES (p_ledger_public_id, 'withdraw.request', v_hash, p_user_id, p_wallet_id, p_currency_id, 'withdraw', 'withdraw', 'pending', v_total,
      v_available + v_total, v_available, p_at)
    RETURNING id
  ), e AS (
    INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
    SELECT t.id, a.id, p_currency_id, CASE a.kind WHEN 'pending' THEN v_total ELSE -v_total END
    FROM t CROSS JOIN ledger_accounts a WHERE a.wallet_id = p_wallet_id AND a.kind IN ('available', 'pending')
    RETURNING 1
  )
  SELECT t.id, (SELECT count(*)::integer FROM e) INTO v_ledger, v_entries FROM t;
  IF v_entries <> 2 THEN
    RAISE EXCEPTION 'wallet % has no ledger account', p_wallet_id;
  END IF;
  INSERT INTO withdrawals (provider, wallet_id, user_id, currency_id, address, amount, fee, status, hold_transaction_id, created_at, updated_at)
  VALUES (p_provider, p_wallet_id, p_user_id, p_currency_id, p_address, p_amount, p_fee, 'requested', v_ledger, p_at, p_at)
  RETURNING id INTO v_withdrawal;
  RETURN QUERY SELECT v_withdrawal, ARRAY[
    json_build_object('u', p_user_id, 'k', 'wallets', 'id', p_user_id)::text,
    json_build_object('u', p_user_id, 'k', 'withdrawal', 'id', v_withdrawal)::text];
END
$$;
