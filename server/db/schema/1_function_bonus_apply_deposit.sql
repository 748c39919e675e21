-- A deposit's playable part, p_amount, was credited to p_wallet_id (deposit_notification_apply), inside the
-- transaction that credited it, which holds the wallet's lock: the lazy rules first (bonus_settle, this
-- wallet's bonuses), then the player's active bonus, when it is of this wallet and currency and a deposit offer still
-- unfunded, takes the deposit if it reaches the offer's min_deposit: percentage × the deposit, rounded down to
-- 1e-8, capped at the offer's amount when it has one, rounded down to the currency's decimals, credited when
-- more than nothing (bonus_fund, the deposit recorded as its qualifying deposit). Nothing to wager completes it
-- at once, and the next queued bonus of this wallet may start (bonus_settle again). A deposit offer's credit
-- names its deposit (what tells a funded deposit bonus from one still waiting): no deposit raises SQLSTATE BN001.
CREATE OR REPLACE FUNCTION bonus_apply_deposit(
  p_deposit_id bigint,
  p_user_id bigint,
  p_wallet_id bigint,
  p_currency_id integer,
  p_amount numeric,
  p_at timestamptz
) RETURNS void
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_active bigint;
  v_offer record;
  v_amount numeric;
BEGIN
  IF p_deposit_id IS NULL THEN
    RAISE EXCEPTION 'a deposit bonus is funded by a deposit' USING ERRCODE = 'BN001';
  END IF;
  v_active := bonus_settle(p_user_id, p_at, p_wallet_id);
  IF v_active IS NULL THEN
    RETURN;
  END IF;
  SELECT b.type, b.amount, b.percentage, b.min_deposit, (SELECT c.decimals FROM currencies c WHERE c.id = b.currency_id) AS decimals
  INTO v_offer FROM bonuses b
  WHERE b.id = (SELECT ub.bonus_id FROM user_bonuses ub
    WHERE ub.id = v_active AND ub.wallet_id = p_wallet_id AND ub.currency_id = p_currency_id AND ub.deposit_id IS NULL);
  IF NOT FOUND OR v_offer.type <> 'deposit' OR p_amount < coalesce(v_offer.min_deposit, 0) THEN
    RETURN;
  END IF;
  v_amount := trunc(least(trunc(p_amount * v_offer.percentage / 100, 8), v_offer.amount), v_offer.decimals);
  IF v_amount <= 0 THEN
    RETURN;
  END IF;
  PERFORM bonus_fund(v_active, v_amount, p_at, p_deposit_id);
  PERFORM bonus_settle(p_user_id, p_at, p_wallet_id);
END
$$;
