-- Where the money of the bonus that paid part of a round's stake belongs at p_at (game_wallet_play; a round
-- keeps that bonus in game_rounds.user_bonus_id): a round's bonus-paid share, of its stake and of its wins,
-- follows that bonus whatever happens to it while the round is in play:
--   'bonus'      the bonus still runs (bonus_running_id): the wallet's bonus balance;
--   'available'  it completed: its money became available;
--   'pool'       it ended otherwise (forfeited, expired): its money went back to bonus_pool.
-- A round begun before rounds named their bonus passes null: the wallet's running bonus then (bonus_running_id),
-- if any ('bonus'), else 'pool'. An unknown bonus raises SQLSTATE BN001.
CREATE OR REPLACE FUNCTION bonus_money_home(p_user_bonus_id bigint, p_wallet_id bigint, p_at timestamptz) RETURNS text
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_row record;
BEGIN
  IF p_user_bonus_id IS NULL THEN
    RETURN CASE WHEN bonus_running_id(p_wallet_id, p_at) IS NULL THEN 'pool' ELSE 'bonus' END;
  END IF;
  SELECT ub.status INTO v_row FROM user_bonuses ub WHERE ub.id = p_user_bonus_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'bonus % is unknown', p_user_bonus_id USING ERRCODE = 'BN001';
  END IF;
  RETURN CASE
    WHEN v_row.status = 'completed' THEN 'available'
    WHEN p_user_bonus_id = bonus_running_id(p_wallet_id, p_at) THEN 'bonus'
    ELSE 'pool'
  END;
END
$$;
