-- Wins bounded by their round's stake. A game provider's key lets it pay any win, so a provider (or its
-- key, stolen) could report a 10001 win on a 0.001 bet; the per-call maximum (ProviderAmount) does not
-- stop that. Each provider now has a largest multiplier of a round's stake its wins may add up to
-- (server/domain/game-wallet.ts refuses a win past it: 400, field `amount`, code `amount.max`; the
-- one-statement win of migration 0023 leaves such a win to it). The default, 1,000,000, is the largest
-- any house game pays (Limbo's top result); an operator sets each outside provider's from its games'
-- published maximum win. Free-spin rounds have no stake: their wins
-- are bounded by the per-call maximum alone.
ALTER TABLE providers ADD COLUMN max_win_multiplier NUMERIC(12,2) NOT NULL DEFAULT 1000000 CHECK (max_win_multiplier >= 1);
