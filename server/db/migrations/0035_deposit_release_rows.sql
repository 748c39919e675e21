-- Held deposit money released to the available balance as the deposit limits allow (server/domain/
-- held-deposits.ts) is a row of the player's transaction list, as every movement of available is: type
-- `deposit`, action type `depositRelease`. The checks of 0006 on action_type, and on which action types
-- go with which type, admit it.
ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_action_type_check;
ALTER TABLE ledger_transactions ADD CONSTRAINT ledger_transactions_action_type_check CHECK (action_type IN ('deposit', 'depositRelease',
  'withdraw', 'withdrawFee', 'withdrawRefund', 'bet', 'win', 'freeSpin', 'rollbackBet', 'rollbackWin', 'bonus', 'bonusForfeit',
  'bonusConversion', 'referral'));
ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_check2;
ALTER TABLE ledger_transactions ADD CONSTRAINT ledger_transactions_action_of_type CHECK (
  type IS NULL
  OR (type = 'deposit' AND action_type IN ('deposit', 'depositRelease'))
  OR (type = 'withdraw' AND action_type IN ('withdraw', 'withdrawFee', 'withdrawRefund'))
  OR (type = 'casino' AND action_type IN ('bet', 'win', 'freeSpin', 'rollbackBet', 'rollbackWin'))
  OR (type = 'bonus' AND action_type IN ('bonus', 'bonusForfeit', 'bonusConversion'))
  OR (type = 'referral' AND action_type = 'referral')
);
