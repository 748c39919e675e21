import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';

/**
 * The one query layer: plain parameterised SQL over either an embedded PGlite or a PostgreSQL server.
 * Rows come back the same from both: int8 and count as numbers, NUMERIC as strings, timestamps as Dates.
 */
export type Row = Record<string, unknown>;

export interface QueryOptions {
  /**
   * On PostgreSQL, runs the statement as a prepared statement of this name, parsed and planned once per
   * connection instead of at every call: for the few statements every money call sends. One name, one
   * text. PGlite ignores it.
   */
  prepared?: string;
}

export interface Queryable {
  query<T extends object = Row>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn inside one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs fn while no other server runs fn under the same name on this database: for the start's migrations
   * and seeds, which two servers starting at once would otherwise both apply. On PostgreSQL a session
   * advisory lock; PGlite has one server only, by its data folder's lock.
   */
  exclusively<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` with the payload of every NOTIFY on `channel` (committed transactions only), from any
   * connection to the database: PGlite's own, or, on PostgreSQL, every server's. Resolves once listening;
   * the function it resolves to stops.
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** The SQLSTATE of a database error (PostgreSQL's and PGlite's errors carry it as `code`), if it is one. */
export function sqlState(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** The constraint or index a database error names (PostgreSQL's `constraint`; PGlite may give only its message). */
export function constraintOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const { constraint, message } = error as { constraint?: unknown; message?: unknown };
  if (typeof constraint === 'string') return constraint;
  const named = typeof message === 'string' ? /constraint "([^"]+)"/.exec(message) : null;
  return named?.[1] ?? '';
}

export async function one<T extends object>(db: Queryable, sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<T> {
  const rows = await db.query<T>(sql, params, options);
  const first = rows[0];
  if (!first) throw new Error('Expected one row, got none');
  return first;
}

export async function maybeOne<T extends object>(db: Queryable, sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<T | undefined> {
  const rows = await db.query<T>(sql, params, options);
  return rows[0];
}

class PGliteDb implements Db {
  readonly kind = 'pglite';
  constructor(private readonly pglite: PGlite) {}

  async query<T extends object>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const result = await this.pglite.query<T>(sql, params as unknown[]);
    return result.rows;
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.pglite.transaction(async (tx) =>
      fn({
        async query<R extends object>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
          return (await tx.query<R>(sql, params as unknown[])).rows;
        },
      }),
    );
  }

  async exec(sql: string): Promise<void> {
    await this.pglite.exec(sql);
  }

  exclusively<T>(_name: string, fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    return this.pglite.listen(channel, onNotify);
  }

  async close(): Promise<void> {
    await this.pglite.close();
  }

  /** A gzip-less tarball of the data folder, used by tests to clone a migrated database quickly. */
  dump(): Promise<Blob> {
    return this.pglite.dumpDataDir('none');
  }
}

// int8 (oid 20) as a number, like PGlite: ids and counts stay far below 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

/** A statement on the pool or on a transaction's connection: prepared under its name when it has one. */
async function rowsOf<T extends object>(on: pg.Pool | pg.ClientBase, sql: string, params: readonly unknown[], options: QueryOptions): Promise<T[]> {
  const values = params as unknown[];
  const result = await on.query<T>(options.prepared === undefined ? { text: sql, values } : { name: options.prepared, text: sql, values });
  return result.rows;
}

class PostgresDb implements Db {
  readonly kind = 'postgres';
  constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {}

  query<T extends object>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}): Promise<T[]> {
    return rowsOf<T>(this.pool, sql, params, options);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const value = await fn({
        query: <R extends object>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}) => rowsOf<R>(client, sql, params, options),
      });
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  /** The lock on a connection of its own, outside the pool: fn's statements may need every pooled one. */
  async exclusively<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      return await fn();
    } finally {
      // Ending the connection ends its session, and the lock with it, whatever happened meanwhile.
      await client.end().catch(() => undefined);
    }
  }

  /** A connection of its own: a pooled one is handed to other queries between them and cannot LISTEN. */
  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    // A dropped connection is reported by the error event; without a handler it would end the process.
    client.on('error', () => undefined);
    await client.connect();
    await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    return async () => {
      await client.end().catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

export type DbOptions =
  | { kind: 'pglite'; dataDir?: string; loadFrom?: Blob }
  | { kind: 'postgres'; url: string; maxConnections?: number };

export async function openDb(options: DbOptions): Promise<Db> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10 });
    await pool.query('SELECT 1');
    return new PostgresDb(pool, options.url);
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const pglite = await PGlite.create({
    // The catalogue's name search uses trigram indexes (migration 0012); PostgreSQL ships pg_trgm in contrib.
    extensions: { pg_trgm },
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadFrom ? { loadDataDir: options.loadFrom } : {}),
  });
  return new PGliteDb(pglite);
}
