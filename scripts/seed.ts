/**
 * Seeds the database the server uses: migrations, reference data, then grows the game catalogue.
 *
 *   npm run seed -- --games 10000 [--seed 20240601]
 *   npx tsx scripts/seed.ts --games 10000
 *
 * Uses DATABASE_URL when set, else the PGlite folder under DATA_DIR (default .data), and takes the data
 * folder's lock like the server does, so it refuses to run while a server has the folder open.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { openDb, type DbOptions } from '../server/db/db.ts';
import { acquireDataDirLock } from '../server/db/lock.ts';
import { MIGRATE_AND_SEED, migrate } from '../server/db/migrate.ts';
import { DEFAULT_CATALOGUE_SEED, REFERENCE_GAME_COUNT, seedGames, seedReferenceData } from '../server/db/seed.ts';
import { settleVisibility } from './lib/visibility.ts';

const USAGE = 'Usage: npm run seed -- [--games N] [--seed S]\n' +
  `  --games N  grow the catalogue to at least N games (default ${REFERENCE_GAME_COUNT}; never removes games)\n` +
  `  --seed S   PRNG seed of the generated games (default ${DEFAULT_CATALOGUE_SEED})`;

function nonNegativeInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new Error(`--${name} must be a non-negative integer, got "${value}"`);
  }
  return Number(value);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      games: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const games = nonNegativeInt('games', values.games, REFERENCE_GAME_COUNT);
  const seed = nonNegativeInt('seed', values.seed, DEFAULT_CATALOGUE_SEED);

  const config = loadConfig();
  const options: DbOptions = config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: join(config.dataDir, 'pglite') };
  const lock = acquireDataDirLock(config.dataDir);
  const started = performance.now();
  const db = await openDb(options);
  try {
    console.log(options.kind === 'postgres' ? 'Database: PostgreSQL (DATABASE_URL)' : `Database: PGlite in ${options.dataDir}`);
    // One at a time with servers starting on the same database.
    await db.exclusively(MIGRATE_AND_SEED, async () => {
      let t = performance.now();
      const applied = await migrate(db);
      const numbered = applied.filter((name) => !name.startsWith('schema/'));
      const schemaFiles = applied.length - numbered.length;
      const done = [...numbered, ...(schemaFiles > 0 ? [`${schemaFiles} file${schemaFiles === 1 ? '' : 's'} of server/db/schema`] : [])];
      console.log(`Migrations: ${done.length === 0 ? 'up to date' : `applied ${done.join(', ')}`} (${ms(t)})`);
      t = performance.now();
      await seedReferenceData(db);
      console.log(`Reference data: settings, languages, currencies, pages, banners, countries, payment providers, catalogue (${ms(t)})`);
      t = performance.now();
      const result = await seedGames(db, games, { seed });
      console.log(`Games: ${result.inserted} added, ${result.total} in the catalogue (${ms(t)})`);
      if (result.inserted > 0) console.log(`Visibility map: ${await settleVisibility(db)}`);
    });
    console.log(`Done in ${ms(started)}.`);
  } finally {
    await db.close();
    lock.release();
  }
}

function ms(since: number): string {
  const elapsed = performance.now() - since;
  return elapsed < 1000 ? `${elapsed.toFixed(0)} ms` : `${(elapsed / 1000).toFixed(2)} s`;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  if (error instanceof TypeError && /Unknown option|Unexpected argument/i.test(error.message)) console.error(USAGE);
  process.exitCode = 1;
});
