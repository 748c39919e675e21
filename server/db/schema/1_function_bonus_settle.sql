-- The lazy rules of a player's bonuses (server/domain/bonuses.ts; bonus_record_wagering, bonus_apply_deposit):
-- the active bonus expires once p_at reaches its expire_at (bonus_end), then queued bonuses activate, oldest
-- first, while none is active (bonus_activate). Returns the active bonus's id afterwards, or null.
-- Locks: a bonus row changes only while its wallet row is locked. With p_wallet_id, the caller (a bet, a
-- credited deposit) holds that wallet's lock and only bonuses of that wallet are ended or activated: an active
-- bonus of another wallet is returned as it is, and a queued one of another wallet at the head of the queue
-- waits for the next touch. With p_wallet_id null every wallet of the player is locked here first, in id order
-- (the order every player request takes them in), and all the player's bonuses are in scope.
CREATE OR REPLACE FUNCTION bonus_settle(p_user_id bigint, p_at timestamptz, p_wallet_id bigint) RETURNS bigint
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds each row by its key once they have grown (tests/server/batch-plans.test.ts reads the plans).
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_row record;
BEGIN
  IF p_wallet_id IS NULL THEN
    PERFORM 1 FROM wallets w WHERE w.user_id = p_user_id ORDER BY w.id FOR UPDATE;
  END IF;
  LOOP
    SELECT ub.id, ub.wallet_id, ub.expire_at INTO v_row FROM user_bonuses ub WHERE ub.user_id = p_user_id AND ub.status = 'active' FOR UPDATE;
    IF FOUND THEN
      IF v_row.expire_at <= p_at AND (p_wallet_id IS NULL OR v_row.wallet_id = p_wallet_id) THEN
        PERFORM bonus_end(v_row.id, 'expired', p_at);
        CONTINUE;
      END IF;
      RETURN v_row.id;
    END IF;
    SELECT ub.id, ub.wallet_id INTO v_row FROM user_bonuses ub WHERE ub.user_id = p_user_id AND ub.status = 'queued' ORDER BY ub.id LIMIT 1 FOR UPDATE;
    IF NOT FOUND OR (p_wallet_id IS NOT NULL AND v_row.wallet_id <> p_wallet_id) THEN
      RETURN NULL;
    END IF;
    PERFORM bonus_activate(v_row.id, p_at);
  END LOOP;
END
$$;
