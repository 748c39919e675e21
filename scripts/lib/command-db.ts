import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../server/config.ts';
import { openDb, type Db } from '../../server/db/db.ts';
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from '../../server/db/lock.ts';

/*
 * The server's database for an operator's command run beside it (npm run ledger:check, npm run
 * reconcile): DATABASE_URL when set, else the PGlite folder under DATA_DIR, locked for the command's time,
 * since PGlite lets one process at a time use its folder.
 */

/** Why a command cannot run (no database, its folder in use): the message is for the operator. */
export class CannotRun extends Error {}

/** Exit status of a command that could not run. */
export const EXIT_CANNOT_RUN = 2;

export interface CommandDb {
  db: Db;
  /** Which database, in words. */
  where: string;
  lock: DataDirLock | null;
}

export interface CommandWords {
  /** What to say when DATA_DIR holds no database. */
  missing: (dir: string) => string;
  /** What to say when another process (most likely the server) holds the folder. */
  inUse: (dataDir: string, pid: number) => string;
}

export async function openCommandDb(config: Config, words: CommandWords, maxConnections: number): Promise<CommandDb> {
  if (config.databaseUrl) {
    return { db: await openDb({ kind: 'postgres', url: config.databaseUrl, maxConnections }), where: 'PostgreSQL (DATABASE_URL)', lock: null };
  }
  const dir = join(config.dataDir, 'pglite');
  if (!existsSync(join(dir, 'PG_VERSION'))) throw new CannotRun(words.missing(dir));
  let lock: DataDirLock;
  try {
    lock = acquireDataDirLock(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) throw new CannotRun(words.inUse(config.dataDir, error.pid));
    throw error;
  }
  try {
    return { db: await openDb({ kind: 'pglite', dataDir: dir }), where: `PGlite in ${dir}`, lock };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** Runs a command's `main` and sets its exit status; what stopped it is printed, as `failed` says it unless it is a CannotRun. */
export function runCommand(main: () => Promise<number>, failed: string): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof CannotRun ? error.message : `${failed}: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = EXIT_CANNOT_RUN;
    },
  );
}
