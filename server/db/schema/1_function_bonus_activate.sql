-- Activates a queued bonus (server/domain/bonuses.ts; bonus_settle), inside the caller's transaction, the
-- bonus's wallet row locked. An offer that ended (valid_till) while the claim waited never starts: the bonus
-- expires, nothing posted. Otherwise its clock starts at p_at: it expires valid_days × 24 hours later, or at
-- the offer's valid_till when that is sooner. A fixed offer is credited now (bonus_fund) with its amount
-- rounded down to the currency's decimals; nothing to credit completes it at once (bonus_end). A deposit offer
-- waits, active and unfunded, for a qualifying deposit (bonus_apply_deposit). A bonus not queued raises
-- SQLSTATE BN001.
CREATE OR REPLACE FUNCTION bonus_activate(p_user_bonus_id bigint, p_at timestamptz) RETURNS void
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_row record;
  v_offer record;
  v_amount numeric;
BEGIN
  SELECT ub.status, ub.bonus_id INTO v_row FROM user_bonuses ub WHERE ub.id = p_user_bonus_id FOR UPDATE;
  IF NOT FOUND OR v_row.status <> 'queued' THEN
    RAISE EXCEPTION 'bonus % (%) is not queued', p_user_bonus_id, coalesce(v_row.status, 'unknown') USING ERRCODE = 'BN001';
  END IF;
  SELECT b.type, b.amount, b.valid_days, b.valid_till, (SELECT c.decimals FROM currencies c WHERE c.id = b.currency_id) AS decimals
  INTO v_offer FROM bonuses b WHERE b.id = v_row.bonus_id;
  IF v_offer.valid_till <= p_at THEN
    UPDATE user_bonuses SET status = 'expired', ended_at = p_at WHERE id = p_user_bonus_id;
    RETURN;
  END IF;
  UPDATE user_bonuses SET status = 'active', activated_at = p_at, expire_at = least(p_at + v_offer.valid_days * interval '24 hours', v_offer.valid_till)
  WHERE id = p_user_bonus_id;
  IF v_offer.type = 'deposit' THEN
    RETURN;
  END IF;
  v_amount := trunc(coalesce(v_offer.amount, 0), v_offer.decimals);
  IF v_amount > 0 THEN
    PERFORM bonus_fund(p_user_bonus_id, v_amount, p_at, NULL);
  ELSE
    PERFORM bonus_end(p_user_bonus_id, 'completed', p_at);
  END IF;
END
$$;
