-- How much more a player may deposit now in a currency before a deposit limit window is full, or null when
-- no deposit limit is set. The limits in force are those set, a pending change counting from its date (as
-- game_play_limit_exceeded reads the bet and loss limits), each held against what its window counts
-- (deposit_limit_counts). Deposit limits are kept in one currency (LIMITS_CURRENCY, server/domain/held-deposits.ts):
-- the callers ask for that currency only. The address request refuses an amount over it;
-- deposit_notification_apply holds the part of a credit over it; deposit_release_held releases held money as
-- far as it allows.
CREATE OR REPLACE FUNCTION deposit_limit_room(p_user_id bigint, p_currency_id integer, p_at timestamptz) RETURNS numeric
LANGUAGE sql STABLE AS $$
  SELECT min(greatest(l.amount - c.amount, 0))
  FROM (SELECT g.period, CASE WHEN g.pending AND g.pending_effective_at <= p_at THEN g.pending_amount ELSE g.amount END AS amount
    FROM gambling_limits g WHERE g.user_id = p_user_id AND g.kind = 'deposit') l
  JOIN deposit_limit_counts(p_user_id, p_currency_id, p_at) c ON c.period = l.period
  WHERE l.amount IS NOT NULL;
$$;
