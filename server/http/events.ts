import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { depositActivity, withdrawalActivity } from '../domain/activity.ts';
import { listNotifications } from '../domain/common.ts';
import { listWallets } from '../domain/wallets.ts';
import type { LiveHub, LiveMessage } from '../live.ts';
import { player } from './auth-guard.ts';
import { streamHeaders } from './security.ts';

/*
 * GET /user/events: the player's live updates as Server-Sent Events (openapi.yaml userEvents). The
 * stream is subscribed before it says `ready`, so nothing that happens after `ready` is missed; each
 * change is read from the database when it is announced (the announcement names the row) and written
 * in the order announced. A comment every LIVE_KEEPALIVE_SECONDS (15) keeps proxies from closing an idle
 * stream. The stream ends when the session it was opened with ends (logout, the account made inactive:
 * announced by the database, migration 0021), and at the first keepalive after the session's expiry.
 */

/** Whether the session a stream was opened with still holds (not ended, not expired). */
async function sessionHolds(ctx: AppContext, sessionId: string): Promise<boolean> {
  const rows = await ctx.db.query('SELECT 1 FROM sessions WHERE id = $1 AND revoked_at IS NULL AND expires_at > $2', [sessionId, ctx.now()]);
  return rows.length > 0;
}

/**
 * What one announcement sends the player: the event's name and data, null when there is nothing to say,
 * or 'end' when the stream's own session has ended.
 */
async function eventOf(
  ctx: AppContext,
  userId: number,
  sessionId: string,
  message: LiveMessage,
): Promise<{ event: string; data: unknown } | null | 'end'> {
  switch (message.kind) {
    case 'session':
      return (await sessionHolds(ctx, sessionId)) ? null : 'end';
    case 'wallets':
      return { event: 'wallets', data: { wallets: await listWallets(ctx.db, userId) } };
    case 'deposit': {
      const deposit = await depositActivity(ctx.db, userId, message.id);
      return deposit ? { event: 'deposit', data: deposit } : null;
    }
    case 'withdrawal': {
      const withdrawal = await withdrawalActivity(ctx.db, userId, message.id);
      return withdrawal ? { event: 'withdrawal', data: withdrawal } : null;
    }
    case 'notification': {
      const page = await listNotifications(ctx.db, userId, { page: 1, limit: 20 });
      const row = page.rows.find((candidate) => candidate.id === message.id);
      if (!row) return null;
      const notification = { id: row.id, title: row.title, message: row.message, read: row.isRead, createdAt: row.createdAt.toISOString() };
      return { event: 'notification', data: { notification, unreadCount: page.unreadCount } };
    }
  }
}

export function eventsHandler(ctx: AppContext, hub: LiveHub) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const { userId, sessionId } = player({ auth: req.auth });
    const res = reply.raw;
    let open = true;
    // Writes keep the order of the announcements, however long each read takes.
    let queue = Promise.resolve();
    // Ends the stream once it has started (set below); an announcement heard before that is queued behind it.
    let end: () => void = () => undefined;
    const write = (text: string) => {
      if (open) res.write(text);
    };
    const session = await ctx.db.query<{ expires_at: Date }>('SELECT expires_at FROM sessions WHERE id = $1', [sessionId]);
    const expiresAt = session[0]?.expires_at ?? ctx.now();
    const unsubscribe = await hub.subscribe(userId, (message) => {
      queue = queue
        .then(async () => {
          if (!open) return;
          const event = await eventOf(ctx, userId, sessionId, message);
          // The session ended (logout, the account made inactive): so does the stream. A new one needs a
          // valid token, which tells the app why the session ended.
          if (event === 'end') end();
          else if (event) write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
        })
        .catch((error: unknown) => req.log.error({ err: error }, 'live event not sent'));
    });
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
    const keepalive = setInterval(() => {
      // A session past its time (its token expired, or the player's session limit) ends its stream.
      if (ctx.now() >= expiresAt) end();
      else write(': keepalive\n\n');
    }, ctx.config.liveKeepaliveSeconds * 1000);
    let forget: () => void = () => undefined;
    end = () => {
      if (!open) return;
      open = false;
      clearInterval(keepalive);
      unsubscribe();
      forget();
      res.end();
      // The connection was the stream's alone: closed with it, so that nothing is left for a stopping
      // server to wait for (a stream's socket is never reused for another request).
      res.socket?.destroy();
    };
    forget = hub.track(end);
    req.raw.on('close', end);
    res.on('close', end);
  };
}
