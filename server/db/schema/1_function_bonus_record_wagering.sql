-- Counts a bet of p_amount towards the running bonus of its wallet (game_wallet_play), inside the bet's
-- transaction, which holds the wallet's lock: the lazy rules first (bonus_settle, this wallet's bonuses), then
-- the whole stake, whichever balance paid it, is added to the wagering of the wallet's running bonus
-- (bonus_running_id: an unfunded deposit bonus has nothing to wager) when it is of p_currency_id.
-- A rolled-back bet passes a negative amount: it is taken off the wagering, never below zero, and nothing
-- else happens (a bonus already completed stays completed). Once the wagering reaches the amount to wager the
-- bonus completes (bonus_end: its remaining bonus money becomes available) and the next queued bonus of this
-- wallet activates (bonus_settle again). An amount of zero changes nothing.
CREATE OR REPLACE FUNCTION bonus_record_wagering(p_user_id bigint, p_wallet_id bigint, p_currency_id integer, p_amount numeric, p_at timestamptz)
RETURNS void
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_active bigint;
  v_wagered numeric;
  v_to_wager numeric;
BEGIN
  IF p_amount = 0 THEN
    RETURN;
  END IF;
  v_active := bonus_settle(p_user_id, p_at, p_wallet_id);
  IF v_active IS NULL THEN
    RETURN;
  END IF;
  UPDATE user_bonuses ub SET wagered_amount = greatest(ub.wagered_amount + p_amount, 0)
  WHERE ub.id = bonus_running_id(p_wallet_id, p_at) AND ub.currency_id = p_currency_id
  RETURNING ub.wagered_amount, ub.amount_to_wager INTO v_wagered, v_to_wager;
  IF NOT FOUND OR p_amount < 0 THEN
    RETURN;
  END IF;
  IF v_wagered >= v_to_wager THEN
    PERFORM bonus_end(v_active, 'completed', p_at);
    PERFORM bonus_settle(p_user_id, p_at, p_wallet_id);
  END IF;
END
$$;
