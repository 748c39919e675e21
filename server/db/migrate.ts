import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.ts';

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const schemaDir = join(dirname(fileURLToPath(import.meta.url)), 'schema');

/** The name under which a server's start and `npm run seed` migrate and seed, one at a time (Db.exclusively). */
export const MIGRATE_AND_SEED = 'casino migrations and seeds';

/**
 * Brings the database to today's schema: every migrations/NNNN_name.sql not yet recorded, in name order,
 * then every schema/ file whose text is not the one last applied from it (or every one, after a numbered
 * migration ran, since it may have dropped an object the file defines), each in its own transaction.
 * Returns what it applied: the migrations' file names, then the schema files' as `schema/<file>`. With
 * nothing new it runs no DDL. Callers hold the exclusive lock of MIGRATE_AND_SEED.
 */
export async function migrate(db: Db): Promise<string[]> {
  const [known] = await db.query<{ table: string | null }>(`SELECT to_regclass('schema_migrations')::text AS table`);
  if (!known?.table) {
    await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  }
  const applied = new Set(
    (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((row) => row.name),
  );
  const pending = readdirSync(migrationsDir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .filter((file) => !applied.has(file));
  for (const file of pending) {
    const sql = readFileSync(join(migrationsDir, file), 'utf8');
    await db.transaction(async (tx) => {
      // PGlite's tx.query accepts one statement; split on the statement terminator we write migrations with.
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    });
  }
  const objects = await applySchema(db, pending.length > 0);
  return [...pending, ...objects];
}

/**
 * The schema folder: today's definition of every function, view and trigger, one object per file, named
 * `<kind>_<object>.sql`, the kind a number that puts what an object needs before it: 1 functions, 2 views
 * (which may call functions), 3 triggers (which call functions). A file is written to be applied again over
 * any earlier definition: CREATE OR REPLACE FUNCTION / VIEW, and DROP TRIGGER IF EXISTS then CREATE TRIGGER
 * (a constraint trigger cannot be replaced). schema_objects keeps the SHA-256 of the text last applied from
 * each file; a file whose text is the same is skipped unless `all`, and the rows of files no longer there
 * are removed.
 *
 * Numbered migrations hold the table changes (tables, columns, constraints, indexes, the rows they move)
 * and the DROP of a function, view or trigger that leaves the schema or whose signature changes (IF EXISTS
 * where a database built today never had it); a change to a function, view or trigger is a change to its
 * file. A migration defines one only where something before the folder is applied needs it: a statement of
 * its own or of a later migration (an index or a CHECK over a function, a backfill that calls one), or the
 * rows the migration tests (tests/helpers/migrations.ts) write into a database built up to a migration (the
 * triggers that open a wallet's and a currency's ledger accounts, 0006 and 0018, and keep game_counts,
 * 0012). A database migrated before keeps the definitions it has until a migration drops them or the
 * folder replaces them. A migration left with nothing was deleted: the name a database recorded for it
 * matches no file and is passed over, and the numbering keeps the gap.
 */
async function applySchema(db: Db, all: boolean): Promise<string[]> {
  const files = readdirSync(schemaDir)
    .filter((file) => /^[1-3]_(function|view|trigger)_[a-z0-9_]+\.sql$/.test(file))
    .sort();
  const recorded = new Map(
    (await db.query<{ name: string; sha256: string }>('SELECT name, sha256 FROM schema_objects')).map((row) => [row.name, row.sha256]),
  );
  const applied: string[] = [];
  for (const file of files) {
    const sql = readFileSync(join(schemaDir, file), 'utf8');
    const sha256 = createHash('sha256').update(sql).digest('hex');
    if (!all && recorded.get(file) === sha256) continue;
    await db.transaction(async (tx) => {
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query(
        `INSERT INTO schema_objects (name, sha256) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET sha256 = EXCLUDED.sha256, applied_at = now()`,
        [file, sha256],
      );
    });
    applied.push(`schema/${file}`);
  }
  const gone = [...recorded.keys()].filter((name) => !files.includes(name));
  if (gone.length > 0) await db.query('DELETE FROM schema_objects WHERE name = ANY($1::text[])', [gone]);
  return applied;
}

/**
 * Splits a migration script into statements. Statements end with ';' at the end of a line;
 * function bodies are written between $$ quotes and may contain ';' freely.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let inDollarQuote = false;
  for (const line of sql.split('\n')) {
    const trimmed = line.trim();
    if (!inDollarQuote && (trimmed.startsWith('--') || trimmed === '')) continue;
    current += line + '\n';
    const dollarCount = (line.match(/\$\$/g) ?? []).length;
    if (dollarCount % 2 === 1) inDollarQuote = !inDollarQuote;
    if (!inDollarQuote && trimmed.endsWith(';')) {
      statements.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}
