import type { Db, Queryable } from './db/db.ts';

/*
 * The players' live updates inside one server: the database announces every change a player should see
 * on the channel `casino_events` once its transaction commits (server/db/schema/1_function_announce_row.sql), and this
 * hub, listening from the first stream on, tells each stream of that player. On PostgreSQL every server
 * instance listens, so a change made through one reaches the streams another holds; on PGlite the one
 * instance hears its own.
 */

export const LIVE_CHANNEL = 'casino_events';

/**
 * Announces payloads a money call returned instead of announcing them inside its transaction (a
 * NOTIFY held through a commit's flush to disk would make every such commit wait for the last).
 * Called once the call has committed, as a statement of its own. (Batches of calls announce inside their
 * own statement instead: announcedAtCommit below.) A NOTIFY still gives its transaction a commit record to
 * flush, but under load that flush rides with the money calls' own: by pg_stat_wal during
 * `npm run bench:server`, 0.20 WAL syncs per game wallet call either way, with this statement's commit
 * made asynchronous (`synchronous_commit` off) or not.
 *
 * Calls that commit while an announcement of the same database is on its way share the next one: one
 * statement for all of them (a payload twice in it is sent once: a stream reads the whole list or row it
 * names again), sent as soon as the one before has been answered. Under load that is one round trip for
 * many calls instead of one each; a call alone goes at once. Each caller resolves once its payloads are
 * announced, or rejects with the error of the statement that carried them.
 */
export async function announceCommitted(db: Queryable, payloads: readonly string[]): Promise<void> {
  if (payloads.length === 0) return;
  let announcer = announcers.get(db);
  if (!announcer) {
    announcer = new Announcer(db);
    announcers.set(db, announcer);
  }
  await announcer.announce(payloads);
}

/**
 * A batch function's call (`call`: its name and parameters) wrapped so that what its rows return to announce
 * (`out_announce`, the rows numbered by `out_n`) is announced in the same statement, so at its commit: each
 * payload once, in the order the calls gave them. `channel` is the parameter that holds LIVE_CHANNEL; the rows
 * come back in `out_n` order with their `columns` and an empty `out_announce`, nothing left for the caller to
 * announce. Batches announce this way rather than through announceCommitted: one commit for many calls, and no
 * call waiting for a statement of its own after it.
 */
export function announcedAtCommit(call: string, columns: readonly string[], channel: string): string {
  return `WITH called AS MATERIALIZED (SELECT * FROM ${call}),
    announced AS (
      SELECT count(pg_notify(${channel}, a.payload)) AS sent FROM (
        SELECT u.payload FROM called CROSS JOIN LATERAL unnest(called.out_announce) WITH ORDINALITY AS u(payload, k)
        GROUP BY u.payload ORDER BY min(ARRAY[called.out_n, u.k::integer])
      ) AS a
    )
    SELECT ${columns.map((column) => `called.${column}`).join(', ')}, ARRAY[]::text[] AS out_announce
    FROM called CROSS JOIN announced ORDER BY called.out_n`;
}

const announcers = new WeakMap<Queryable, Announcer>();

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

class Announcer {
  private sending = false;
  private queued: { payloads: Set<string>; waiters: Waiter[] } | null = null;

  constructor(private readonly db: Queryable) {}

  announce(payloads: readonly string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queued ??= { payloads: new Set(), waiters: [] };
      for (const payload of payloads) this.queued.payloads.add(payload);
      this.queued.waiters.push({ resolve, reject });
      if (!this.sending) void this.send();
    });
  }

  private async send(): Promise<void> {
    this.sending = true;
    while (this.queued) {
      const batch = this.queued;
      this.queued = null;
      try {
        await this.db.query('SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload', [LIVE_CHANNEL, [...batch.payloads]], {
          prepared: 'announce_committed',
        });
        for (const waiter of batch.waiters) waiter.resolve();
      } catch (error) {
        for (const waiter of batch.waiters) waiter.reject(error);
      }
    }
    this.sending = false;
  }
}

/** What changed; `session`: one of the player's sessions ended (its stream, if any, ends too). */
export type LiveKind = 'wallets' | 'deposit' | 'withdrawal' | 'notification' | 'session';

export interface LiveMessage {
  userId: number;
  kind: LiveKind;
  /** The row that changed (a deposit, withdrawal or notification; for wallets, the player). */
  id: number;
}

const KINDS: readonly string[] = ['wallets', 'deposit', 'withdrawal', 'notification', 'session'];

/** The message of a payload, or null for one this server does not understand. */
export function parseLiveMessage(payload: string): LiveMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { u, k, id } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(u) || typeof k !== 'string' || !KINDS.includes(k) || !Number.isSafeInteger(id)) return null;
  return { userId: u as number, kind: k as LiveKind, id: id as number };
}

type Listener = (message: LiveMessage) => void;

export class LiveHub {
  private readonly listeners = new Map<number, Set<Listener>>();
  private readonly streams = new Set<() => void>();
  private listening: Promise<() => Promise<void>> | null = null;
  private closed = false;

  constructor(private readonly db: Db) {}

  /**
   * Tells `listener` of every change of the player's, from when this resolves (listening already, so a
   * stream that says `ready` after it misses nothing). The function it resolves to stops.
   */
  async subscribe(userId: number, listener: Listener): Promise<() => void> {
    if (this.closed) throw new Error('the server is stopping');
    if (!this.listening) {
      const started = this.db.listen(LIVE_CHANNEL, (payload) => this.dispatch(payload));
      this.listening = started;
      // A failed start (the database unreachable) is tried again by the next stream.
      started.catch(() => {
        if (this.listening === started) this.listening = null;
      });
    }
    await this.listening;
    const forPlayer = this.listeners.get(userId) ?? new Set<Listener>();
    forPlayer.add(listener);
    this.listeners.set(userId, forPlayer);
    return () => {
      forPlayer.delete(listener);
      if (forPlayer.size === 0 && this.listeners.get(userId) === forPlayer) this.listeners.delete(userId);
    };
  }

  /**
   * Registers how to end an open stream when the server stops; the function it returns forgets it. A stream
   * that starts once the server is stopping is ended at once.
   */
  track(end: () => void): () => void {
    if (this.closed) {
      end();
      return () => undefined;
    }
    this.streams.add(end);
    return () => {
      this.streams.delete(end);
    };
  }

  /** The streams open now. */
  get openStreams(): number {
    return this.streams.size;
  }

  private dispatch(payload: string): void {
    const message = parseLiveMessage(payload);
    if (!message) return;
    for (const listener of [...(this.listeners.get(message.userId) ?? [])]) listener(message);
  }

  /** Ends every open stream and stops listening (before the server stops: open streams would hold it). */
  async close(): Promise<void> {
    this.closed = true;
    for (const end of [...this.streams]) end();
    this.streams.clear();
    const listening = this.listening;
    this.listening = null;
    if (listening) await (await listening.catch(() => async () => undefined))();
  }
}
