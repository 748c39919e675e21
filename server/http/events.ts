import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { depositActivity, withdrawalActivity } from '../domain/activity.ts';
import { listNotifications } from '../domain/common.ts';
import { listWallets } from '../domain/wallets.ts';
import type { LiveHub, LiveKind, LiveMessage } from '../live.ts';
import { player } from './auth-guard.ts';
import { streamHeaders } from './security.ts';

/*
 * GET /user/events: the player's live updates as Server-Sent Events (openapi.yaml userEvents). The
 * stream is subscribed before it says `ready`, so nothing that happens after `ready` is missed; each
 * change is read from the database when it is announced (the announcement names the row) and written
 * in the order announced. A comment every LIVE_KEEPALIVE_SECONDS (15) keeps proxies from closing an idle
 * stream. The stream ends when the session it was opened with ends (logout, the account made inactive:
 * announced by the database, server/db/schema/1_function_announce_session_ended.sql), and at the first keepalive after the session's expiry.
 *
 * The streams of one player on this server share one feed: one subscription to the hub, each change read
 * once and the same text written to every one of them, whatever their number. A player holds at most
 * LIVE_STREAMS_PER_PLAYER (5) of them here: one more replaces the oldest, which is sent `replaced` and ends.
 */

/** The final event of a stream that a newer one of the same player replaced. */
const REPLACED = 'event: replaced\ndata: {}\n\n';

/** The sessions among `sessionIds` that still hold (not ended, not expired), in one query. */
async function sessionsHolding(ctx: AppContext, sessionIds: readonly string[]): Promise<Set<string>> {
  const rows = await ctx.db.query<{ id: string }>('SELECT id FROM sessions WHERE id = ANY($1::text[]) AND revoked_at IS NULL AND expires_at > $2', [
    sessionIds,
    ctx.now(),
  ]);
  return new Set(rows.map((row) => row.id));
}

/** What a change announced sends the player: the event's name and data, or null when there is nothing to say. */
async function eventOf(
  ctx: AppContext,
  userId: number,
  { kind, id }: { kind: Exclude<LiveKind, 'session'>; id: number },
): Promise<{ event: string; data: unknown } | null> {
  switch (kind) {
    case 'wallets':
      return { event: 'wallets', data: { wallets: await listWallets(ctx.db, userId) } };
    case 'deposit': {
      const deposit = await depositActivity(ctx.db, userId, id);
      return deposit ? { event: 'deposit', data: deposit } : null;
    }
    case 'withdrawal': {
      const withdrawal = await withdrawalActivity(ctx.db, userId, id);
      return withdrawal ? { event: 'withdrawal', data: withdrawal } : null;
    }
    case 'notification': {
      const page = await listNotifications(ctx.db, userId, { page: 1, limit: 20 });
      const row = page.rows.find((candidate) => candidate.id === id);
      if (!row) return null;
      const notification = { id: row.id, title: row.title, message: row.message, read: row.isRead, createdAt: row.createdAt.toISOString() };
      return { event: 'notification', data: { notification, unreadCount: page.unreadCount } };
    }
  }
}

/** One open stream, as its player's feed sees it. */
interface FeedStream {
  readonly sessionId: string;
  readonly log: FastifyBaseLogger;
  /** Writes to the stream while it is open. */
  write(text: string): void;
  /** Ends the stream (once; it leaves the feed). */
  end(): void;
}

/** The open streams of one player on this server, oldest first, and what they are told. */
class PlayerFeed {
  readonly streams: FeedStream[] = [];
  /** Streams on their way in (waiting for the subscription): the feed stays while there are any. */
  joining = 0;
  /** The one subscription to the player's changes, made by the first stream. */
  subscription: Promise<() => void> | null = null;
  // Writes keep the order of the announcements, however long each read takes.
  private queue = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    private readonly userId: number,
  ) {}

  /** An announcement for the player: read once, then written to every stream open when it was heard. */
  hear(message: LiveMessage): void {
    const heard = [...this.streams];
    if (heard.length === 0) return;
    this.queue = this.queue
      .then(async () => {
        const streams = heard.filter((stream) => this.streams.includes(stream));
        if (streams.length === 0) return;
        if (message.kind === 'session') {
          // One of the player's sessions ended (logout, the account made inactive): so do its streams. A new
          // one needs a valid token, which tells the app why the session ended.
          const holding = await sessionsHolding(this.ctx, [...new Set(streams.map((stream) => stream.sessionId))]);
          for (const stream of streams) if (!holding.has(stream.sessionId)) stream.end();
          return;
        }
        const event = await eventOf(this.ctx, this.userId, { kind: message.kind, id: message.id });
        if (!event) return;
        const text = `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
        for (const stream of streams) stream.write(text);
      })
      .catch((error: unknown) => heard.at(-1)?.log.error({ err: error, streams: heard.length }, 'live event not sent'));
  }
}

/** Every player's feed on this server. */
class PlayerFeeds {
  private readonly feeds = new Map<number, PlayerFeed>();

  constructor(
    private readonly ctx: AppContext,
    private readonly hub: LiveHub,
  ) {}

  /**
   * Adds `stream` to its player's feed once the feed is subscribed, with `start` (the stream's headers and
   * `ready`) run at the same moment, so that the stream is told everything heard after its `ready`. A stream
   * past the player's limit replaces the oldest. Resolves to the function that takes the stream off.
   */
  async open(userId: number, stream: FeedStream, start: () => void): Promise<() => void> {
    let feed = this.feeds.get(userId);
    if (!feed) {
      const created = new PlayerFeed(this.ctx, userId);
      created.subscription = this.hub.subscribe(userId, (message) => created.hear(message));
      this.feeds.set(userId, created);
      feed = created;
    }
    feed.joining += 1;
    try {
      await feed.subscription;
      start();
    } catch (error) {
      feed.joining -= 1;
      this.release(userId, feed);
      throw error;
    }
    feed.joining -= 1;
    feed.streams.push(stream);
    while (feed.streams.length > this.ctx.config.liveStreamsPerPlayer) {
      const oldest = feed.streams.shift();
      oldest?.write(REPLACED);
      oldest?.end();
    }
    const opened = feed;
    return () => {
      const index = opened.streams.indexOf(stream);
      if (index >= 0) opened.streams.splice(index, 1);
      this.release(userId, opened);
    };
  }

  /** Drops a feed no stream holds or waits for, and its subscription (a failed one: tried again by the next stream). */
  private release(userId: number, feed: PlayerFeed): void {
    if (feed.streams.length > 0 || feed.joining > 0) return;
    if (this.feeds.get(userId) === feed) this.feeds.delete(userId);
    feed.subscription?.then(
      (unsubscribe) => unsubscribe(),
      () => undefined,
    );
  }
}

export function eventsHandler(ctx: AppContext, hub: LiveHub) {
  const feeds = new PlayerFeeds(ctx, hub);
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const { userId, sessionId } = player({ auth: req.auth });
    const res = reply.raw;
    const session = await ctx.db.query<{ expires_at: Date }>('SELECT expires_at FROM sessions WHERE id = $1', [sessionId]);
    const expiresAt = session[0]?.expires_at ?? ctx.now();
    let open = true;
    const write = (text: string) => {
      if (open) res.write(text);
    };
    let keepalive: ReturnType<typeof setInterval> | undefined;
    let leave: () => void = () => undefined;
    let forget: () => void = () => undefined;
    const end = () => {
      if (!open) return;
      open = false;
      clearInterval(keepalive);
      leave();
      forget();
      res.end();
      // The connection was the stream's alone: closed with it, so that nothing is left for a stopping
      // server to wait for (a stream's socket is never reused for another request).
      res.socket?.destroy();
    };
    leave = await feeds.open(userId, { sessionId, log: req.log, write, end }, () => {
      reply.hijack();
      res.writeHead(200, {
        // Written here, past the hooks that give every other answer its security and CORS headers.
        ...streamHeaders(ctx.config, req),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        // The connection is the stream's: once it ends the socket closes instead of waiting to be reused,
        // so a stopping server never waits out the keep-alive time of a stream that ended.
        connection: 'close',
      });
      write('event: ready\ndata: {}\n\n');
      keepalive = setInterval(() => {
        // A session past its time (its token expired, or the player's session limit) ends its stream.
        if (ctx.now() >= expiresAt) end();
        else write(': keepalive\n\n');
      }, ctx.config.liveKeepaliveSeconds * 1000);
      forget = hub.track(end);
      req.raw.on('close', end);
      res.on('close', end);
    });
    // Ended already (replaced by a newer stream before this line ran): off the feed too.
    if (!open) leave();
  };
}
