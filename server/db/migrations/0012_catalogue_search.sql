-- The catalogue listing at tens of thousands of games: a name search is an index lookup (trigrams), and
-- a page's total comes from a small table of counts kept by triggers instead of a count(*) over games.

-- Trigram indexes answer LIKE '%text%' (and prefixes) from the index; the rows it proposes are checked
-- against the pattern, so the results are exact. PGlite loads the extension in server/db/db.ts;
-- pg_trgm is a trusted extension on PostgreSQL (13+), so the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Only active games are ever searched. Replaces the prefix-only index, which no query uses.
CREATE INDEX games_search_trgm ON games USING gin (search_name gin_trgm_ops) WHERE active;
DROP INDEX games_search_name;

-- The listing's indexes carry the provider too, so that a page with an inactive provider left out is
-- still an index-only scan however deep: the filter reads the index entry, not the game's row, for
-- every entry the page skips. (The devices would double the entries' size for a filter the app does
-- not send: a page filtered by device reads the rows it skips.)
DROP INDEX games_listing;
DROP INDEX games_category_listing;
DROP INDEX games_sub_category_listing;
CREATE INDEX games_listing ON games (sort_order, name, id) INCLUDE (provider_id) WHERE active;
CREATE INDEX games_category_listing ON games (category_id, sort_order, name, id) INCLUDE (provider_id) WHERE active;
CREATE INDEX games_sub_category_listing ON games (sub_category_id, sort_order, name, id) INCLUDE (provider_id) WHERE active;

-- Active games per combination of the listing's filters (provider, category, sub-category, devices):
-- a few hundred rows at most however large the catalogue, so the total of any filtered listing is a
-- sum over this table, and inactive providers are left out by id when summing. Kept by the statement
-- triggers below in the same transaction as the change to games, so it is exact at every snapshot.
CREATE TABLE game_counts (
  provider_id integer NOT NULL,
  category_id integer NOT NULL,
  -- 0 for games without a sub-category (a key column cannot be null for ON CONFLICT to find it).
  sub_category_id integer NOT NULL,
  devices text[] NOT NULL,
  games integer NOT NULL CHECK (games >= 0),
  PRIMARY KEY (provider_id, category_id, sub_category_id, devices)
);

-- Applies a change of active games per group (a jsonb array of {provider_id, category_id,
-- sub_category_id, devices, games}, games being what is added, negative for what is removed). A group
-- brought to zero is deleted, so a provider or category can be deleted once its games are. A removal
-- from a group that is not there means the table no longer matches games: refused, not skipped.
-- Transactions that change games take turns on game_counts until they commit (the lock conflicts
-- with itself, not with readers): two writers locking groups in different statements would otherwise
-- deadlock on them. The catalogue changes rarely, and listings never wait.
CREATE FUNCTION game_counts_apply(delta jsonb) RETURNS void LANGUAGE plpgsql AS $$
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

CREATE FUNCTION game_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM game_counts_apply((
    SELECT jsonb_agg(x) FROM (
      SELECT provider_id, category_id, coalesce(sub_category_id, 0) AS sub_category_id, devices, count(*) AS games
      FROM new_games WHERE active GROUP BY 1, 2, 3, 4
    ) x));
  RETURN NULL;
END;
$$;

CREATE FUNCTION game_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM game_counts_apply((
    SELECT jsonb_agg(x) FROM (
      SELECT provider_id, category_id, coalesce(sub_category_id, 0) AS sub_category_id, devices, -count(*) AS games
      FROM old_games WHERE active GROUP BY 1, 2, 3, 4
    ) x));
  RETURN NULL;
END;
$$;

CREATE FUNCTION game_counts_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM game_counts_apply((
    SELECT jsonb_agg(x) FROM (
      SELECT provider_id, category_id, sub_category_id, devices, sum(games) AS games FROM (
        SELECT provider_id, category_id, coalesce(sub_category_id, 0) AS sub_category_id, devices, 1 AS games
        FROM new_games WHERE active
        UNION ALL
        SELECT provider_id, category_id, coalesce(sub_category_id, 0), devices, -1
        FROM old_games WHERE active
      ) moved GROUP BY 1, 2, 3, 4 HAVING sum(games) <> 0
    ) x));
  RETURN NULL;
END;
$$;

CREATE FUNCTION game_counts_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM game_counts;
  RETURN NULL;
END;
$$;

CREATE TRIGGER game_counts_insert AFTER INSERT ON games
  REFERENCING NEW TABLE AS new_games FOR EACH STATEMENT EXECUTE FUNCTION game_counts_after_insert();
CREATE TRIGGER game_counts_delete AFTER DELETE ON games
  REFERENCING OLD TABLE AS old_games FOR EACH STATEMENT EXECUTE FUNCTION game_counts_after_delete();
CREATE TRIGGER game_counts_update AFTER UPDATE ON games
  REFERENCING OLD TABLE AS old_games NEW TABLE AS new_games FOR EACH STATEMENT EXECUTE FUNCTION game_counts_after_update();
CREATE TRIGGER game_counts_truncate AFTER TRUNCATE ON games
  FOR EACH STATEMENT EXECUTE FUNCTION game_counts_after_truncate();

-- The games already there.
INSERT INTO game_counts (provider_id, category_id, sub_category_id, devices, games)
SELECT provider_id, category_id, coalesce(sub_category_id, 0), devices, count(*)
FROM games WHERE active GROUP BY 1, 2, 3, 4;
