-- Whether a bonus blocks a cashout from p_wallet_id at p_at (server/domain/bonuses.ts, assertCashoutAllowed):
-- its player has an active bonus in the wallet's currency, not past its expire_at, whose wagering is not done.
-- An unfunded deposit bonus has nothing to wager and does not block.
CREATE OR REPLACE FUNCTION bonus_cashout_blocked(p_wallet_id bigint, p_at timestamptz) RETURNS boolean
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_wallet record;
BEGIN
  SELECT w.user_id, w.currency_id INTO v_wallet FROM wallets w WHERE w.id = p_wallet_id;
  -- The player's one active bonus, found by the player (user_bonuses_one_active).
  RETURN EXISTS (
    SELECT 1 FROM user_bonuses ub
    WHERE ub.user_id = v_wallet.user_id AND ub.status = 'active' AND ub.currency_id = v_wallet.currency_id
      AND (ub.expire_at IS NULL OR ub.expire_at > p_at) AND ub.wagered_amount < ub.amount_to_wager
  );
END
$$;
