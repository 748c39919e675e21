import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { renderThumbnail } from '../../server/domain/casino.ts';
import { registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';

/**
 * The casino operations through HTTP: catalogue (providers, categories, sub-categories), the paged game
 * listing with filters, search and per-player favourites, game launch (real and demo) and thumbnails.
 * tests/server/casino.test.ts covers the domain functions themselves.
 */

let server: TestServer;
type Player = Awaited<ReturnType<typeof registeredPlayer>>;
let ana: Player;
let bea: Player;

/** Games added for these tests, with names no generated game has. */
const fixtures = {
  tom: 0, // 'Tom & <Jerry>': escaping, search
  noDemo: 0, // 'Qwxyz Vault': without a demo
  mobile: 0, // 'Qwxyz Pocket': mobile only
  inactive: 0, // 'Qwxyz Retired': not active
};

async function addGame(name: string, options: { hasDemo?: boolean; devices?: string[]; active?: boolean } = {}) {
  const rows = await server.db.query<{ id: number }>(
    `INSERT INTO games (identifier, name, slug, provider_id, category_id, sub_category_id, has_demo, devices, active, sort_order)
     SELECT $1, $2, $1, (SELECT id FROM providers WHERE slug = 'nebula-reels'), c.id, s.id, $3, $4, $5, 1
     FROM categories c JOIN sub_categories s ON s.category_id = c.id AND s.slug = 'video' WHERE c.slug = 'slots'
     RETURNING id`,
    [`http-fixture-${name.toLowerCase().replace(/[^a-z]+/g, ' ').trim().replace(/ /g, '-')}`, name, options.hasDemo ?? true, options.devices ?? ['desktop', 'mobile'], options.active ?? true],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('game not created');
  return id;
}

beforeAll(async () => {
  server = await startTestServer();
  fixtures.tom = await addGame('Tom & <Jerry>');
  fixtures.noDemo = await addGame('Qwxyz Vault', { hasDemo: false });
  fixtures.mobile = await addGame('Qwxyz Pocket', { devices: ['mobile'] });
  fixtures.inactive = await addGame('Qwxyz Retired', { active: false });
  ana = await registeredPlayer(server);
  bea = await registeredPlayer(server);
});
afterAll(async () => server.close());

async function games(query: Record<string, string | number | undefined> = {}, token?: string | null) {
  const res = await server.call('casinoGetAllGames', { query, token });
  expect(res.status).toBe(200);
  return res.body.data.casinoGames as { rows: any[]; count: number };
}

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body.errors[0].description).toBe(code);
}

describe('catalogue', () => {
  it('lists providers with active games, by name, their counts adding up to the game total', async () => {
    const res = await server.call('casinoGetProviders');
    expect(res.status).toBe(200);
    const providers = res.body.data.providers as { id: number; name: string; slug: string; gameCount: number }[];
    expect(providers.length).toBeGreaterThanOrEqual(8);
    const names = providers.map((p) => p.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    for (const p of providers) expect(p.gameCount).toBeGreaterThan(0);
    const total = (await games()).count;
    expect(providers.reduce((sum, p) => sum + p.gameCount, 0)).toBe(total);
    // The inactive fixture is not counted.
    const nebula = providers.find((p) => p.slug === 'nebula-reels');
    const nebulaGames = await games({ providerId: nebula?.id, limit: 1 });
    expect(nebula?.gameCount).toBe(nebulaGames.count);
  });

  it('lists the SPEC categories in display order', async () => {
    const res = await server.call('casinoGetCategories');
    expect(res.status).toBe(200);
    const categories = res.body.data.categories as { name: string; slug: string; order: number }[];
    expect(categories.map((c) => c.slug)).toEqual(['slots', 'table-games', 'blackjack', 'poker', 'live-casino', 'video-poker', 'sports', 'originals']);
    expect(categories.map((c) => c.order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('lists sub-categories, all or of one category', async () => {
    const categories = (await server.call('casinoGetCategories')).body.data.categories as { id: number; slug: string }[];
    const all = (await server.call('casinoGetSubCategories')).body.data.subCategories as { categoryId: number; slug: string }[];
    expect(all.length).toBe(18);
    // In category order.
    const categoryOrder = all.map((s) => categories.findIndex((c) => c.id === s.categoryId));
    expect(categoryOrder).toEqual([...categoryOrder].sort((a, b) => a - b));

    const tableGames = categories.find((c) => c.slug === 'table-games');
    const res = await server.call('casinoGetSubCategories', { query: { categoryId: tableGames?.id } });
    expect(res.status).toBe(200);
    expect(res.body.data.subCategories.map((s: { slug: string }) => s.slug)).toEqual(['roulette', 'baccarat', 'dice']);
    for (const s of res.body.data.subCategories) expect(s.categoryId).toBe(tableGames?.id);

    const unknown = await server.call('casinoGetSubCategories', { query: { categoryId: 999999 } });
    expect(unknown.status).toBe(200);
    expect(unknown.body.data.subCategories).toEqual([]);
    expect((await server.call('casinoGetSubCategories', { query: { categoryId: 'slots' } })).status).toBe(400);
    expect((await server.call('casinoGetSubCategories', { query: { categoryId: 0 } })).status).toBe(400);
  });
});

describe('game listing', () => {
  it('pages with page 1 and 24 rows by default, and a total count', async () => {
    const first = await games();
    expect(first.rows).toHaveLength(24);
    expect(first.count).toBeGreaterThan(100);
    expect(await games({ page: 1, limit: 24 })).toEqual(first);

    const second = await games({ page: 2 });
    expect(second.count).toBe(first.count);
    const firstIds = new Set(first.rows.map((g) => g.id));
    expect(second.rows.some((g) => firstIds.has(g.id))).toBe(false);

    // Pages of 10 line up with pages of 24.
    const tens = [...(await games({ page: 1, limit: 10 })).rows, ...(await games({ page: 2, limit: 10 })).rows, ...(await games({ page: 3, limit: 10 })).rows];
    expect(tens.slice(0, 24).map((g) => g.id)).toEqual(first.rows.map((g) => g.id));

    const lastPage = Math.ceil(first.count / 100);
    const last = await games({ page: lastPage, limit: 100 });
    expect(last.rows).toHaveLength(first.count - (lastPage - 1) * 100);
    expect((await games({ page: lastPage + 1, limit: 100 })).rows).toEqual([]);

    for (const query of [{ page: 0 }, { limit: 0 }, { limit: 101 }, { page: 'x' }, { limit: '1e1' }]) {
      expectError(await server.call('casinoGetAllGames', { query }), 400, 'PLEASE_CHECK_REQUEST_DATA');
    }
  });

  it('orders by popularity, then name', async () => {
    const { rows } = await games({ limit: 100 });
    // The fixtures have the top sort order: they come first, by name.
    expect(rows.slice(0, 3).map((g) => g.name)).toEqual(['Qwxyz Pocket', 'Qwxyz Vault', 'Tom & <Jerry>']);
    expect(rows.some((g) => g.id === fixtures.inactive)).toBe(false);
  });

  it('filters by category, sub-category, provider and device', async () => {
    const total = (await games()).count;
    const categories = (await server.call('casinoGetCategories')).body.data.categories as { id: number; slug: string }[];
    const live = categories.find((c) => c.slug === 'live-casino');
    const byCategory = await games({ categoryId: live?.id, limit: 100 });
    expect(byCategory.count).toBeGreaterThan(0);
    expect(byCategory.count).toBeLessThan(total);
    for (const g of byCategory.rows) expect(g.categoryId).toBe(live?.id);

    const subCategories = (await server.call('casinoGetSubCategories', { query: { categoryId: live?.id } })).body.data.subCategories;
    const sub = subCategories[0];
    const bySub = await games({ subCategoryId: sub.id, limit: 100 });
    expect(bySub.count).toBeGreaterThan(0);
    expect(bySub.count).toBeLessThan(byCategory.count);
    for (const g of bySub.rows) expect(g.subCategoryId).toBe(sub.id);

    const providers = (await server.call('casinoGetProviders')).body.data.providers as { id: number; gameCount: number }[];
    const provider = providers[0];
    const byProvider = await games({ providerId: provider?.id, limit: 100 });
    expect(byProvider.count).toBe(provider?.gameCount);
    for (const g of byProvider.rows) expect(g.providerId).toBe(provider?.id);

    // Filters combine.
    const combined = await games({ categoryId: live?.id, providerId: provider?.id, limit: 100 });
    for (const g of combined.rows) expect([g.categoryId, g.providerId]).toEqual([live?.id, provider?.id]);

    const desktop = await games({ device: 'desktop', limit: 100 });
    const mobile = await games({ device: 'mobile', limit: 100 });
    for (const g of desktop.rows) expect(g.devices).toContain('desktop');
    for (const g of mobile.rows) expect(g.devices).toContain('mobile');
    expect(desktop.count).toBeLessThan(total);
    expect(mobile.count).toBeLessThan(total);
    expect(mobile.rows.some((g) => g.id === fixtures.mobile)).toBe(true);
    expect(desktop.rows.some((g) => g.id === fixtures.mobile)).toBe(false);
    expectError(await server.call('casinoGetAllGames', { query: { device: 'tv' } }), 400, 'PLEASE_CHECK_REQUEST_DATA');

    const none = await games({ categoryId: 999999 });
    expect(none).toEqual({ rows: [], count: 0 });
  });

  it('searches game and provider names, case-insensitively and literally', async () => {
    const tom = await games({ search: 'tom & <JERRY' });
    expect(tom.count).toBe(1);
    expect(tom.rows[0]).toMatchObject({
      id: fixtures.tom,
      name: 'Tom & <Jerry>',
      thumbnailUrl: `/api/v1/casino/thumbnail/${fixtures.tom}`,
      isFavorite: false,
    });

    const qwxyz = await games({ search: 'QWXYZ' });
    expect(qwxyz.rows.map((g) => g.name)).toEqual(['Qwxyz Pocket', 'Qwxyz Vault']);
    expect(qwxyz.count).toBe(2);
    // The search combines with the other filters.
    expect((await games({ search: 'qwxyz', device: 'desktop' })).rows.map((g) => g.name)).toEqual(['Qwxyz Vault']);

    const byProvider = await games({ search: 'nebula reels', limit: 5 });
    expect(byProvider.count).toBeGreaterThan(2);
    for (const g of byProvider.rows) expect(g.providerName).toBe('Nebula Reels');

    // Wildcards match literally.
    expect(await games({ search: '%' })).toEqual({ rows: [], count: 0 });
    expect(await games({ search: 'qwxyz_v' })).toEqual({ rows: [], count: 0 });
    // Blank is no search.
    expect((await games({ search: '   ' })).count).toBe((await games()).count);
    expectError(await server.call('casinoGetAllGames', { query: { search: 'x'.repeat(101) } }), 400, 'PLEASE_CHECK_REQUEST_DATA');
  });
});

describe('favourites', () => {
  it('toggles a favourite on and off, for the player only', async () => {
    const on = await server.call('casinoToggleFavoriteGame', { token: ana.token, body: { gameId: fixtures.tom } });
    expect(on.status).toBe(200);
    expect(on.body.data).toEqual({ gameId: fixtures.tom, isFavorite: true });

    const search = { search: 'tom & <jerry' };
    expect((await games(search, ana.token)).rows[0].isFavorite).toBe(true);
    expect((await games(search, bea.token)).rows[0].isFavorite).toBe(false);
    expect((await games(search)).rows[0].isFavorite).toBe(false);
    // An unusable token is ignored: the listing answers as for a visitor.
    expect((await games(search, 'garbage')).rows[0].isFavorite).toBe(false);
    expect((await games(search, `${ana.token}x`)).rows[0].isFavorite).toBe(false);

    const off = await server.call('casinoToggleFavoriteGame', { token: ana.token, body: { gameId: fixtures.tom } });
    expect(off.body.data).toEqual({ gameId: fixtures.tom, isFavorite: false });
    expect((await games(search, ana.token)).rows[0].isFavorite).toBe(false);
  });

  it('refuses unknown and inactive games', async () => {
    for (const gameId of [999999999, fixtures.inactive]) {
      const res = await server.call('casinoToggleFavoriteGame', { token: ana.token, body: { gameId } });
      expectError(res, 404, 'GAME_NOT_FOUND_ERROR');
    }
    expectError(await server.call('casinoToggleFavoriteGame', { token: ana.token, body: { gameId: 0 } }), 400, 'PLEASE_CHECK_REQUEST_DATA');
    expectError(await server.call('casinoToggleFavoriteGame', { body: { gameId: fixtures.tom } }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
  });

  it('lists only my favourites, most recently added first', async () => {
    const favourites = async (token: string) => {
      const res = await server.call('casinoGetFavoriteGames', { token });
      expect(res.status).toBe(200);
      return res.body.data.casinoGames as { rows: any[]; count: number };
    };
    expect(await favourites(ana.token)).toEqual({ rows: [], count: 0 });

    await server.call('casinoToggleFavoriteGame', { token: ana.token, body: { gameId: fixtures.noDemo } });
    await server.call('casinoToggleFavoriteGame', { token: ana.token, body: { gameId: fixtures.tom } });
    await server.call('casinoToggleFavoriteGame', { token: bea.token, body: { gameId: fixtures.mobile } });

    const mine = await favourites(ana.token);
    expect(mine.count).toBe(2);
    expect(mine.rows.map((g) => g.id)).toEqual([fixtures.tom, fixtures.noDemo]);
    for (const g of mine.rows) expect(g.isFavorite).toBe(true);
    const theirs = await favourites(bea.token);
    expect(theirs.rows.map((g) => g.id)).toEqual([fixtures.mobile]);

    const paged = await server.call('casinoGetFavoriteGames', { token: ana.token, query: { page: 2, limit: 1 } });
    expect(paged.body.data.casinoGames.count).toBe(2);
    expect(paged.body.data.casinoGames.rows.map((g: { id: number }) => g.id)).toEqual([fixtures.noDemo]);

    // Removing one leaves the other.
    await server.call('casinoToggleFavoriteGame', { token: ana.token, body: { gameId: fixtures.tom } });
    expect((await favourites(ana.token)).rows.map((g) => g.id)).toEqual([fixtures.noDemo]);

    // The listing marks the same games for the same player.
    const listed = await games({ search: 'qwxyz' }, bea.token);
    expect(listed.rows.filter((g) => g.isFavorite).map((g) => g.id)).toEqual([fixtures.mobile]);

    expectError(await server.call('casinoGetFavoriteGames'), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
  });
});

describe('game launch', () => {
  it('opens a real-money session in the selected wallet currency', async () => {
    const before = server.clock.now().getTime();
    const res = await server.call('casinoInitGame', { token: ana.token, body: { gameId: fixtures.tom } });
    expect(res.status).toBe(200);
    const session = res.body.data.gameSession;
    expect(session).toMatchObject({ gameId: fixtures.tom, demo: false, currencyCode: 'LTC' });
    expect(session.sessionId).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(session.launchUrl).toContain(session.sessionId);
    expect(Date.parse(session.expiresAt)).toBeGreaterThan(before);

    const again = await server.call('casinoInitGame', { token: ana.token, body: { gameId: fixtures.tom } });
    expect(again.body.data.gameSession.sessionId).not.toBe(session.sessionId);

    // Another selected wallet: its currency.
    const wallets = (await server.call('userGetWallets', { token: ana.token })).body.data.wallets as {
      id: number;
      currencyCode: string;
      selected: boolean;
    }[];
    expect(wallets.find((w) => w.selected)?.currencyCode).toBe('LTC');
    const other = wallets.find((w) => !w.selected);
    expect(other).toBeDefined();
    const select = await server.call('userSelectWallet', { token: ana.token, body: { walletId: other?.id } });
    expect(select.status).toBe(200);
    const switched = await server.call('casinoInitGame', { token: ana.token, body: { gameId: fixtures.tom } });
    expect(switched.body.data.gameSession.currencyCode).toBe(other?.currencyCode);
    // An explicit currency wins.
    const explicit = await server.call('casinoInitGame', { token: ana.token, body: { gameId: fixtures.tom, currencyCode: 'LTC' } });
    expect(explicit.body.data.gameSession.currencyCode).toBe('LTC');
  });

  it('refuses unknown games, other devices, unknown currencies and visitors', async () => {
    expectError(await server.call('casinoInitGame', { token: ana.token, body: { gameId: 999999999 } }), 404, 'GAME_NOT_FOUND_ERROR');
    expectError(await server.call('casinoInitGame', { token: ana.token, body: { gameId: fixtures.inactive } }), 404, 'GAME_NOT_FOUND_ERROR');
    expectError(
      await server.call('casinoInitGame', { token: ana.token, body: { gameId: fixtures.mobile, device: 'desktop' } }),
      404,
      'GAME_NOT_FOUND_ERROR',
    );
    expect((await server.call('casinoInitGame', { token: ana.token, body: { gameId: fixtures.mobile, device: 'mobile' } })).status).toBe(200);
    expectError(
      await server.call('casinoInitGame', { token: ana.token, body: { gameId: fixtures.tom, currencyCode: 'XYZ' } }),
      422,
      'CURRENCY_NOT_AVAILABLE',
    );
    expectError(await server.call('casinoInitGame', { body: { gameId: fixtures.tom } }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
    expectError(await server.call('casinoInitGame', { token: 'garbage', body: { gameId: fixtures.tom } }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
  });

  it('opens a demo session without a login, for games with a demo', async () => {
    const res = await server.call('casinoInitGameDemo', { body: { gameId: fixtures.tom } });
    expect(res.status).toBe(200);
    const session = res.body.data.gameSession;
    expect(session).toMatchObject({ gameId: fixtures.tom, demo: true, currencyCode: null });
    expect(session.sessionId).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(session.launchUrl).toContain(session.sessionId);
    expect(Date.parse(session.expiresAt)).toBeGreaterThan(server.clock.now().getTime());

    expectError(await server.call('casinoInitGameDemo', { body: { gameId: fixtures.noDemo } }), 404, 'GAME_NOT_FOUND_ERROR');
    expectError(await server.call('casinoInitGameDemo', { body: { gameId: 999999999 } }), 404, 'GAME_NOT_FOUND_ERROR');
    expectError(
      await server.call('casinoInitGameDemo', { body: { gameId: fixtures.mobile, device: 'desktop' } }),
      404,
      'GAME_NOT_FOUND_ERROR',
    );
    expectError(await server.call('casinoInitGameDemo', { body: {} }), 400, 'PLEASE_CHECK_REQUEST_DATA');
  });
});

describe('thumbnails', () => {
  it('serves an SVG with the game name escaped', async () => {
    const res = await server.call('casinoGetGameThumbnail', { params: { gameId: fixtures.tom } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const svg = res.rawPayload.toString('utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('Tom &amp; &lt;Jerry&gt;');
    expect(svg).not.toContain('<Jerry>');
    expect(svg).toContain('Nebula Reels');
  });

  it('draws the lettering as outlines, and sends the cover gzipped to a browser that takes it', async () => {
    const plain = await server.call('casinoGetGameThumbnail', { params: { gameId: fixtures.noDemo } });
    const svg = plain.rawPayload.toString('utf8');
    // 'Qwxyz Vault' and 'Nebula Reels': Latin letters the cover font has, so no SVG text to lay out.
    expect(svg).toContain('<title>Qwxyz Vault · Nebula Reels</title>');
    expect(svg).not.toContain('<text');
    expect(svg.match(/<path d="M/g)).toHaveLength(2);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const zipped = await server.call('casinoGetGameThumbnail', { params: { gameId: fixtures.noDemo }, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(svg.length / 2);
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(svg);
  });

  it('draws a game again once it is renamed, recoloured or its provider renamed, and the same cover for the same game', async () => {
    const gameId = await addGame('Qwxyz Canvas');
    const cover = async () => (await server.call('casinoGetGameThumbnail', { params: { gameId } })).rawPayload.toString('utf8');
    const first = await cover();
    expect(await cover()).toBe(first);
    expect(first).toContain('<title>Qwxyz Canvas · Nebula Reels</title>');
    await server.db.query("UPDATE games SET name = 'Qwxyz Canvas Deluxe' WHERE id = $1", [gameId]);
    const renamed = await cover();
    expect(renamed).toContain('<title>Qwxyz Canvas Deluxe · Nebula Reels</title>');
    await server.db.query('UPDATE games SET thumbnail_hue = (thumbnail_hue + 90) % 360 WHERE id = $1', [gameId]);
    const recoloured = await cover();
    expect(recoloured).not.toBe(renamed);
    expect(recoloured).toContain('<title>Qwxyz Canvas Deluxe · Nebula Reels</title>');
    const { provider_id: providerId, name } = (await server.db.query<{ provider_id: number; name: string }>(
      'SELECT p.id AS provider_id, p.name FROM games g JOIN providers p ON p.id = g.provider_id WHERE g.id = $1',
      [gameId],
    ))[0]!;
    await server.db.query('UPDATE providers SET name = $2 WHERE id = $1', [providerId, 'Nebula Reels Two']);
    try {
      expect(await cover()).toContain('<title>Qwxyz Canvas Deluxe · Nebula Reels Two</title>');
    } finally {
      await server.db.query('UPDATE providers SET name = $2 WHERE id = $1', [providerId, name]);
    }
  });

  it('writes as SVG text a line the cover font cannot draw', () => {
    const svg = renderThumbnail({ name: '麻将 Mahjong', providerName: 'Nebula Reels', thumbnailHue: 10 });
    expect(svg).toContain('>麻将 Mahjong</text>');
    expect(svg.match(/<path d="M/g)).toHaveLength(1);
  });

  it('answers 404 for unknown and inactive games', async () => {
    for (const gameId of [999999999, fixtures.inactive]) {
      const res = await server.call('casinoGetGameThumbnail', { params: { gameId } });
      expectError(res, 404, 'GAME_NOT_FOUND_ERROR');
    }
    expectError(await server.call('casinoGetGameThumbnail', { params: { gameId: 'abc' } }), 400, 'PLEASE_CHECK_REQUEST_DATA');
  });
});

describe('signing in where it is optional', () => {
  it('checks a token once a request, and a bad one leaves a visitor', async () => {
    const tokens = server.ctx.tokens;
    const verify = tokens.verify.bind(tokens);
    let checks = 0;
    tokens.verify = async (...args) => {
      checks += 1;
      return verify(...args);
    };
    try {
      await server.call('casinoToggleFavoriteGame', { token: ana.token, body: { gameId: await addGame('Qwxyz Optional') } });
      checks = 0;
      expect((await games({ search: 'qwxyz optional' }, ana.token)).rows[0].isFavorite).toBe(true);
      expect(checks).toBe(1);
      checks = 0;
      expect((await games({ search: 'qwxyz optional' }, 'not-a-token')).rows[0].isFavorite).toBe(false);
      expect(checks).toBe(1);
      checks = 0;
      await games({ search: 'qwxyz optional' });
      expect(checks).toBe(0);
    } finally {
      tokens.verify = verify;
    }
  });
});

describe('with an expired session', () => {
  it('lists games as for a visitor', async () => {
    await server.call('casinoToggleFavoriteGame', { token: bea.token, body: { gameId: fixtures.tom } });
    expect((await games({ search: 'tom & <jerry' }, bea.token)).rows[0].isFavorite).toBe(true);
    server.clock.advance(25 * 60 * 60_000);
    expectError(await server.call('casinoGetFavoriteGames', { token: bea.token }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
    const res = await server.call('casinoGetAllGames', { query: { search: 'tom & <jerry' }, token: bea.token });
    expect(res.status).toBe(200);
    expect(res.body.data.casinoGames.rows[0].isFavorite).toBe(false);
  });
});
