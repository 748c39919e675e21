-- The ledger gets its one writer, ledger_post (server/db/schema/1_function_ledger_post.sql), which computes
-- a posting's request hash itself: the money functions no longer take one from the server, so their
-- signatures change and the old ones go, where a database has them (the schema folder creates the new
-- ones).
DROP FUNCTION IF EXISTS game_wallet_play(text, bigint, bigint, integer, boolean, integer, text, bigint, text, text, text, numeric, text, uuid, text, text,
  text, timestamptz, text, text);
DROP FUNCTION IF EXISTS game_wallet_play_batch(text[], bigint[], bigint[], integer[], boolean[], integer[], text[], bigint[], text[], text[], text[],
  numeric[], text[], uuid[], text[], text[], text[], text[], timestamptz);
-- A withdrawal's hold has one implementation, server/domain/withdrawals.ts posting through ledger_post:
-- the one-statement copy of it goes.
DROP FUNCTION IF EXISTS withdrawal_hold(text, bigint, bigint, integer, text, numeric, numeric, uuid, timestamptz);
