-- Ends a player's active or queued bonus (server/domain/bonuses.ts; bonus_settle, bonus_fund,
-- bonus_record_wagering), inside the caller's transaction, the bonus's wallet row locked. p_status is
-- 'completed', 'forfeited' or 'expired'. A bonus that was active gives up what is left of its wallet's bonus
-- balance (bonus money is the active bonus's: the whole balance is what is left of it), posted by ledger_post
-- under the key ('bonus:end', the user_bonus id):
--   completed  bonus.conversion, the wallet's bonus → its available (visible type bonus, action bonusConversion);
--   otherwise  bonus.forfeit, the wallet's bonus → bonus_pool (visible type bonus, action bonusForfeit).
-- Nothing left, or a queued bonus (nothing was credited), posts nothing. The row gets its status, ended_at and
-- end_transaction_id. Returns the posting's ledger transaction id, or null. A bonus already ended, or another
-- status, raises SQLSTATE BN001.
CREATE OR REPLACE FUNCTION bonus_end(p_user_bonus_id bigint, p_status text, p_at timestamptz) RETURNS bigint
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_row record;
  v_remaining numeric;
  v_completed boolean := p_status = 'completed';
  v_posted bigint;
BEGIN
  SELECT ub.id, ub.status, ub.wallet_id, ub.currency_id INTO v_row FROM user_bonuses ub WHERE ub.id = p_user_bonus_id FOR UPDATE;
  IF NOT FOUND OR v_row.status NOT IN ('active', 'queued') OR p_status IS NULL OR p_status NOT IN ('completed', 'forfeited', 'expired') THEN
    RAISE EXCEPTION 'bonus % (%) cannot end as %', p_user_bonus_id, coalesce(v_row.status, 'unknown'), coalesce(p_status, 'null') USING ERRCODE = 'BN001';
  END IF;
  IF v_row.status = 'active' THEN
    SELECT w.bonus INTO v_remaining FROM wallets w WHERE w.id = v_row.wallet_id;
    IF v_remaining > 0 THEN
      SELECT p.out_id INTO v_posted FROM ledger_post(
        CASE WHEN v_completed THEN 'bonus.conversion' ELSE 'bonus.forfeit' END, p_at,
        ARRAY[v_row.wallet_id, CASE WHEN v_completed THEN v_row.wallet_id END],
        ARRAY[NULL, CASE WHEN v_completed THEN NULL ELSE v_row.currency_id END]::integer[],
        ARRAY['bonus', CASE WHEN v_completed THEN 'available' ELSE 'bonus_pool' END],
        ARRAY[-v_remaining, v_remaining],
        p_scope => 'bonus:end', p_key => p_user_bonus_id::text,
        p_visible_wallet => v_row.wallet_id, p_type => 'bonus',
        p_action_type => CASE WHEN v_completed THEN 'bonusConversion' ELSE 'bonusForfeit' END,
        p_status => 'completed', p_visible_amount => v_remaining) p;
    END IF;
  END IF;
  UPDATE user_bonuses SET status = p_status, ended_at = p_at, end_transaction_id = v_posted WHERE id = p_user_bonus_id;
  RETURN v_posted;
END
$$;
