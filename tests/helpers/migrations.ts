import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { openDb, type Db } from '../../server/db/db.ts';
import { migrate, splitStatements } from '../../server/db/migrate.ts';

/**
 * A migration's test starts from an empty database, applies the migrations before the one it tests, writes
 * the rows of before, then lets migrate() apply the rest. On PGlite, or on the PostgreSQL server of
 * TEST_DATABASE_URL in a database of its own (dropped by `drop`).
 */

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), '../../server/db/migrations');

export async function emptyDb(): Promise<{ db: Db; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { db: await openDb({ kind: 'pglite' }), drop: async () => undefined };
  const name = `casino_test_migration_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { db: await openDb({ kind: 'postgres', url: url.toString(), maxConnections: 2 }), drop: () => admin(`DROP DATABASE IF EXISTS ${name}`) };
}

/**
 * Applies the numbered migrations before `first` the way migrate() does, so that migrate() applies the rest
 * and then the files of server/db/schema/ (today's functions and triggers, over those of the migrations).
 */
export async function migrateBefore(target: Db, first: string): Promise<void> {
  await target.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const files = readdirSync(migrationsDir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file) && file < first)
    .sort();
  for (const file of files) {
    await target.transaction(async (tx) => {
      for (const statement of splitStatements(readFileSync(join(migrationsDir, file), 'utf8'))) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    });
  }
}

/**
 * A migration's test file: before its tests, an empty database migrated up to `migration`, the rows of before
 * written by `rowsOfBefore`, then migrate() run (it must apply `migration`); after them, the database closed
 * and dropped.
 */
export function testMigration(migration: string, rowsOfBefore: (db: Db) => Promise<void>): void {
  let opened: { db: Db; drop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    opened = await emptyDb();
    await migrateBefore(opened.db, migration);
    await rowsOfBefore(opened.db);
    expect(await migrate(opened.db)).toContain(migration);
  }, 120_000);
  afterAll(async () => {
    await opened?.db.close();
    await opened?.drop();
  });
}
