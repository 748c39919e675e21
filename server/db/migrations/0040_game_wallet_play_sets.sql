-- game_wallet_play takes its calls as a set (server/db/schema/1_function_game_wallet_play.sql): one call is
-- a set of one, a batch the same function. The per-call signature and the batch that applied it call by
-- call go, where a database has them (the schema folder creates the new one).
DROP FUNCTION IF EXISTS game_wallet_play(text, bigint, bigint, integer, boolean, integer, text, bigint, text, text, text, numeric, text, uuid, text, text,
  timestamptz, text, text);
DROP FUNCTION IF EXISTS game_wallet_play_batch(text[], bigint[], bigint[], integer[], boolean[], integer[], text[], bigint[], text[], text[], text[],
  numeric[], text[], uuid[], text[], text[], text[], text[], timestamptz);
