import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { one, sqlState, type Db } from '../../server/db/db.ts';
import { createTestDb, secondConnection } from '../helpers/db.ts';

/**
 * Db.pipeline: the statements the batchers send without waiting for the answers of the ones before (on
 * PostgreSQL a connection of its own in pipeline mode; on PGlite the database itself).
 */

let db: Db;

beforeAll(async () => {
  db = await createTestDb();
  await db.query('CREATE TABLE pipeline_test (n integer PRIMARY KEY)');
});
afterAll(async () => {
  await db.close();
});

describe('the pipelined connection', () => {
  it('answers statements sent together in the order sent, each in its own transaction', async () => {
    const pipeline = db.pipeline();
    const sent = [
      pipeline.query('INSERT INTO pipeline_test VALUES (1) RETURNING n'),
      // Refused (the key is taken by the statement before): only this one fails, and nothing of it stays.
      pipeline.query('INSERT INTO pipeline_test VALUES (2), (1) RETURNING n'),
      pipeline.query('INSERT INTO pipeline_test VALUES (3) RETURNING n'),
      pipeline.query('SELECT array_agg(n ORDER BY n) AS ns FROM pipeline_test'),
    ];
    const [first, refused, third, read] = await Promise.allSettled(sent);
    expect(first).toEqual({ status: 'fulfilled', value: [{ n: 1 }] });
    expect(refused?.status).toBe('rejected');
    expect(sqlState(refused?.status === 'rejected' ? refused.reason : undefined)).toBe('23505');
    expect(third).toEqual({ status: 'fulfilled', value: [{ n: 3 }] });
    expect(read).toEqual({ status: 'fulfilled', value: [{ ns: [1, 3] }] });
    // Each statement committed on its own: what the pool reads is what the pipeline wrote.
    expect(await one<{ ns: number[] }>(db, 'SELECT array_agg(n ORDER BY n) AS ns FROM pipeline_test')).toEqual({ ns: [1, 3] });
  });

  it('runs prepared statements, sent again and again without waiting', async () => {
    const pipeline = db.pipeline();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pipeline.query<{ twice: number }>('SELECT $1::integer * 2 AS twice', [i], { prepared: 'pipeline_test_twice' })),
    );
    expect(answers.map((rows) => rows[0]?.twice)).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
  });
});

if (process.env.TEST_DATABASE_URL) {
  describe('the pipelined connection on PostgreSQL', () => {
    const backend = async () => (await one<{ pid: number }>(db.pipeline(), 'SELECT pg_backend_pid() AS pid')).pid;

    it('is one connection of its own, beside the pool', async () => {
      const pid = await backend();
      expect(await backend()).toBe(pid);
      const pooled = await db.transaction(async (tx) => (await one<{ pid: number }>(tx, 'SELECT pg_backend_pid() AS pid')).pid);
      expect(pooled).not.toBe(pid);
    });

    it('fails the statements on their way when its connection is lost, and opens another for the next', async () => {
      const pid = await backend();
      // Their outcomes are awaited from the start: they fail as soon as the connection goes, which may be
      // before the statement that ends it has answered.
      const onTheirWay = Promise.allSettled([db.pipeline().query('SELECT pg_sleep(0.5)'), db.pipeline().query('SELECT 1 AS one')]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await db.query('SELECT pg_terminate_backend($1)', [pid]);
      const settled = await onTheirWay;
      expect(settled.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
      const next = await backend();
      expect(next).not.toBe(pid);
      expect(await one<{ one: number }>(db.pipeline(), 'SELECT 1 AS one')).toEqual({ one: 1 });
    });

    it('opens no connection once the database is closed', async () => {
      const other = await secondConnection(db);
      await other.pipeline().query('SELECT 1');
      await other.close();
      await expect(other.pipeline().query('SELECT 1')).rejects.toThrow('the database was closed');
    });
  });
}
