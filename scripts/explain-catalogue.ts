/**
 * The PostgreSQL plans of the catalogue listing (listGames) at 10,000 games: every statement a page and
 * a search send, run through EXPLAIN (ANALYZE, BUFFERS) as listGames builds it, with a warm cache.
 * A script, not a test: it prints plans and asserts nothing.
 *
 *   npx tsx scripts/explain-catalogue.ts [--games 10000]
 *
 * Uses DATABASE_URL when set (a database it may migrate and seed), else starts a throwaway PostgreSQL
 * from the installed binaries (scripts/lib/postgres.mjs).
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDb, type Queryable } from '../server/db/db.ts';
import { migrate } from '../server/db/migrate.ts';
import { seedGames, seedReferenceData } from '../server/db/seed.ts';
import { listGames, type ListGamesOptions } from '../server/domain/casino.ts';
import { settleVisibility } from './lib/visibility.ts';
// @ts-expect-error plain JavaScript helper shared with the test runner
import { startPostgres } from './lib/postgres.mjs';

const { values } = parseArgs({ options: { games: { type: 'string', default: '10000' } } });
const GAMES = Number(values.games);

/** Runs each statement once as asked (so the cache is warm), then prints its plan with what it cost. */
function explaining(db: Queryable, plans: string[]): Queryable {
  return {
    async query<T extends object>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
      const rows = await db.query<T>(sql, params);
      const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
      plans.push(`${sql.replace(/\s+/g, ' ').trim()}\n  params: ${JSON.stringify(params)}\n${plan.map((r) => r['QUERY PLAN']).join('\n')}`);
      return rows;
    },
  };
}

async function main(): Promise<void> {
  let server: { url: string; stop: () => void } | null = null;
  let url = process.env.DATABASE_URL;
  if (!url) {
    server = (await startPostgres({ durable: false })) as { url: string; stop: () => void };
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE casino_explain');
    await admin.end();
    const target = new URL(server.url);
    target.pathname = '/casino_explain';
    url = target.toString();
  }
  const db = await openDb({ kind: 'postgres', url, maxConnections: 2 });
  try {
    await migrate(db);
    await seedReferenceData(db);
    const { total } = await seedGames(db, GAMES);
    // Every page all-visible, as autovacuum leaves a table at rest.
    const version = (await db.query<{ server_version: string }>('SHOW server_version'))[0]?.server_version;
    console.log(`PostgreSQL ${version}, ${total} games`);
    console.log(`Visibility map: ${await settleVisibility(db)}\n`);
    const cases: [string, ListGamesOptions][] = [
      ['first page of 24', { page: 1, limit: 24 }],
      ['page 200 of 24 (offset 4,776)', { page: 200, limit: 24 }],
      ['category 1 (slots) on mobile, page 100 (offset 2,376)', { page: 100, limit: 24, categoryId: 1, device: 'mobile' }],
      ['search "star", first page', { page: 1, limit: 24, search: 'star' }],
      ['search "dragon", page 2', { page: 2, limit: 24, search: 'dragon' }],
      ['search "velvet comet" (a provider), first page', { page: 1, limit: 24, search: 'velvet comet' }],
      ['with provider 1 inactive, page 200', { page: 200, limit: 24 }],
    ];
    for (const [name, options] of cases) {
      if (name.startsWith('with provider 1 inactive')) await db.query('UPDATE providers SET active = false WHERE id = 1');
      await listGames(db, options);
      const plans: string[] = [];
      const page = await listGames(explaining(db, plans), options);
      console.log(`=== ${name}: ${page.rows.length} rows, count ${page.count}, ${plans.length} statement(s)\n`);
      for (const plan of plans) console.log(`${plan}\n`);
    }
  } finally {
    await db.close();
    server?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
