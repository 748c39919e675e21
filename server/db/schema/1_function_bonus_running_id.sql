-- The running bonus of a wallet at p_at (game_wallet_play, bonus_money_home): the
-- player's active bonus when it is of this wallet, funded (a deposit offer's once its deposit came) and not
-- past its expire_at. Only a running bonus holds a bonus balance, so a bet paid from the bonus balance paid
-- with its money. Null when the wallet has none.
CREATE OR REPLACE FUNCTION bonus_running_id(p_wallet_id bigint, p_at timestamptz) RETURNS bigint
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_id bigint;
BEGIN
  -- The player's one active bonus, found by the player (user_bonuses_one_active), then checked for the wallet.
  SELECT ub.id INTO v_id FROM user_bonuses ub
  WHERE ub.user_id = (SELECT w.user_id FROM wallets w WHERE w.id = p_wallet_id) AND ub.status = 'active' AND ub.wallet_id = p_wallet_id
    AND (ub.expire_at IS NULL OR ub.expire_at > p_at)
    AND (ub.deposit_id IS NOT NULL OR (SELECT b.type FROM bonuses b WHERE b.id = ub.bonus_id) <> 'deposit');
  RETURN v_id;
END
$$;
