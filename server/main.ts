import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from './config.ts';
import { openDb } from './db/db.ts';
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from './db/lock.ts';
import { migrate } from './db/migrate.ts';
import { seedReferenceData } from './db/seed.ts';
import { DEMO_PLAYER, ensureDemoPlayer } from './domain/demo.ts';
import { createContext } from './context-factory.ts';
import { buildApp } from './app.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  let lock: DataDirLock | null = null;
  try {
    lock = acquireDataDirLock(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const db = config.databaseUrl
    ? await openDb({ kind: 'postgres', url: config.databaseUrl })
    : await openDb({ kind: 'pglite', dataDir: join(config.dataDir, 'pglite') });
  await migrate(db);
  await seedReferenceData(db);
  const demoCreated = config.simulator ? await ensureDemoPlayer(db) : false;

  const ctx = createContext(config, db);
  const spaDir = join(process.cwd(), 'dist');
  const app = await buildApp(ctx, {
    logger: { level: config.logLevel },
    ...(existsSync(join(spaDir, 'index.html')) ? { spaDir } : {}),
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: shutting down`);
    await app.close();
    await db.close();
    lock?.release();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${join(config.dataDir, 'pglite')}`;
  console.log(`Casino running at http://localhost:${config.port} (API at /api/v1, database: ${where})`);
  if (config.simulator) {
    console.log(`Simulator mode is on (/api/v1/dev/*). Demo player: ${DEMO_PLAYER.email} / ${DEMO_PLAYER.password}`);
    if (demoCreated) console.log('The demo player was created on this start.');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
