import type { Db } from '../../server/db/db.ts';

/**
 * The listing's deep pages skip thousands of index entries, which costs nothing when the pages of games
 * are all-visible (an index-only scan) and a heap visit per entry when not. seedGames vacuums after the
 * load, but on PostgreSQL an autovacuum worker analysing the reference tables just seeded may hold a
 * snapshot older than the load at that moment, and VACUUM then leaves the new pages unmarked until
 * autovacuum comes back (which a freshly vacuumed table does not ask for). Vacuum again, a few times at
 * most, until every page is all-visible.
 */
export async function settleVisibility(db: Db): Promise<string> {
  const pages = async () =>
    (await db.query<{ relpages: number; relallvisible: number }>(`SELECT relpages, relallvisible FROM pg_class WHERE relname = 'games'`))[0] ?? {
      relpages: 0,
      relallvisible: 0,
    };
  let state = await pages();
  for (let attempt = 0; attempt < 5 && state.relallvisible < state.relpages; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    await db.exec('VACUUM games');
    state = await pages();
  }
  return `${state.relallvisible} of ${state.relpages} pages of games all-visible`;
}
