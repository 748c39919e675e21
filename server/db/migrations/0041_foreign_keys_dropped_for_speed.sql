-- The money tables' references that migration 0015 left to the commit-time ledger check or to nothing,
-- held by foreign keys again for every writer, as 0006 and 0010 defined them:
-- - an entry's account, and that it is of the entry's currency: the commit-time check, which the ledger's
--   writer then skipped for the transactions it wrote (a session setting, casino.ledger_balanced_by, now
--   gone), so their entries had no check of their account but the writer's own. Named as the check's
--   refusal was, so a refusal reads as it did;
-- - a round's game and provider, and a wallet call's player: dropped so that no bet took a KEY SHARE lock
--   on the game's or the provider's row, with no figure of what that cost (docs/performance.md has it now).
-- Adding each validates the rows already written.
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_account_currency
  FOREIGN KEY (account_id, currency_id) REFERENCES ledger_accounts (id, currency_id);
ALTER TABLE game_rounds ADD CONSTRAINT game_rounds_provider_id_fkey FOREIGN KEY (provider_id) REFERENCES providers (id);
ALTER TABLE game_rounds ADD CONSTRAINT game_rounds_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id);
ALTER TABLE game_wallet_actions ADD CONSTRAINT game_wallet_actions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id);
