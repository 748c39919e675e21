-- What each bet and loss limit window of a player counts in a currency up to p_at, one row a kind ('bet',
-- 'loss') and period ('daily', 'weekly', 'monthly': the rolling 24, 168 and 720 hours): for a bet limit the
-- net stakes (bets less rolled-back bets), for a loss limit the net stakes less the net wins (wins and free
-- spins less rolled-back wins), below zero when the player is ahead. game_play_limit_exceeded holds the
-- limits against it; the limits' usage the player is shown is it too (server/domain/limits.ts, limitUsage).
CREATE OR REPLACE FUNCTION game_play_limit_counts(p_user_id bigint, p_currency_id integer, p_at timestamptz)
RETURNS TABLE (kind text, period text, amount numeric)
LANGUAGE sql STABLE AS $$
  WITH sums AS (
    SELECT
      coalesce(sum(CASE a.action WHEN 'bet' THEN a.amount WHEN 'rollbackBet' THEN -a.amount ELSE 0 END) FILTER (WHERE a.created_at > p_at - interval '24 hours'), 0) AS bets_daily,
      coalesce(sum(CASE a.action WHEN 'bet' THEN a.amount WHEN 'rollbackBet' THEN -a.amount ELSE 0 END) FILTER (WHERE a.created_at > p_at - interval '168 hours'), 0) AS bets_weekly,
      coalesce(sum(CASE a.action WHEN 'bet' THEN a.amount WHEN 'rollbackBet' THEN -a.amount ELSE 0 END), 0) AS bets_monthly,
      coalesce(sum(CASE a.action WHEN 'win' THEN a.amount WHEN 'freeSpin' THEN a.amount WHEN 'rollbackWin' THEN -a.amount ELSE 0 END)
        FILTER (WHERE a.created_at > p_at - interval '24 hours'), 0) AS wins_daily,
      coalesce(sum(CASE a.action WHEN 'win' THEN a.amount WHEN 'freeSpin' THEN a.amount WHEN 'rollbackWin' THEN -a.amount ELSE 0 END)
        FILTER (WHERE a.created_at > p_at - interval '168 hours'), 0) AS wins_weekly,
      coalesce(sum(CASE a.action WHEN 'win' THEN a.amount WHEN 'freeSpin' THEN a.amount WHEN 'rollbackWin' THEN -a.amount ELSE 0 END), 0) AS wins_monthly
    FROM game_wallet_actions a JOIN game_rounds r ON r.id = a.round_pk
    WHERE a.user_id = p_user_id AND r.currency_id = p_currency_id AND a.created_at > p_at - interval '720 hours'
  )
  SELECT w.kind, w.period, w.amount
  FROM sums s CROSS JOIN LATERAL (VALUES
    ('bet', 'daily', s.bets_daily), ('bet', 'weekly', s.bets_weekly), ('bet', 'monthly', s.bets_monthly),
    ('loss', 'daily', s.bets_daily - s.wins_daily), ('loss', 'weekly', s.bets_weekly - s.wins_weekly),
    ('loss', 'monthly', s.bets_monthly - s.wins_monthly)
  ) w(kind, period, amount);
$$;
