-- What each deposit limit window of a player counts in a currency up to p_at, one row a period ('daily',
-- 'weekly', 'monthly': the rolling 24, 168 and 720 hours): the deposits credited in it less their held part,
-- and the held money released in it. deposit_limit_room holds the deposit limits against it; the limits'
-- usage the player is shown is it too (server/domain/limits.ts, limitUsage).
CREATE OR REPLACE FUNCTION deposit_limit_counts(p_user_id bigint, p_currency_id integer, p_at timestamptz)
RETURNS TABLE (period text, amount numeric)
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
  SELECT w.period, w.amount
  FROM deposited s CROSS JOIN LATERAL (VALUES ('daily', s.daily), ('weekly', s.weekly), ('monthly', s.monthly)) w(period, amount);
$$;
