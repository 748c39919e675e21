-- A deposit notification has one implementation, deposit_notification_apply (server/db/schema), which now
-- does every case (replays, refusals, the deposit-limit hold, the deposit bonus) and reads the
-- confirmations required itself: its signature and its batch's change, and the old ones go where a
-- database has them (the schema folder creates the new ones).
DROP FUNCTION IF EXISTS deposit_notification_apply_batch(text, text[], text[], text[], numeric[], integer[], integer[], uuid[], text, text[], text[],
  text[], timestamptz);
DROP FUNCTION IF EXISTS deposit_notification_apply(text, text, text, text, numeric, integer, integer, uuid, text, text, text, text, timestamptz);
