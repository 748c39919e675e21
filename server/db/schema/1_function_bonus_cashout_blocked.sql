-- Whether a bonus blocks a cashout from p_wallet_id at p_at (server/domain/bonuses.ts, assertCashoutAllowed):
-- the wallet's running bonus (bonus_running_id), while its wagering is not done.
CREATE OR REPLACE FUNCTION bonus_cashout_blocked(p_wallet_id bigint, p_at timestamptz) RETURNS boolean
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
BEGIN
  RETURN coalesce((SELECT ub.wagered_amount < ub.amount_to_wager FROM user_bonuses ub WHERE ub.id = bonus_running_id(p_wallet_id, p_at)), false);
END
$$;
