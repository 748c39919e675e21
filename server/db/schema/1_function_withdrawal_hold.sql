-- A withdrawal's hold in one statement from the server (server/domain/withdrawals.ts), for a request
-- without an Idempotency-Key: the wallet locked while its available balance covers the amount and its
-- fee (the wallet's lock, which every withdrawal of the wallet takes first), then, read after that
-- lock, no other withdrawal of the wallet in flight and no bonus of its currency still to wager, the
-- ledger transaction posted (ledger_post), and the withdrawal recorded. Anything else (a balance too low, a withdrawal in flight, a bonus to wager) raises
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
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_total numeric := p_amount + p_fee;
  v_available numeric;
  v_blocked boolean;
  v_ledger bigint;
  v_withdrawal bigint;
BEGIN
  PERFORM set_config('casino.announce', 'by_server', true);
  SELECT w.available INTO v_available FROM wallets w
  WHERE w.id = p_wallet_id AND w.user_id = p_user_id AND w.currency_id = p_currency_id AND w.available >= v_total
  FOR UPDATE;
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
  SELECT l.out_id INTO v_ledger FROM ledger_post('withdraw.request', p_at, ARRAY[p_wallet_id, p_wallet_id], ARRAY[NULL, NULL]::integer[],
    ARRAY['available', 'pending'], ARRAY[-v_total, v_total], NULL, NULL, p_wallet_id, 'withdraw', 'withdraw', 'pending', v_total, NULL, NULL,
    p_ledger_public_id) l;
  INSERT INTO withdrawals (provider, wallet_id, user_id, currency_id, address, amount, fee, status, hold_transaction_id, created_at, updated_at)
  VALUES (p_provider, p_wallet_id, p_user_id, p_currency_id, p_address, p_amount, p_fee, 'requested', v_ledger, p_at, p_at)
  RETURNING id INTO v_withdrawal;
  RETURN QUERY SELECT v_withdrawal, ARRAY[
    json_build_object('u', p_user_id, 'k', 'wallets', 'id', p_user_id)::text,
    json_build_object('u', p_user_id, 'k', 'withdrawal', 'id', v_withdrawal)::text];
END
$$;
