-- Applies a change of active games per group (a jsonb array of {provider_id, category_id,
-- sub_category_id, devices, games}, games being what is added, negative for what is removed). A group
-- brought to zero is deleted, so a provider or category can be deleted once its games are. A removal
-- from a group that is not there means the table no longer matches games: refused, not skipped.
-- Transactions that change games take turns on game_counts until they commit (the lock conflicts
-- with itself, not with readers): two writers locking groups in different statements would otherwise
-- deadlock on them. The catalogue changes rarely, and listings never wait.
CREATE OR REPLACE FUNCTION game_counts_apply(delta jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  g record;
  remaining integer;
BEGIN
  IF delta IS NULL THEN
    RETURN;
  END IF;
  LOCK TABLE game_counts IN SHARE ROW EXCLUSIVE MODE;
  FOR g IN
    SELECT * FROM jsonb_to_recordset(delta) AS d(provider_id integer, category_id integer, sub_category_id integer, devices text[], games integer)
    WHERE d.games <> 0
    ORDER BY d.provider_id, d.category_id, d.sub_category_id, d.devices
  LOOP
    IF g.games > 0 THEN
      INSERT INTO game_counts AS c (provider_id, category_id, sub_category_id, devices, games)
      VALUES (g.provider_id, g.category_id, g.sub_category_id, g.devices, g.games)
      ON CONFLICT (provider_id, category_id, sub_category_id, devices) DO UPDATE SET games = c.games + excluded.games;
    ELSE
      UPDATE game_counts c SET games = c.games + g.games
      WHERE c.provider_id = g.provider_id AND c.category_id = g.category_id
        AND c.sub_category_id = g.sub_category_id AND c.devices = g.devices
      RETURNING c.games INTO remaining;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'game_counts does not match games: no group (%, %, %, %)',
          g.provider_id, g.category_id, g.sub_category_id, g.devices;
      END IF;
      IF remaining = 0 THEN
        DELETE FROM game_counts c
        WHERE c.provider_id = g.provider_id AND c.category_id = g.category_id
          AND c.sub_category_id = g.sub_category_id AND c.devices = g.devices;
      END IF;
    END IF;
  END LOOP;
END;
$$;
