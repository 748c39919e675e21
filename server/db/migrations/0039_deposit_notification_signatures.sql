-- A deposit notification has one implementation, deposit_notification_apply (server/db/schema), which does
-- every case (replays, refusals, the deposit-limit hold, the deposit bonus), reads the confirmations
-- required itself and takes its notifications as a set (a batch is the same function): its signature
-- changes, and the old ones and the batch's go where a database has them (the schema folder creates the
-- new one).
DROP FUNCTION IF EXISTS deposit_notification_apply_batch(text, text[], text[], text[], numeric[], integer[], integer[], uuid[], text, text[], text[],
  text[], timestamptz);
DROP FUNCTION IF EXISTS deposit_notification_apply_batch(text, text[], text[], text[], numeric[], integer[], text, text, text[], timestamptz);
DROP FUNCTION IF EXISTS deposit_notification_apply(text, text, text, text, numeric, integer, integer, uuid, text, text, text, text, timestamptz);
DROP FUNCTION IF EXISTS deposit_notification_apply(text, text, text, text, numeric, integer, text, text, text, timestamptz);
