-- Withdrawals the reconciliation (server/domain/reconcile.ts) cannot settle safely by itself: the provider
-- knows no payout of the spend request, yet refused to confirm it again, which a provider may also answer
-- for a spend it has already confirmed. Refunding then could pay the player twice, so the funds stay in
-- pending and the withdrawal waits for an operator, who checks the provider's records and settles it with
-- `npm run reconcile -- --settle ID --outcome sent|failed`. The reconciliation passes over such rows.
ALTER TABLE withdrawals ADD COLUMN review_reason text CHECK (char_length(review_reason) BETWEEN 1 AND 500);
ALTER TABLE withdrawals ADD COLUMN review_since timestamptz;
ALTER TABLE withdrawals ADD CONSTRAINT withdrawals_review CHECK ((review_reason IS NULL) = (review_since IS NULL));
