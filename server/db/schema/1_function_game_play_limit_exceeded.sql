-- The bet or loss limit a bet of p_amount would take the player past, as its error code
-- (DAILY_BET_LIMIT_EXCEEDED, ..., MONTHLY_LOSS_LIMIT_EXCEEDED; bet limits first, then the shortest window),
-- or null. The limits in force are those set, a pending change counting from its date; each is held against
-- what its window counts in the currency (game_play_limit_counts: net stakes, and net stakes less net wins
-- for a loss limit). game_wallet_play refuses a bet with it; casinoInitGame opens no session once not even the
-- smallest bet fits (server/domain/game-wallet.ts, assertPlayLimitsLeft).
CREATE OR REPLACE FUNCTION game_play_limit_exceeded(p_user_id bigint, p_currency_id integer, p_amount numeric, p_at timestamptz) RETURNS text
LANGUAGE sql STABLE AS $$
  WITH limits AS (
    SELECT l.kind, l.period, CASE WHEN l.pending AND l.pending_effective_at <= p_at THEN l.pending_amount ELSE l.amount END AS amount
    FROM gambling_limits l WHERE l.user_id = p_user_id AND l.kind IN ('bet', 'loss')
  )
  SELECT upper(x.period) || '_' || upper(x.kind) || '_LIMIT_EXCEEDED'
  FROM limits x JOIN game_play_limit_counts(p_user_id, p_currency_id, p_at) c ON c.kind = x.kind AND c.period = x.period
  WHERE x.amount IS NOT NULL AND c.amount + p_amount > x.amount
  ORDER BY x.kind, array_position(ARRAY['daily', 'weekly', 'monthly'], x.period) LIMIT 1;
$$;
