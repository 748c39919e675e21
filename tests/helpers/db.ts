import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { one, openDb, type Db, type Queryable, type QueryOptions } from '../../server/db/db.ts';
import { migrate } from '../../server/db/migrate.ts';
import { seedReferenceData } from '../../server/db/seed.ts';

/**
 * Test databases. By default PGlite: a migrated, seeded data folder is built once per run (the global
 * setup, tests/setup/global.ts), read once per worker and loaded per call, since initialising and
 * migrating a fresh PGlite takes seconds and loading one half a second. With TEST_DATABASE_URL set
 * (npm test sets it for its PostgreSQL pass), each call gets a new database copied from a template there.
 */
export const TEMPLATE_DATABASE = 'casino_test_template';

/** A PGlite database, whose data folder can be dumped (the server never needs to ask). */
export function isPGlite(db: Db): db is Db & { dump(): Promise<Blob> } {
  return db.kind === 'pglite' && 'dump' in db;
}

/** A notification for the player, the row notifyPlayer writes (server/domain/notifications.ts), and its id. */
export async function addNotification(db: Queryable, userId: number, title: string, message: string): Promise<{ id: number }> {
  return one<{ id: number }>(db, 'INSERT INTO user_notifications (user_id, title, message) VALUES ($1, $2, $3) RETURNING id', [userId, title, message]);
}

/** The tarball of a migrated, seeded PGlite data folder. */
/** The name of the template's dump in a run's folder (tests/setup/global.ts). */
export const PGLITE_TEMPLATE_FILE = 'pglite-template.tar';

export async function buildPGliteTemplate(): Promise<Uint8Array<ArrayBuffer>> {
  const db = await openDb({ kind: 'pglite' });
  await migrate(db);
  await seedReferenceData(db);
  if (!isPGlite(db)) throw new Error('template must be PGlite');
  // A dump is of a running database: each load recovers it from its last checkpoint. Taken here, there is
  // next to nothing to replay (a load took 0.98 s of CPU, 0.76 s after the checkpoint, on 2026-12-04).
  await db.query('CHECKPOINT');
  const blob = await db.dump();
  await db.close();
  return new Uint8Array(await blob.arrayBuffer());
}

let template: Promise<Blob> | undefined;

/** The run's template when the global setup made one (the server project), else one built here. */
async function loadTemplate(): Promise<Blob> {
  const file = inject('pgliteTemplate');
  return new Blob([file ? new Uint8Array(readFileSync(file)) : await buildPGliteTemplate()]);
}

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates the PostgreSQL template database (vitest global setup, once per run). */
export async function preparePostgresTemplate(adminUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE}`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const db = await openDb({ kind: 'postgres', url: databaseUrl(adminUrl, TEMPLATE_DATABASE), maxConnections: 2 });
  await migrate(db);
  await seedReferenceData(db);
  await db.close();
}

const urls = new WeakMap<Db, string>();

/**
 * The same test database through connections of another server's own: on PostgreSQL a second pool (as a
 * second server instance has); PGlite is one process's, so its instances share the one Db. Closing the
 * second closes only its connections.
 */
export async function secondConnection(db: Db): Promise<Db> {
  const url = urls.get(db);
  if (url) return openDb({ kind: 'postgres', url, maxConnections: 10 });
  return { ...db, kind: db.kind, query: db.query.bind(db), transaction: db.transaction.bind(db), exec: db.exec.bind(db), exclusively: db.exclusively.bind(db), listen: db.listen.bind(db), close: async () => undefined };
}

/** The connection URL of a PostgreSQL test database (for a process of its own to open it); undefined on PGlite. */
export function postgresUrlOf(db: Db): string | undefined {
  return urls.get(db);
}

async function createPostgresDb(adminUrl: string): Promise<Db> {
  const name = `casino_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  await admin.end();
  const url = databaseUrl(adminUrl, name);
  const db = await openDb({ kind: 'postgres', url, maxConnections: 20 });
  urls.set(db, url);
  const close = db.close.bind(db);
  db.close = async () => {
    await close();
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name}`);
    await cleanup.end();
  };
  return db;
}

/** A migrated database with the reference data seeded, private to the caller. Close it when done. */
export async function createTestDb(): Promise<Db> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) return createPostgresDb(adminUrl);
  template ??= loadTemplate();
  return openDb({ kind: 'pglite', loadFrom: await template });
}

const ROLLBACK = Symbol('rollback');

/** A Db over one open transaction: its own transactions are savepoints, and closing it does nothing. */
function savepointDb(kind: Db['kind'], tx: Queryable): Db {
  let savepoints = 0;
  const db: Db = {
    kind,
    query: (sql, params) => tx.query(sql, params),
    async transaction(fn) {
      savepoints += 1;
      const name = `test_savepoint_${savepoints}`;
      await tx.query(`SAVEPOINT ${name}`);
      try {
        const value = await fn(db);
        await tx.query(`RELEASE SAVEPOINT ${name}`);
        return value;
      } catch (error) {
        await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
    },
    exec: () => Promise.reject(new Error('exec runs scripts that may not run inside the test transaction')),
    // One test's transaction: nothing else runs on it.
    exclusively: (_name, fn) => fn(),
    // Nothing a rolled-back transaction notifies is ever delivered.
    listen: () => Promise.reject(new Error('nothing is announced from inside the test transaction')),
    close: async () => undefined,
  };
  return db;
}

/**
 * Per-test isolation without a database per test: one database for the describe block (or file) it is
 * called in, and each test inside a transaction that is rolled back after it, so no test sees another's
 * rows. Code that opens a transaction of its own gets a savepoint. Sequences are not rolled back (ids
 * keep growing), and code that cannot run inside a transaction (VACUUM, CREATE DATABASE) needs
 * createTestDb instead. Returns the current test's database.
 */
export function useRollbackDb(): () => Db {
  let base: Db | undefined;
  let current: Db | undefined;
  let release: (() => void) | undefined;
  let finished: Promise<void> | undefined;
  beforeAll(async () => {
    base = await createTestDb();
  });
  afterAll(async () => {
    await base?.close();
  });
  beforeEach(async () => {
    if (!base) throw new Error('no test database');
    const { kind } = base;
    const opened = new Promise<Queryable>((resolve, reject) => {
      finished = base!
        .transaction(async (tx) => {
          resolve(tx);
          await new Promise<void>((done) => (release = done));
          throw ROLLBACK;
        })
        .catch((error: unknown) => {
          reject(error);
          if (error !== ROLLBACK) throw error;
        });
    });
    current = savepointDb(kind, await opened);
  });
  afterEach(async () => {
    release?.();
    await finished;
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('the test database exists only inside a test');
    return current;
  };
}

/**
 * Counts the batches the server's batchers run through `fn` (a money function's name) on the database's
 * connections: how many calls each held, read from its parameters by `callsIn`, once answered (a batch
 * that failed would have run its calls alone). A batch holds two calls or more: a call run alone is not
 * counted. stop() gives the database its query back.
 */
export function countBatches(db: Db, fn: string, callsIn: (params: readonly unknown[]) => number): { sizes: number[]; stop: () => void } {
  const sizes: number[] = [];
  const previous = db.query;
  db.query = (async (sql: string, params?: readonly unknown[], options?: QueryOptions) => {
    const rows = await previous.call(db, sql, params, options);
    const calls = sql.includes(`${fn}(`) ? callsIn(params ?? []) : 0;
    if (calls > 1) sizes.push(calls);
    return rows;
  }) as Queryable['query'];
  return {
    sizes,
    stop: () => {
      db.query = previous;
    },
  };
}
