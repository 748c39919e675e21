-- How much more a player may deposit now in a currency before a deposit limit window is full, or null when
-- no deposit limit is set. The limits in force are those set, a pending change counting from its date (as
-- game_play_limit_exceeded reads the bet and loss limits); each rolling window (24, 168 and 720 hours)
-- counts the deposits credited in it less their held part, and the held money released in it. Deposit
-- limits are kept in one currency (LIMITS_CURRENCY, server/domain/held-deposits.ts): the callers ask for
-- that currency only. The address request refuses an amount over it; deposit_notification_apply holds the
-- part of a credit over it; deposit_release_held releases held money as far as it allows.
CREATE OR REPLACE FUNCTION deposit_limit_room(p_user_id bigint, p_currency_id integer, p_at timestamptz) RETURNS numeric
LANGUAGE sql STABLE AS $$
  WITH counted AS (
    SELECT d.amount - d.held_amount AS amount, d.credited_at AS at FROM deposits d
    WHERE d.user_id = p_user_id AND d.status = 'credited' AND d.credited_at > p_at - interval '720 hours' AND d.currency_id = p_currency_id
    UNION ALL
    SELECT r.amount, r.released_at FROM deposit_releases r
    WHERE r.user_id = p_user_id AND r.currency_id = p_currency_id AND r.released_at > p_at - interval '720 hours'
  ), deposited AS (
    SELECT coalesce(sum(c.amount) FILTER (WHERE c.at > p_at - interval '24 hours'), 0) AS daily,
      coalesce(sum(c.amount) FILTER (WHERE c.at > p_at - interval '168 hours'), 0) AS weekly,
      coalesce(sum(c.amount), 0) AS monthly
    FROM counted c
  )
  SELECT min(greatest(l.amount - CASE l.period WHEN 'daily' THEN s.daily WHEN 'weekly' THEN s.weekly ELSE s.monthly END, 0))
  FROM (SELECT g.period, CASE WHEN g.pending AND g.pending_effective_at <= p_at THEN g.pending_amount ELSE g.amount END AS amount
    FROM gambling_limits g WHERE g.user_id = p_user_id AND g.kind = 'deposit') l CROSS JOIN deposited s
  WHERE l.amount IS NOT NULL;
$$;
