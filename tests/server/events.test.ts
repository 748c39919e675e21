import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';
import { registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';
import { createTestDb, secondConnection } from '../helpers/db.ts';
import { chainTransfer, depositAddress, fundedPlayer, type Player } from '../helpers/money.ts';
import { checkResponse, recordCoverage } from '../helpers/contract.ts';
import { listWallets } from '../../server/domain/wallets.ts';
import { loadOpenApi } from '../../server/http/openapi.ts';
import { LiveHub } from '../../server/live.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/*
 * The players' live updates (GET /user/events) over real HTTP: the stream is read as a browser's fetch
 * reads it, and every event's data is checked against its schema in openapi.yaml (`x-events`). The
 * deposits and withdrawals go through the payment simulator, whose webhooks reach the server over HTTP.
 */

const PAYOUT_ADDRESS = 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9';

const spec = loadOpenApi();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ components: spec.components } as object, 'openapi.yaml');
const eventSchemas = (
  spec.paths['/user/events']?.get?.responses['200'] as { content: Record<string, { 'x-events': Record<string, unknown> }> }
).content['text/event-stream']!['x-events'];

function checkEvent(message: EventSourceMessage): string | null {
  const schema = eventSchemas[message.event ?? ''];
  if (!schema) return `event ${message.event} is not in openapi.yaml`;
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.yaml#/components/')) as object);
  return validate(JSON.parse(message.data)) ? null : ajv.errorsText(validate.errors);
}

interface Stream {
  events: EventSourceMessage[];
  /** How many keepalive comments have come. */
  keepalives: () => number;
  /** The first event from `from` on (an index into events) that matches, waiting for it. */
  next(match: (event: EventSourceMessage, data: Record<string, unknown>) => boolean, from?: number): Promise<Record<string, unknown>>;
  ended: Promise<void>;
  close(): void;
}

async function openStream(server: TestServer, token: string): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${server.ctx.listening.url}/api/v1/user/events`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  // Read outside server.call (a stream, not one answer): counted for the contract's coverage here.
  recordCoverage('userEvents', 200, null);
  const events: EventSourceMessage[] = [];
  const waiters = new Set<() => void>();
  let keepalives = 0;
  const parser = new EventSourceParserStream({
    onComment: (comment) => {
      if (comment.trim() === 'keepalive') keepalives += 1;
    },
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(parser).getReader();
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        events.push(value);
        for (const wake of [...waiters]) wake();
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    events,
    keepalives: () => keepalives,
    ended,
    close: () => controller.abort(),
    async next(match, from = 0) {
      for (;;) {
        for (const event of events.slice(from)) {
          const data = JSON.parse(event.data) as Record<string, unknown>;
          if (match(event, data)) return data;
        }
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no such event; got ${events.map((e) => `${e.event} ${e.data}`).join('\n')}`)), 10_000);
          const wake = () => {
            clearTimeout(timer);
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
        });
      }
    },
  };
}

const ltc = (data: Record<string, unknown>) => (data.wallets as { currencyCode: string; available: string; pending: string }[]).find((w) => w.currencyCode === 'LTC')!;

describe('the event stream', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LIVE_KEEPALIVE_SECONDS: '1', RATE_LIMIT: 'false' });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => server.close());

  it('says ready first, then a deposit seen, confirmed and credited, the balances as they move, and the notification', async () => {
    const player = await registeredPlayer(server);
    const stream = await openStream(server, player.token);
    await stream.next((event) => event.event === 'ready');
    expect(stream.events[0]!.event).toBe('ready');

    const address = await depositAddress(server, player);
    const txId = await chainTransfer(server, address, '0.5');
    const seen = await stream.next((event, data) => event.event === 'deposit' && data.txId === txId);
    expect(seen).toMatchObject({ amount: '0.5', confirmations: 0, requiredConfirmations: 6, status: 'pending', currencyCode: 'LTC' });
    expect(ltc(await stream.next((event, data) => event.event === 'wallets' && ltc(data).pending === '0.5'))).toMatchObject({ available: '0' });

    await server.call('devChainConfirm', { body: { txId, confirmations: 3 } });
    await stream.next((event, data) => event.event === 'deposit' && data.confirmations === 3 && data.status === 'pending');
    await server.call('devChainConfirm', { body: { txId, confirmations: 3 } });
    await stream.next((event, data) => event.event === 'deposit' && data.status === 'credited');
    await stream.next((event, data) => event.event === 'wallets' && ltc(data).available === '0.5' && ltc(data).pending === '0');
    const notified = await stream.next((event) => event.event === 'notification');
    expect(notified).toMatchObject({ unreadCount: 1, notification: { title: 'Deposit credited', read: false } });
    expect((notified.notification as { message: string }).message).toContain('0.5 LTC');

    for (const event of stream.events) expect(checkEvent(event), `${event.event} ${event.data}`).toBeNull();
    stream.close();
  });

  it('says a withdrawal was requested, then failed, with the funds back and a notification; a deposit below the minimum too', async () => {
    const player = await fundedPlayer(server, '1');
    const stream = await openStream(server, player.token);
    await stream.next((event) => event.event === 'ready');
    // Refused by the provider at once (its own deposit address): answered, so no withdrawal event.
    const refused = await server.call('paymentWithdraw', { token: player.token, body: { amount: '0.1', address: player.depositAddress, currencyCode: 'LTC' } });
    expect(refused.status).toBe(422);
    const requested = await server.call('paymentWithdraw', { token: player.token, body: { amount: '0.1', address: PAYOUT_ADDRESS, currencyCode: 'LTC' } });
    expect(requested.status, JSON.stringify(requested.body)).toBe(200);
    const spendRequestId = requested.body.data.spendRequestId as string;
    const pending = await stream.next((event) => event.event === 'withdrawal');
    expect(pending.spendRequestId).toBe(spendRequestId);
    expect(pending).toMatchObject({ status: 'pending', amount: '0.1', fee: '0.000006', address: PAYOUT_ADDRESS });
    await stream.next((event, data) => event.event === 'wallets' && ltc(data).available === '0.899994');

    const activity = await server.call('paymentGetActivity', { token: player.token, query: { currencyCode: 'LTC' } });
    expect(activity.status).toBe(200);
    expect(activity.body.data.withdrawals).toEqual([pending]);

    await server.call('devWithdrawalsSettle', { body: { spendRequestId, outcome: 'failed' } });
    await stream.next((event, data) => event.event === 'withdrawal' && data.status === 'failed');
    await stream.next((event, data) => event.event === 'wallets' && ltc(data).available === '1' && ltc(data).pending === '0');
    const failed = await stream.next((event, data) => event.event === 'notification' && (data.notification as { title: string }).title === 'Withdrawal failed');
    expect((failed.notification as { message: string }).message).toContain('0.100006 LTC');

    const small = await chainTransfer(server, player.depositAddress, '0.00004');
    await stream.next((event, data) => event.event === 'deposit' && data.txId === small && data.status === 'belowMinimum');
    for (const event of stream.events) expect(checkEvent(event), `${event.event} ${event.data}`).toBeNull();
    stream.close();
  });

  it("sends a player nothing of another player's money, and one wallets event for a change of several wallets", async () => {
    const watcher = await registeredPlayer(server);
    const stream = await openStream(server, watcher.token);
    await stream.next((event) => event.event === 'ready');
    await fundedPlayer(server, '0.2');
    // The other player's deposit went through; the watcher's own next change arrives, and nothing before it.
    await server.call('userSelectWallet', { token: watcher.token, body: { walletId: (await server.call('userGetWallets', { token: watcher.token })).body.data.wallets[1].id } });
    await stream.next((event) => event.event === 'wallets');
    expect(stream.events.map((event) => event.event)).toEqual(['ready', 'wallets']);
    stream.close();
  });

  it('holds five streams of one player: a sixth and a seventh replace the oldest two, which are told so and end', async () => {
    const player = await registeredPlayer(server);
    const streams: Stream[] = [];
    for (let opened = 0; opened < 7; opened += 1) {
      const stream = await openStream(server, player.token);
      await stream.next((event) => event.event === 'ready');
      streams.push(stream);
    }
    for (const stream of streams.slice(0, 2)) await stream.next((event) => event.event === 'replaced');
    await Promise.all(streams.slice(0, 2).map((stream) => stream.ended));
    for (const stream of streams.slice(0, 2)) expect(stream.events.map((event) => event.event)).toEqual(['ready', 'replaced']);
    const stillOpen = streams.slice(2).map(() => true);
    streams.slice(2).forEach((stream, index) => void stream.ended.then(() => (stillOpen[index] = false)));

    // The five left each hear the next change, once.
    const wallets = (await server.call('userGetWallets', { token: player.token })).body.data.wallets;
    await server.call('userSelectWallet', { token: player.token, body: { walletId: wallets[1].id } });
    for (const stream of streams.slice(2)) await stream.next((event) => event.event === 'wallets');
    expect(stillOpen).toEqual([true, true, true, true, true]);
    for (const stream of streams.slice(2)) expect(stream.events.map((event) => event.event)).toEqual(['ready', 'wallets']);
    for (const stream of streams) for (const event of stream.events) expect(checkEvent(event), `${event.event} ${event.data}`).toBeNull();
    for (const stream of streams) stream.close();
  });

  it("reads a change once for all of a player's streams, not once per stream", async () => {
    // The statement listWallets sends, as it sends it.
    let walletsStatement = '';
    await listWallets(
      {
        query: async <T extends object>(sql: string): Promise<T[]> => {
          walletsStatement = sql;
          return [];
        },
      },
      0,
    );
    const player = await registeredPlayer(server);
    const userId = player.user.id as number;
    const streams: Stream[] = [];
    for (let opened = 0; opened < 4; opened += 1) {
      const stream = await openStream(server, player.token);
      await stream.next((event) => event.event === 'ready');
      streams.push(stream);
    }
    const wallets = (await server.call('userGetWallets', { token: player.token })).body.data.wallets;
    const query = vi.spyOn(server.ctx.db, 'query');
    try {
      await server.call('userSelectWallet', { token: player.token, body: { walletId: wallets[1].id } });
      for (const stream of streams) await stream.next((event) => event.event === 'wallets');
      const reads = query.mock.calls.filter(([sql, params]) => sql === walletsStatement && params?.[0] === userId);
      expect(reads).toHaveLength(1);
    } finally {
      query.mockRestore();
    }
    for (const stream of streams) stream.close();
  });

  it('refuses a request without a valid token before any stream starts', async () => {
    const none = await server.call('userEvents');
    expect(none.status).toBe(401);
    expect(checkResponse('userEvents', 401, 'application/json', none.body)).toBeNull();
    const bad = await server.call('userEvents', { token: 'not-a-token' });
    expect(bad.status).toBe(401);
  });

  it('ends a stream when its session ends: the account made inactive, or a logout', async () => {
    const inactive = await registeredPlayer(server);
    const stream = await openStream(server, inactive.token);
    await stream.next((event) => event.event === 'ready');
    const other = await registeredPlayer(server);
    const bystander = await openStream(server, other.token);
    await bystander.next((event) => event.event === 'ready');
    const email = inactive.payload.email as string;
    expect((await server.call('devSetUserActive', { body: { email, active: false } })).status).toBe(200);
    await stream.ended;
    // Its money moving now reaches nobody; a new stream is refused with the reason.
    const again = await server.call('userEvents', { token: inactive.token });
    expect([again.status, again.body.errors[0].description]).toEqual([403, 'USER_INACTIVE']);
    expect((await server.call('devSetUserActive', { body: { email, active: true } })).status).toBe(200);

    // Logging out ends the stream of that session only.
    const login = await server.call('userLogin', { body: { email, password: inactive.payload.password } });
    const second = await server.call('userLogin', { body: { email, password: inactive.payload.password } });
    const kept = await openStream(server, login.body.data.accessToken as string);
    const ending = await openStream(server, second.body.data.accessToken as string);
    await kept.next((event) => event.event === 'ready');
    await ending.next((event) => event.event === 'ready');
    expect((await server.call('userLogout', { token: second.body.data.accessToken as string })).status).toBe(200);
    await ending.ended;
    const selected = (await server.call('userGetWallets', { token: login.body.data.accessToken as string })).body.data.wallets[1].id;
    await server.call('userSelectWallet', { token: login.body.data.accessToken as string, body: { walletId: selected } });
    await kept.next((event) => event.event === 'wallets');
    kept.close();

    // Another player's stream went on.
    expect(bystander.events.map((event) => event.event)).toEqual(['ready']);
    bystander.close();
  });

  it('ends a stream at the first keepalive after its session expires', async () => {
    const player = await registeredPlayer(server);
    const stream = await openStream(server, player.token);
    await stream.next((event) => event.event === 'ready');
    let ended = false;
    void stream.ended.then(() => (ended = true));
    // LIVE_KEEPALIVE_SECONDS=1 here: a keepalive comes, the stream goes on.
    for (let waited = 0; stream.keepalives() === 0 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stream.keepalives()).toBeGreaterThan(0);
    expect(ended).toBe(false);
    server.clock.advance(25 * 60 * 60_000);
    await stream.ended;
    server.clock.set(new Date());
  });

  it('ends at once a stream that starts once the server is stopping', async () => {
    const hub = new LiveHub(server.ctx.db);
    await hub.close();
    let ended = 0;
    hub.track(() => (ended += 1));
    expect([ended, hub.openStreams]).toEqual([1, 0]);
    await expect(hub.subscribe(1, () => undefined)).rejects.toThrow('the server is stopping');
  });

  it('ends the open streams when the server stops, without holding it', async () => {
    const own = await startTestServer();
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    const player = await registeredPlayer(own);
    const stream = await openStream(own, player.token);
    await stream.next((event) => event.event === 'ready');
    await own.close();
    await stream.ended;
  });
});

describe('two server instances on one database', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    const db = await createTestDb();
    first = await startTestServer({}, { db });
    second = await startTestServer({}, { db: await secondConnection(db) });
    await first.app.listen({ port: 0, host: '127.0.0.1' });
    await second.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await second.close();
    await second.db.close();
    await first.close();
    await first.db.close();
  });

  it("delivers a deposit confirmed through one to the player's stream held by the other", async () => {
    const player: Player = await registeredPlayer(first);
    const stream = await openStream(second, player.token);
    await stream.next((event) => event.event === 'ready');
    const address = await depositAddress(first, player);
    const txId = await chainTransfer(first, address, '0.5');
    const confirmed = await first.call('devChainConfirm', { body: { txId, confirmations: 6 } });
    expect(confirmed.body.data.transfer.settled).toBe(true);
    await stream.next((event, data) => event.event === 'deposit' && data.txId === txId && data.status === 'credited');
    await stream.next((event, data) => event.event === 'wallets' && ltc(data).available === '0.5');
    stream.close();
  });

  it("ends the player's stream held by the other when the account is made inactive through one", async () => {
    const player: Player = await registeredPlayer(first);
    const stream = await openStream(second, player.token);
    await stream.next((event) => event.event === 'ready');
    expect((await first.call('devSetUserActive', { body: { email: player.payload.email, active: false } })).status).toBe(200);
    await stream.ended;
  });
});
