import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from './config.ts';
import { openDb } from './db/db.ts';
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from './db/lock.ts';
import { MIGRATE_AND_SEED, migrate } from './db/migrate.ts';
import { seedReferenceData } from './db/seed.ts';
import { DEMO_PLAYER, ensureDemoPlayer } from './domain/demo.ts';
import { createContext } from './context-factory.ts';
import { buildApp } from './app.ts';
import { startReconciliation } from './domain/reconcile.ts';
import type { Db } from './db/db.ts';

type App = Awaited<ReturnType<typeof buildApp>>;

/**
 * Stopping (SIGTERM, SIGINT, SIGHUP, or the end of the process that started it) is handled from the first
 * moment, whatever the start has reached: a signal during migrations or seeding closes what is open, releases
 * the data folder and exits 0, instead of the process dying by the signal with the folder still locked.
 */
let closing = false;
let lock: DataDirLock | null = null;
let db: Db | null = null;
let app: App | null = null;
let drainMs = 0;
let reconciliation: { stop: () => Promise<void> } | null = null;

async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  console.log(`${signal}: shutting down`);
  try {
    await reconciliation?.stop();
    // No new connection is taken; the requests taken finish first (a house round's wallet calls reach
    // this server), at most SHUTDOWN_DRAIN_SECONDS.
    if (app && !(await app.drain(drainMs))) console.warn(`requests still running after ${drainMs / 1000} s: closing anyway`);
    await app?.close();
    await db?.close();
  } catch (error) {
    console.error(error);
  } finally {
    lock?.release();
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// The terminal it ran in was closed.
process.on('SIGHUP', () => void shutdown('SIGHUP'));
// Started by `npm start` (scripts/start.mjs), the server has an IPC channel to that process: the channel
// closes when that process is gone, however it went (killed outright included), and the server stops with it
// rather than outlive it.
if (process.send) process.on('disconnect', () => void shutdown('parent process gone'));

async function main(): Promise<void> {
  const config = loadConfig();
  drainMs = config.shutdownDrainSeconds * 1000;
  try {
    lock = acquireDataDirLock(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const database = config.databaseUrl
    ? await openDb({ kind: 'postgres', url: config.databaseUrl })
    : await openDb({ kind: 'pglite', dataDir: join(config.dataDir, 'pglite') });
  db = database;
  // A stop asked for meanwhile is under way: the start goes no further.
  if (closing) return;
  // Servers starting at once on one database take turns: the first migrates and seeds, the others find it done.
  const demoCreated = await database.exclusively(MIGRATE_AND_SEED, async () => {
    await migrate(database);
    if (closing) return false;
    await seedReferenceData(database);
    if (closing) return false;
    return config.simulator ? await ensureDemoPlayer(database, config.passwordHashing) : false;
  });
  if (closing) return;

  const ctx = createContext(config, database);
  // The built SPA: dist/, or SPA_DIR (a build made elsewhere with `vite build --outDir`).
  const spaDir = resolve(process.env.SPA_DIR ?? join(process.cwd(), 'dist'));
  const server = await buildApp(ctx, {
    logger: { level: config.logLevel },
    ...(existsSync(join(spaDir, 'index.html')) ? { spaDir } : {}),
  });
  app = server;
  if (closing) return;

  await server.listen({ port: config.port, host: config.host });
  // Withdrawals left pending without news are asked about at the provider (RECONCILE_INTERVAL_SECONDS).
  if (config.reconcileIntervalSeconds > 0) {
    reconciliation = startReconciliation(ctx, config.reconcileIntervalSeconds * 1000, (message, error) => {
      if (error === undefined) console.log(message);
      else console.warn(message, error instanceof Error ? error.message : error);
    });
  }
  const where = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${join(config.dataDir, 'pglite')}`;
  console.log(`Casino running at http://localhost:${config.port} (API at /api/v1, database: ${where})`);
  if (config.simulator) {
    console.log(`Simulator mode is on (/api/v1/dev/*). Demo player: ${DEMO_PLAYER.email} / ${DEMO_PLAYER.password}`);
    if (demoCreated) console.log('The demo player was created on this start.');
  }
}

main().catch((error: unknown) => {
  // A start cut short by a stop fails on the database it was using: the stop decides the exit.
  if (closing) return;
  console.error(error);
  process.exit(1);
});
