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
 * in the order announced. A comment every 15 seconds keeps proxies from closing an idle stream.
 */

export const KEEPALIVE_MS = 15_000;

/** What one announcement sends the player: the event's name and data, or null when there is nothing to say. */
async function eventOf(ctx: AppContext, userId: number, message: LiveMessage): Promise<{ event: string; data: unknown } | null> {
  switch (message.kind) {
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
    const { userId } = player({ auth: req.auth });
    const res = reply.raw;
    let open = true;
    // Writes keep the order of the announcements, however long each read takes.
    let queue = Promise.resolve();
    const write = (text: string) => {
      if (open) res.write(text);
    };
    const unsubscribe = await hub.subscribe(userId, (message) => {
      queue = queue
        .then(async () => {
          if (!open) return;
          const event = await eventOf(ctx, userId, message);
          if (event) write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
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
    const keepalive = setInterval(() => write(': keepalive\n\n'), KEEPALIVE_MS);
    let forget: () => void = () => undefined;
    const end = () => {
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
