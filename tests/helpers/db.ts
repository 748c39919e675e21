import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { isPGlite, openDb, type Db } from '../../server/db/db.ts';
import { migrate } from '../../server/db/migrate.ts';
import { seedReferenceData } from '../../server/db/seed.ts';

/**
 * Test databases. By default PGlite: a migrated, seeded one is built once per worker and cloned per
 * test file, since a fresh PGlite takes seconds to initialise. With TEST_DATABASE_URL set (npm test
 * sets it for its PostgreSQL pass), each call gets a new database copied from a template there.
 */
export const TEMPLATE_DATABASE = 'casino_test_template';

let template: Promise<Blob> | undefined;

async function buildTemplate(): Promise<Blob> {
  const db = await openDb({ kind: 'pglite' });
  await migrate(db);
  await seedReferenceData(db);
  if (!isPGlite(db)) throw new Error('template must be PGlite');
  const blob = await db.dump();
  await db.close();
  return blob;
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

async function createPostgresDb(adminUrl: string): Promise<Db> {
  const name = `casino_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  await admin.end();
  const db = await openDb({ kind: 'postgres', url: databaseUrl(adminUrl, name), maxConnections: 20 });
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
  template ??= buildTemplate();
  return openDb({ kind: 'pglite', loadFrom: await template });
}
