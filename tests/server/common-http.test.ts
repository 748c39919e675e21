import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';
import { addNotification } from '../helpers/db.ts';

/**
 * Common data, notifications and the simulator's side doors through HTTP. The servers with other
 * settings (social login on, simulator off) share the first server's database.
 * tests/server/common.test.ts covers the domain functions themselves.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

type Player = Awaited<ReturnType<typeof registeredPlayer>>;

async function data(operationId: string, options: Parameters<TestServer['call']>[1] = {}, on: TestServer = server) {
  const res = await on.call(operationId, options);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body.errors[0].description).toBe(code);
}

/** A second server on the same database with other settings, closed after use. */
async function withServer(env: Record<string, string>, use: (other: TestServer) => Promise<void>) {
  const other = await startTestServer(env, { db: server.db });
  try {
    await use(other);
  } finally {
    await other.close();
  }
}

describe('site data', () => {
  it('reports health', async () => {
    expect(await data('getHealth')).toEqual({
      status: 'ok',
      database: server.db.kind,
      simulator: true,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
  });

  it('has the SPEC §9 settings, social login off by default', async () => {
    const { settings } = await data('commonGetSettings');
    expect(settings).toMatchObject({
      minDeposit: '0.00005',
      minWithdraw: '0.03',
      withdrawFee: '0.000006',
      maxTransferAmount: '10000',
      depositConfirmations: 6,
      maxUploadBytes: 5 * 1024 * 1024,
      documentRefetchMs: 500,
      requestTimeoutMs: 30_000,
      socialLogin: { googleClientId: null, facebookAppId: null },
      simulator: true,
    });
    expect(settings.siteName.length).toBeGreaterThan(0);
  });

  it('shows the social login ids that are configured', async () => {
    await withServer(
      { GOOGLE_CLIENT_ID: 'casino-test.apps.googleusercontent.com', FACEBOOK_APP_ID: '1234567890', FACEBOOK_APP_SECRET: 'fb-secret' },
      async (other) => {
        const { settings } = await data('commonGetSettings', {}, other);
        expect(settings.socialLogin).toEqual({ googleClientId: 'casino-test.apps.googleusercontent.com', facebookAppId: '1234567890' });
      },
    );
    // A Facebook app id without its secret cannot sign anyone in: the button stays hidden.
    await withServer({ FACEBOOK_APP_ID: '1234567890' }, async (other) => {
      const { settings } = await data('commonGetSettings', {}, other);
      expect(settings.socialLogin).toEqual({ googleClientId: null, facebookAppId: null });
    });
  });

  it('lists English (the default), Portuguese and Spanish', async () => {
    const { languages } = await data('commonGetLanguages');
    expect(languages.map((l: { code: string }) => l.code)).toEqual(['en', 'pt', 'es']);
    expect(languages.filter((l: { default: boolean }) => l.default).map((l: { code: string }) => l.code)).toEqual(['en']);
    expect(languages.find((l: { code: string }) => l.code === 'pt').nativeName).toBe('Português');
  });

  it('lists the enabled currencies, LTC first with the SPEC figures', async () => {
    const { currencies } = await data('commonGetCurrencies');
    expect(currencies[0]).toMatchObject({ code: 'LTC', minDeposit: '0.00005', minWithdraw: '0.03', withdrawFee: '0.000006', enabled: true });
    expect(currencies.length).toBeGreaterThan(1);
    for (const c of currencies) expect(c.enabled).toBe(true);
    expect(new Set(currencies.map((c: { code: string }) => c.code)).size).toBe(currencies.length);
  });

  it('serves the five pages per language, English by default and as the fallback', async () => {
    const slugs = ['faq', 'terms', 'privacy', 'about', 'support'];
    const en = (await data('commonGetPages')).pages;
    expect(en.map((p: { slug: string }) => p.slug)).toEqual(slugs);
    for (const p of en) expect(p.locale).toBe('en');
    expect((await data('commonGetPages', { query: { locale: 'en' } })).pages).toEqual(en);

    for (const locale of ['pt', 'es']) {
      const pages = (await data('commonGetPages', { query: { locale } })).pages;
      expect(pages.map((p: { slug: string }) => p.slug)).toEqual(slugs);
      for (const [i, p] of pages.entries()) {
        expect(p.locale).toBe(locale);
        expect(p.title).not.toBe(en[i].title);
      }
    }
    expectError(await server.call('commonGetPages', { query: { locale: 'de' } }), 400, 'PLEASE_CHECK_REQUEST_DATA');

    // A page missing in Portuguese comes in English; the others stay Portuguese.
    await server.db.query("DELETE FROM pages WHERE slug = 'support' AND locale = 'pt'");
    const pt = (await data('commonGetPages', { query: { locale: 'pt' } })).pages;
    expect(pt.map((p: { slug: string; locale: string }) => `${p.slug}:${p.locale}`)).toEqual([
      'faq:pt',
      'terms:pt',
      'privacy:pt',
      'about:pt',
      'support:en',
    ]);
    expect(pt[4]).toEqual(en[4]);
  });

  it('lists the banners in display order', async () => {
    const { banners } = await data('commonGetBanners');
    expect(banners.length).toBeGreaterThan(0);
    const orders = banners.map((b: { order: number }) => b.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    await server.db.query('UPDATE banners SET active = false WHERE id = $1', [banners[0].id]);
    const after = (await data('commonGetBanners')).banners;
    expect(after.map((b: { id: number }) => b.id)).toEqual(banners.slice(1).map((b: { id: number }) => b.id));
  });

  it('lists the countries by name, with phone codes and states', async () => {
    const { countries } = await data('commonGetCountries');
    expect(countries.length).toBeGreaterThan(200);
    const pt = countries.find((c: { code: string }) => c.code === 'PT');
    expect(pt).toMatchObject({ name: 'Portugal', phoneCode: '+351' });
    expect(pt.states.length).toBeGreaterThan(10);
    expect(pt.states).toContainEqual({ code: '11', name: 'Lisbon' });
    const names = countries.map((c: { name: string }) => c.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
  });

  it('lists the payment providers with the SPEC figures', async () => {
    const { paymentProviders } = await data('paymentGetProviders');
    const coinpayments = paymentProviders.find((p: { key: string }) => p.key === 'coinpayments');
    expect(coinpayments).toMatchObject({
      depositAllowed: true,
      withdrawAllowed: true,
      minDeposit: '0.00005',
      minWithdraw: '0.03',
      maxAmount: '10000',
      withdrawFee: '0.000006',
      confirmations: 6,
    });
    const currencies = (await data('commonGetCurrencies')).currencies.map((c: { code: string }) => c.code);
    expect(coinpayments.currencies).toEqual(currencies);
    expect(coinpayments.currencies[0]).toBe('LTC');
  });
});

describe('notifications', () => {
  let ana: Player;
  let bea: Player;
  const anaIds: number[] = [];
  let beaId = 0;

  beforeAll(async () => {
    ana = await registeredPlayer(server);
    bea = await registeredPlayer(server);
    for (let i = 1; i <= 30; i++) anaIds.push((await addNotification(server.db, ana.user.id, `Title ${i}`, `Message ${i}`)).id);
    beaId = (await addNotification(server.db, bea.user.id, 'For Bea', 'Only for Bea')).id;
  });

  const list = async (token: string, query: Record<string, number> = {}) => data('commonGetUserNotifications', { token, query });

  it('lists my notifications newest first, paged, with the unread count', async () => {
    const first = await list(ana.token);
    expect(first.notifications.count).toBe(30);
    expect(first.unreadCount).toBe(30);
    expect(first.notifications.rows).toHaveLength(24);
    expect(first.notifications.rows[0]).toEqual({
      id: anaIds[29],
      title: 'Title 30',
      message: 'Message 30',
      read: false,
      createdAt: expect.any(String),
    });
    const second = await list(ana.token, { page: 2 });
    expect(second.notifications.rows.map((n: { title: string }) => n.title)).toEqual([6, 5, 4, 3, 2, 1].map((i) => `Title ${i}`));
    const all = [...first.notifications.rows, ...second.notifications.rows].map((n: { id: number }) => n.id);
    expect(all).toEqual([...anaIds].reverse());

    const small = await list(ana.token, { page: 3, limit: 5 });
    expect(small.notifications.rows.map((n: { title: string }) => n.title)).toEqual([20, 19, 18, 17, 16].map((i) => `Title ${i}`));
    expect(small.notifications.count).toBe(30);

    const theirs = await list(bea.token);
    expect(theirs.notifications.rows.map((n: { id: number }) => n.id)).toEqual([beaId]);
    expect(theirs.unreadCount).toBe(1);

    expectError(await server.call('commonGetUserNotifications'), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
    expectError(await server.call('commonGetUserNotifications', { token: ana.token, query: { limit: 101 } }), 400, 'PLEASE_CHECK_REQUEST_DATA');
  });

  it('marks only my own notifications as read', async () => {
    const mark = (token: string, notificationIds: number[]) => data('commonMarkNotificationsRead', { token, body: { notificationIds } });
    expect(await mark(ana.token, [anaIds[29]!, anaIds[0]!, beaId, 999999999])).toEqual({ success: true });

    const mine = await list(ana.token, { limit: 100 });
    expect(mine.unreadCount).toBe(28);
    const read = mine.notifications.rows.filter((n: { read: boolean }) => n.read).map((n: { id: number }) => n.id);
    expect(read).toEqual([anaIds[29], anaIds[0]]);

    // Bea's notification is untouched, and she can still mark it herself.
    expect((await list(bea.token)).unreadCount).toBe(1);
    expect(await mark(bea.token, [beaId])).toEqual({ success: true });
    expect((await list(bea.token)).notifications.rows[0].read).toBe(true);

    // Already read: ignored.
    expect(await mark(ana.token, [anaIds[29]!])).toEqual({ success: true });
    expect((await list(ana.token)).unreadCount).toBe(28);

    for (const notificationIds of [[], [anaIds[1], anaIds[1]], [0]]) {
      expectError(await server.call('commonMarkNotificationsRead', { token: ana.token, body: { notificationIds } }), 400, 'PLEASE_CHECK_REQUEST_DATA');
    }
    expectError(await server.call('commonMarkNotificationsRead', { body: { notificationIds: [beaId] } }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
    expect((await list(ana.token)).unreadCount).toBe(28);
  });
});

describe('simulator', () => {
  let player: Player;
  beforeAll(async () => {
    player = await registeredPlayer(server);
  });

  it('shows the mailbox of an address, newest first', async () => {
    const { messages } = await data('devGetMailbox', { query: { to: player.payload.email.toUpperCase() } });
    expect(messages.length).toBeGreaterThan(0);
    expect(messages[0].to.toLowerCase()).toBe(player.payload.email.toLowerCase());
    const verification = messages.find((m: { links: string[] }) => m.links.some((l) => l.includes('token=')));
    expect(verification).toBeDefined();
    expect(verification.links[0]).toMatch(/^http:\/\/casino\.test\//);
    const times = messages.map((m: { sentAt: string }) => Date.parse(m.sentAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    expect((await data('devGetMailbox', { query: { to: 'nobody@example.com' } })).messages).toEqual([]);
    expectError(await server.call('devGetMailbox', { query: { to: 'not an email' } }), 400, 'PLEASE_CHECK_REQUEST_DATA');
  });

  it('deactivates and reactivates a user', async () => {
    expect(await data('devSetUserActive', { body: { email: player.payload.email, active: false } })).toEqual({ success: true });
    expectError(await server.call('userGetUser', { token: player.token }), 403, 'USER_INACTIVE');
    const login = () => server.call('userLogin', { body: { email: player.payload.email, password: player.payload.password } });
    expectError(await login(), 403, 'USER_INACTIVE');

    expect(await data('devSetUserActive', { body: { email: player.payload.email.toUpperCase(), active: true } })).toEqual({ success: true });
    // The inactivation ended the session; the player logs in anew.
    expectError(await server.call('userGetUser', { token: player.token }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
    const again = await login();
    expect(again.status).toBe(200);
    player = { ...player, token: again.body.data.accessToken as string };

    expectError(await server.call('devSetUserActive', { body: { email: 'nobody@example.com', active: false } }), 404, 'USER_DOES_NOT_EXISTS');
  });

  it('refuses to review a document that does not exist', async () => {
    expectError(await server.call('devReviewDocument', { body: { documentId: 999999999, status: 'Approved' } }), 404, 'NOT_FOUND');
    expectError(await server.call('devReviewDocument', { body: { documentId: 1, status: 'Maybe' } }), 400, 'PLEASE_CHECK_REQUEST_DATA');
  });

  it('does not exist with the simulator off', async () => {
    await withServer({ SIMULATOR: 'off' }, async (off) => {
      expect((await data('getHealth', {}, off)).simulator).toBe(false);
      expect((await data('commonGetSettings', {}, off)).settings.simulator).toBe(false);

      const calls: [string, Parameters<TestServer['call']>[1]][] = [
        ['devGetMailbox', { query: { to: player.payload.email } }],
        ['devSetUserActive', { body: { email: player.payload.email, active: false } }],
        ['devReviewDocument', { body: { documentId: 1, status: 'Approved' } }],
        // As if they did not exist: whatever they are sent.
        ['devGetMailbox', {}],
        ['devSetUserActive', { body: { email: 'x' } }],
        ['devReviewDocument', { raw: { payload: 'hello', contentType: 'text/plain' } }],
      ];
      for (const [operationId, options] of calls) {
        const res = await off.call(operationId, options);
        expect([operationId, res.status, res.body.errors?.[0]?.description]).toEqual([operationId, 404, 'NOT_FOUND']);
      }
      // The account was not deactivated.
      expect((await server.call('userGetUser', { token: player.token })).status).toBe(200);
    });
  });
});
