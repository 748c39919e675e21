import { describe, expect, it } from 'vitest';
import type { Queryable, Row } from '../../server/db/db.ts';
import { announceCommitted } from '../../server/live.ts';

/*
 * The announcements money calls make once they have committed (server/live.ts): calls that commit while
 * one is on its way share the next statement, so a burst of calls costs two round trips, not one each.
 */

interface Sent {
  payloads: string[];
  answer: (error?: Error) => void;
}

/** A database whose statements wait until the test answers them. */
function slowDb(): Queryable & { sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    query<T extends object = Row>(_sql: string, params: readonly unknown[] = []): Promise<T[]> {
      return new Promise<T[]>((resolve, reject) => {
        sent.push({ payloads: params[1] as string[], answer: (error) => (error ? reject(error) : resolve([])) });
      });
    },
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('announcements after commit', () => {
  it('sends a call alone at once, and the calls that commit meanwhile together, each payload once', async () => {
    const db = slowDb();
    const first = announceCommitted(db, ['a']);
    expect(db.sent.map((s) => s.payloads)).toEqual([['a']]);
    const done: string[] = [];
    const later = [
      announceCommitted(db, ['b', 'c']).then(() => done.push('b')),
      announceCommitted(db, ['c']).then(() => done.push('c')),
      announceCommitted(db, ['d']).then(() => done.push('d')),
    ];
    await flush();
    expect(db.sent).toHaveLength(1);
    db.sent[0]!.answer();
    await first;
    await flush();
    expect(db.sent.map((s) => s.payloads)).toEqual([['a'], ['b', 'c', 'd']]);
    expect(done).toEqual([]);
    db.sent[1]!.answer();
    await Promise.all(later);
    expect(done).toEqual(['b', 'c', 'd']);
    // Nothing on its way any more: the next call goes at once again.
    const next = announceCommitted(db, ['e']);
    expect(db.sent).toHaveLength(3);
    db.sent[2]!.answer();
    await next;
  });

  it('fails the callers of the statement that failed alone, and goes on with the next', async () => {
    const db = slowDb();
    const first = announceCommitted(db, ['a']);
    const second = announceCommitted(db, ['b']);
    db.sent[0]!.answer(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await flush();
    expect(db.sent.map((s) => s.payloads)).toEqual([['a'], ['b']]);
    db.sent[1]!.answer();
    await expect(second).resolves.toBeUndefined();
  });

  it('sends nothing for a call with nothing to announce', async () => {
    const db = slowDb();
    await announceCommitted(db, []);
    expect(db.sent).toEqual([]);
  });
});
