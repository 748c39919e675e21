-- Credits p_amount of bonus money to an active bonus (server/domain/bonuses.ts; bonus_activate for a fixed
-- offer, bonus_apply_deposit for a deposit offer with p_deposit_id its qualifying deposit), inside the caller's
-- transaction, the bonus's wallet row locked: bonus.credit, bonus_pool → the wallet's bonus (visible type bonus,
-- action bonus), posted by ledger_post under the key ('bonus:credit', the user_bonus id). The bonus then has to
-- wager p_amount × its offer's wagering_multiplier; when that is nothing it completes at once (bonus_end).
-- A bonus not active, or an amount not positive, raises SQLSTATE BN001.
CREATE OR REPLACE FUNCTION bonus_fund(p_user_bonus_id bigint, p_amount numeric, p_at timestamptz, p_deposit_id bigint) RETURNS void
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_row record;
  v_to_wager numeric;
  v_posted bigint;
BEGIN
  SELECT ub.status, ub.wallet_id, ub.currency_id, (SELECT b.wagering_multiplier FROM bonuses b WHERE b.id = ub.bonus_id) AS multiplier
  INTO v_row FROM user_bonuses ub WHERE ub.id = p_user_bonus_id FOR UPDATE;
  IF NOT FOUND OR v_row.status <> 'active' OR p_amount IS NULL OR p_amount <= 0 THEN
    RAISE EXCEPTION 'bonus % (%) cannot be credited %', p_user_bonus_id, coalesce(v_row.status, 'unknown'), coalesce(p_amount::text, 'null')
      USING ERRCODE = 'BN001';
  END IF;
  SELECT p.out_id INTO v_posted FROM ledger_post('bonus.credit', p_at,
    ARRAY[NULL, v_row.wallet_id]::bigint[], ARRAY[v_row.currency_id, NULL]::integer[], ARRAY['bonus_pool', 'bonus'], ARRAY[-p_amount, p_amount],
    p_scope => 'bonus:credit', p_key => p_user_bonus_id::text,
    p_visible_wallet => v_row.wallet_id, p_type => 'bonus', p_action_type => 'bonus', p_status => 'completed', p_visible_amount => p_amount) p;
  v_to_wager := p_amount * v_row.multiplier;
  UPDATE user_bonuses SET amount = p_amount, amount_to_wager = v_to_wager, deposit_id = p_deposit_id, credit_transaction_id = v_posted
  WHERE id = p_user_bonus_id;
  IF v_to_wager = 0 THEN
    PERFORM bonus_end(p_user_bonus_id, 'completed', p_at);
  END IF;
END
$$;
