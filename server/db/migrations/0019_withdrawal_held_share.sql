-- The part of a withdrawal's amount + fee taken from the wallet's held balance (deposits over a deposit
-- limit, migration 0018) rather than from available. A withdrawal that fails or is refused gives that
-- part back to held and only the rest to available, so held money never becomes playable through a
-- payout that did not happen. Withdrawals made before this took nothing from held that was recorded: 0.
ALTER TABLE withdrawals ADD COLUMN held_amount NUMERIC(30,8) NOT NULL DEFAULT 0 CHECK (held_amount >= 0 AND held_amount <= amount + fee);
