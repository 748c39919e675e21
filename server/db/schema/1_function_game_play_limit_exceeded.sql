-- The bet or loss limit a bet of p_amount would take the player past, as its error code
-- (DAILY_BET_LIMIT_EXCEEDED, ..., MONTHLY_LOSS_LIMIT_EXCEEDED; bet limits first, then the shortest window),
-- or null. The limits in force are those set, a pending change counting from its date; they are held
-- against the player's net stakes (bets less rolled-back bets) and, for a loss limit, net stakes less net
-- wins (wins and free spins less rolled-back wins) of the rolling 24 hours, 168 hours and 720 hours, in the
-- currency. game_wallet_play refuses a bet with it; casinoInitGame opens no session once not even the
-- smallest bet fits (server/domain/game-wallet.ts, assertPlayLimitsLeft).
CREATE OR REPLACE FUNCTION game_play_limit_exceeded(p_user_id bigint, p_currency_id integer, p_amount numeric, p_at timestamptz) RETURNS text
LANGUAGE sql STABLE AS $$
  WITH limits AS (
    SELECT l.kind, l.period, CASE WHEN l.pending AND l.pending_effective_at <= p_at THEN l.pending_amount ELSE l.amount END AS amount
    FROM gambling_limits l WHERE l.user_id = p_user_id AND l.kind IN ('bet', 'loss')
  ), sums AS (
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
  SELECT upper(x.period) || '_' || CASE x.kind WHEN 'bet' THEN 'BET' ELSE 'LOSS' END || '_LIMIT_EXCEEDED'
  FROM limits x CROSS JOIN sums s
  WHERE x.amount IS NOT NULL AND CASE x.period
    WHEN 'daily' THEN CASE x.kind WHEN 'bet' THEN s.bets_daily ELSE s.bets_daily - s.wins_daily END
    WHEN 'weekly' THEN CASE x.kind WHEN 'bet' THEN s.bets_weekly ELSE s.bets_weekly - s.wins_weekly END
    ELSE CASE x.kind WHEN 'bet' THEN s.bets_monthly ELSE s.bets_monthly - s.wins_monthly END
  END + p_amount > x.amount
  ORDER BY x.kind, array_position(ARRAY['daily', 'weekly', 'monthly'], x.period) LIMIT 1;
$$;
