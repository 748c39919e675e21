import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/db.ts';
import { CATEGORY_SEED, HOUSE_GAMES, HOUSE_PROVIDER, PROVIDER_SEED, generateGame, seedGames } from '../../server/db/seed.ts';
import {
  CurrencyNotAvailableError,
  DemoNotAvailableError,
  GAME_SESSION_TTL_MS,
  GameNotFoundError,
  GameNotOnDeviceError,
  LoginRequiredError,
  createGameSession,
  escapeLike,
  getGame,
  getGameSession,
  listCategories,
  listGames,
  listProviders,
  listSubCategories,
  renderThumbnail,
  toggleFavorite,
  wrapTitle,
  type GameListRow,
  type ListGamesOptions,
} from '../../server/domain/casino.ts';
import { createTestDb, useRollbackDb } from '../helpers/db.ts';

// Each test runs inside a transaction rolled back after it, on one database per describe block (tests
// without one are at the end); the few that a transaction would change get a fresh database each.
let db: Db;
function useTestDb(): void {
  const current = useRollbackDb();
  beforeEach(() => {
    db = current();
  });
}
function useFreshDb(): void {
  beforeEach(async () => {
    db = await createTestDb();
  });
  afterEach(async () => {
    await db.close();
  });
}

let userSeq = 0;
async function createUser(): Promise<number> {
  userSeq += 1;
  const rows = await db.query<{ id: number }>(
    `INSERT INTO users (email, username, referral_code) VALUES ($1, $2, $3) RETURNING id`,
    [`casino${userSeq}@example.com`, `casino${userSeq}`, `REFCASINO${userSeq}`],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('user not created');
  return id;
}

interface Fixture {
  name: string;
  hasDemo?: boolean;
  devices?: string[];
  active?: boolean;
  sortOrder?: number;
}

/** Adds games with chosen names to the first slots sub-category of the first provider. */
async function addGames(fixtures: Fixture[]): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, f] of fixtures.entries()) {
    const rows = await db.query<{ id: number }>(
      `INSERT INTO games (identifier, name, slug, provider_id, category_id, sub_category_id, has_demo, devices, active, sort_order)
       SELECT $1, $2, $3, (SELECT id FROM providers ORDER BY id LIMIT 1), c.id, s.id, $4, $5, $6, $7
       FROM categories c JOIN sub_categories s ON s.category_id = c.id AND s.slug = 'video' WHERE c.slug = 'slots'
       RETURNING id`,
      [`fixture-${i}-${f.name}`, f.name, `fixture-${i}`, f.hasDemo ?? true, f.devices ?? ['desktop', 'mobile'], f.active ?? true, f.sortOrder ?? 50_000],
    );
    const id = rows[0]?.id;
    if (id === undefined) throw new Error('game not created');
    ids.push(id);
  }
  return ids;
}

/** Every row of a listing, page by page. */
async function allPages(options: Omit<ListGamesOptions, 'page'>): Promise<{ rows: GameListRow[]; counts: number[] }> {
  const rows: GameListRow[] = [];
  const counts: number[] = [];
  for (let page = 1; page < 1000; page++) {
    const result = await listGames(db, { ...options, page });
    counts.push(result.count);
    if (result.rows.length === 0) break;
    rows.push(...result.rows);
  }
  return { rows, counts };
}

/** The reference catalogue: 300 generated games and the house's own. */
const CATALOGUE = 300 + HOUSE_GAMES.length;

async function countWhere(sql: string, params: unknown[] = []): Promise<number> {
  const rows = await db.query<{ count: number }>(`SELECT count(*) AS count FROM games g WHERE g.active AND ${sql}`, params);
  return rows[0]?.count ?? -1;
}

describe('catalogue', () => {
  useTestDb();

  it('lists providers with their active game counts, by name', async () => {
    const providers = await listProviders(db);
    expect(providers.map((p) => p.slug).sort()).toEqual([...PROVIDER_SEED, HOUSE_PROVIDER].map((p) => p.slug).sort());
    expect(providers.map((p) => p.name)).toEqual([...providers.map((p) => p.name)].sort());
    expect(providers.reduce((acc, p) => acc + p.gameCount, 0)).toBe(CATALOGUE);
    for (const p of providers) expect(p.logoUrl).toBeNull();
    // Invented names only.
    for (const p of providers) expect(p.name).not.toMatch(/NetEnt|Pragmatic|Evolution|Microgaming|Playtech|Play'n GO/i);

    const first = providers[0];
    if (!first) throw new Error('no providers');
    await db.query('UPDATE games SET active = false WHERE provider_id = $1', [first.id]);
    expect((await listProviders(db)).map((p) => p.id)).not.toContain(first.id);
  });

  it('lists the SPEC §1 categories in order, with their sub-categories', async () => {
    const categories = await listCategories(db);
    expect(categories.map((c) => c.slug)).toEqual([
      'slots',
      'table-games',
      'blackjack',
      'poker',
      'live-casino',
      'video-poker',
      'sports',
      'originals',
    ]);
    expect(categories.map((c) => c.order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const slots = categories[0];
    if (!slots) throw new Error('no slots');
    expect((await listSubCategories(db, slots.id)).map((s) => s.slug)).toEqual(['classic', 'video', 'megaways', 'jackpot']);
    const live = categories.find((c) => c.slug === 'live-casino');
    expect((await listSubCategories(db, live?.id)).map((s) => s.name)).toEqual(['Live Blackjack', 'Live Roulette', 'Game Shows']);
    const all = await listSubCategories(db);
    expect(all.length).toBe(CATEGORY_SEED.reduce((acc, c) => acc + c.subCategories.length, 0));
    expect(all[0]?.categoryId).toBe(slots.id);
    expect(await listSubCategories(db, 999_999)).toEqual([]);
  });

});

describe('listGames', () => {
  useTestDb();

  it('pages through every active game once, in (sort_order, name, id) order', async () => {
    const limit = 7;
    const { rows, counts } = await allPages({ limit });
    const total = await countWhere('true');
    expect(total).toBe(CATALOGUE);
    expect(new Set(counts)).toEqual(new Set([total]));
    expect(rows.length).toBe(total);
    expect(new Set(rows.map((r) => r.id)).size).toBe(total);
    expect(counts.length).toBe(Math.ceil(total / limit) + 1); // the last call is the empty page after the end

    const expected = await db.query<{ id: number }>('SELECT id FROM games WHERE active ORDER BY sort_order, name, id');
    expect(rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));

    const lastPage = await listGames(db, { page: Math.ceil(total / limit), limit });
    expect(lastPage.rows.length).toBe(total % limit || limit);
  });

  it('returns rows in the documented shape', async () => {
    const { rows } = await listGames(db, { page: 1, limit: 100 });
    const row = rows[0];
    if (!row) throw new Error('no games');
    expect(Object.keys(row).sort()).toEqual(
      [
        'categoryId',
        'devices',
        'hasDemo',
        'id',
        'identifier',
        'isFavorite',
        'name',
        'providerId',
        'providerName',
        'rtp',
        'slug',
        'subCategoryId',
        'thumbnailUrl',
      ].sort(),
    );
    expect(row.thumbnailUrl).toBe(`/api/v1/casino/thumbnail/${row.id}`);
    for (const r of rows) {
      expect(r.isFavorite).toBe(false);
      if (r.rtp !== null) expect(r.rtp).toMatch(/^(0|[1-9][0-9]{0,2})(\.[0-9]{1,4})?$/);
      expect(r.rtp?.endsWith('0') && r.rtp.includes('.')).toBeFalsy();
    }
  });

  it('clamps page and limit', async () => {
    const big = await listGames(db, { page: 1, limit: 1000 });
    expect(big.rows.length).toBe(100);
    const zero = await listGames(db, { page: 0, limit: 0 });
    expect(zero.rows.length).toBe(1);
    expect(zero.rows[0]?.id).toBe(big.rows[0]?.id);
  });

  it('filters by category, sub-category, provider and device', async () => {
    const categories = await listCategories(db);
    const providers = await listProviders(db);
    const slots = categories.find((c) => c.slug === 'slots');
    const video = (await listSubCategories(db, slots?.id)).find((s) => s.slug === 'video');
    const provider = providers.find((p) => p.slug === 'lunar-forge');
    if (!slots || !video || !provider) throw new Error('catalogue incomplete');

    const byCategory = await allPages({ limit: 50, categoryId: slots.id });
    expect(byCategory.rows.length).toBe(await countWhere('g.category_id = $1', [slots.id]));
    expect(byCategory.rows.every((r) => r.categoryId === slots.id)).toBe(true);
    expect(byCategory.counts[0]).toBe(byCategory.rows.length);

    const bySub = await allPages({ limit: 50, subCategoryId: video.id });
    expect(bySub.rows.length).toBe(await countWhere('g.sub_category_id = $1', [video.id]));
    expect(bySub.rows.length).toBeGreaterThan(0);
    expect(bySub.rows.every((r) => r.subCategoryId === video.id && r.categoryId === slots.id)).toBe(true);

    const byProvider = await allPages({ limit: 50, providerId: provider.id });
    expect(byProvider.rows.length).toBe(provider.gameCount);
    expect(byProvider.rows.every((r) => r.providerId === provider.id && r.providerName === 'Lunar Forge')).toBe(true);

    for (const device of ['desktop', 'mobile'] as const) {
      const byDevice = await allPages({ limit: 100, device });
      expect(byDevice.rows.length).toBe(await countWhere('$1 = ANY (g.devices)', [device]));
      expect(byDevice.rows.every((r) => r.devices.includes(device))).toBe(true);
      expect(byDevice.rows.length).toBeLessThan(300);
    }

    const combined = await listGames(db, { page: 1, limit: 100, categoryId: slots.id, providerId: provider.id, device: 'mobile' });
    expect(combined.count).toBe(
      await countWhere('g.category_id = $1 AND g.provider_id = $2 AND $3 = ANY (g.devices)', [slots.id, provider.id, 'mobile']),
    );
  });

  it('hides inactive games and games of inactive providers', async () => {
    const [hidden] = await addGames([{ name: 'Hidden Gem Vault', active: false }]);
    expect((await listGames(db, { page: 1, limit: 10, search: 'hidden gem vault' })).count).toBe(0);
    expect(await getGame(db, hidden ?? 0)).toBeNull();

    const provider = (await listProviders(db))[0];
    if (!provider) throw new Error('no provider');
    await db.query('UPDATE providers SET active = false WHERE id = $1', [provider.id]);
    const { rows, counts } = await allPages({ limit: 100 });
    expect(rows.some((r) => r.providerId === provider.id)).toBe(false);
    expect(counts[0]).toBe(CATALOGUE - provider.gameCount);
  });

  it('searches names case-insensitively, with % and _ taken literally', async () => {
    await addGames([
      { name: '100% Wild Fruits' },
      { name: '100 Wild Fruits' },
      { name: 'Snake_Eyes Dice' },
      { name: 'SnakeXEyes Dice' },
      { name: 'Back\\Slash Bingo' },
    ]);
    const search = async (text: string) => (await allPages({ limit: 100, search: text })).rows.map((r) => r.name);

    expect(await search('100%')).toEqual(['100% Wild Fruits']);
    expect(await search('%')).toEqual(['100% Wild Fruits']);
    expect(await search('snake_eyes')).toEqual(['Snake_Eyes Dice']);
    expect(await search('_')).toEqual(['Snake_Eyes Dice']);
    expect(await search('K\\S')).toEqual(['Back\\Slash Bingo']);
    expect((await search('WILD FRUITS')).sort()).toEqual(['100 Wild Fruits', '100% Wild Fruits']);
    expect(await search('   ')).toHaveLength(CATALOGUE + 5);

    const dragons = await allPages({ limit: 10, search: 'dragon' });
    const expected = await countWhere(`lower(g.name) LIKE '%dragon%'`);
    expect(dragons.rows.length).toBe(expected);
    expect(dragons.counts[0]).toBe(expected);
    expect(dragons.rows.every((r) => r.name.toLowerCase().includes('dragon'))).toBe(true);

    // Page past the end of a search still reports the total.
    const beyond = await listGames(db, { page: 99, limit: 10, search: 'dragon' });
    expect(beyond).toEqual({ rows: [], count: expected });
    expect(await listGames(db, { page: 1, limit: 10, search: 'no such game at all' })).toEqual({ rows: [], count: 0 });
  });

  it('matches the provider name too', async () => {
    const velvet = await allPages({ limit: 100, search: 'velvet comet' });
    const provider = (await listProviders(db)).find((p) => p.slug === 'velvet-comet');
    expect(velvet.rows.length).toBe(provider?.gameCount);
    expect(velvet.rows.length).toBeGreaterThan(0);
  });

});

describe('favourites', () => {
  // Favourites are listed newest first, by the time they were added: inside one transaction now() stands still.
  useFreshDb();

  it('toggles on and off, per player', async () => {
    const alice = await createUser();
    const bob = await createUser();
    const games = (await listGames(db, { page: 1, limit: 3 })).rows;
    const [first, second, third] = games;
    if (!first || !second || !third) throw new Error('need three games');

    expect(await toggleFavorite(db, alice, first.id)).toEqual({ gameId: first.id, isFavorite: true });
    expect(await toggleFavorite(db, alice, second.id)).toEqual({ gameId: second.id, isFavorite: true });
    expect(await toggleFavorite(db, bob, third.id)).toEqual({ gameId: third.id, isFavorite: true });

    const forAlice = (await listGames(db, { page: 1, limit: 3, userId: alice })).rows.map((r) => r.isFavorite);
    expect(forAlice).toEqual([true, true, false]);
    const forBob = (await listGames(db, { page: 1, limit: 3, userId: bob })).rows.map((r) => r.isFavorite);
    expect(forBob).toEqual([false, false, true]);
    const forVisitor = (await listGames(db, { page: 1, limit: 3 })).rows.map((r) => r.isFavorite);
    expect(forVisitor).toEqual([false, false, false]);

    // Most recently added first.
    const favourites = await listGames(db, { page: 1, limit: 10, userId: alice, favoritesOnly: true });
    expect(favourites.count).toBe(2);
    expect(favourites.rows.map((r) => [r.id, r.isFavorite])).toEqual([
      [second.id, true],
      [first.id, true],
    ]);

    expect(await toggleFavorite(db, alice, first.id)).toEqual({ gameId: first.id, isFavorite: false });
    const after = await listGames(db, { page: 1, limit: 10, userId: alice, favoritesOnly: true });
    expect(after.rows.map((r) => r.id)).toEqual([second.id]);
    expect(after.count).toBe(1);
    // Bob's favourites are untouched by Alice's toggles.
    expect((await listGames(db, { page: 1, limit: 10, userId: bob, favoritesOnly: true })).rows.map((r) => r.id)).toEqual([third.id]);
    // Favourites-only without a player is empty.
    expect(await listGames(db, { page: 1, limit: 10, favoritesOnly: true })).toEqual({ rows: [], count: 0 });
    // Filters combine with favourites.
    expect((await listGames(db, { page: 1, limit: 10, userId: alice, favoritesOnly: true, search: 'no such name' })).count).toBe(0);
  });

  it('refuses unknown and inactive games with GameNotFoundError', async () => {
    const userId = await createUser();
    await expect(toggleFavorite(db, userId, 9_999_999)).rejects.toBeInstanceOf(GameNotFoundError);
    await expect(toggleFavorite(db, userId, 0)).rejects.toBeInstanceOf(GameNotFoundError);
    const [inactive] = await addGames([{ name: 'Retired Reels', active: false }]);
    await expect(toggleFavorite(db, userId, inactive ?? 0)).rejects.toMatchObject({ code: 'GAME_NOT_FOUND_ERROR' });
    const rows = await db.query<{ count: number }>('SELECT count(*) AS count FROM favorite_games');
    expect(rows[0]?.count).toBe(0);
  });
});

describe('game sessions', () => {
  useTestDb();

  it('opens real-money sessions for players and demo sessions for anyone', async () => {
    const userId = await createUser();
    const [withDemo] = await addGames([{ name: 'Demo Delight', hasDemo: true }]);
    if (withDemo === undefined) throw new Error('no game');

    const before = Date.now();
    const real = await createGameSession(db, { userId, gameId: withDemo, demo: false, currencyCode: 'BTC' });
    expect(real).toEqual({
      sessionId: expect.any(String),
      launchUrl: `/play/${real.sessionId}`,
      gameId: withDemo,
      demo: false,
      currencyCode: 'BTC',
      expiresAt: expect.any(Date),
    });
    expect(real.sessionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(real.expiresAt.getTime()).toBeGreaterThanOrEqual(before + GAME_SESSION_TTL_MS);
    expect(real.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + GAME_SESSION_TTL_MS);

    // Without a currency: the player's selected wallet, else LTC.
    expect((await createGameSession(db, { userId, gameId: withDemo, demo: false })).currencyCode).toBe('LTC');

    const demo = await createGameSession(db, { userId: null, gameId: withDemo, demo: true, currencyCode: 'BTC' });
    expect(demo.demo).toBe(true);
    expect(demo.currencyCode).toBeNull();
    expect(demo.sessionId).not.toBe(real.sessionId);

    const stored = await getGameSession(db, real.sessionId);
    expect(stored).toMatchObject({ sessionId: real.sessionId, userId, gameId: withDemo, demo: false, currencyCode: 'BTC' });
    expect((await getGameSession(db, demo.sessionId))?.userId).toBeNull();
    expect(await getGameSession(db, 'not-a-session')).toBeNull();
    await db.query(`UPDATE game_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [real.sessionId]);
    expect(await getGameSession(db, real.sessionId)).toBeNull();

    // On the server's clock, which tests can move.
    const now = new Date('2030-01-01T12:00:00Z');
    const later = await createGameSession(db, { userId, gameId: withDemo, demo: true, now });
    expect(later.expiresAt.toISOString()).toBe('2030-01-01T16:00:00.000Z');
    expect(await getGameSession(db, later.sessionId, new Date('2030-01-01T15:59:59Z'))).not.toBeNull();
    expect(await getGameSession(db, later.sessionId, new Date('2030-01-01T16:00:00Z'))).toBeNull();
  });

  it('refuses what the rules forbid', async () => {
    const userId = await createUser();
    const [noDemo, desktopOnly, inactive] = await addGames([
      { name: 'Live Only Table', hasDemo: false },
      { name: 'Desk Bound', devices: ['desktop'] },
      { name: 'Gone Game', active: false },
    ]);
    if (noDemo === undefined || desktopOnly === undefined || inactive === undefined) throw new Error('no games');

    await expect(createGameSession(db, { userId: null, gameId: noDemo, demo: false })).rejects.toBeInstanceOf(LoginRequiredError);
    const demoError = createGameSession(db, { userId: null, gameId: noDemo, demo: true });
    await expect(demoError).rejects.toBeInstanceOf(DemoNotAvailableError);
    await expect(demoError).rejects.toBeInstanceOf(GameNotFoundError);
    await expect(createGameSession(db, { userId, gameId: noDemo, demo: true })).rejects.toBeInstanceOf(DemoNotAvailableError);
    // Real-money play of a game without a demo is fine.
    await expect(createGameSession(db, { userId, gameId: noDemo, demo: false })).resolves.toMatchObject({ demo: false });

    await expect(createGameSession(db, { userId: null, gameId: 9_999_999, demo: true })).rejects.toBeInstanceOf(GameNotFoundError);
    await expect(createGameSession(db, { userId, gameId: inactive, demo: false })).rejects.toBeInstanceOf(GameNotFoundError);
    await expect(createGameSession(db, { userId, gameId: desktopOnly, demo: true, device: 'mobile' })).rejects.toBeInstanceOf(GameNotOnDeviceError);
    await expect(createGameSession(db, { userId, gameId: desktopOnly, demo: true, device: 'desktop' })).resolves.toMatchObject({ demo: true });
    await expect(createGameSession(db, { userId, gameId: desktopOnly, demo: false, currencyCode: 'DOGE' })).rejects.toBeInstanceOf(
      CurrencyNotAvailableError,
    );
    await db.query(`UPDATE currencies SET enabled = false WHERE code = 'ETH'`);
    await expect(createGameSession(db, { userId, gameId: desktopOnly, demo: false, currencyCode: 'ETH' })).rejects.toMatchObject({
      code: 'CURRENCY_NOT_AVAILABLE',
    });

    const rows = await db.query<{ count: number }>('SELECT count(*) AS count FROM game_sessions');
    expect(rows[0]?.count).toBe(2);
  });
});

describe('thumbnails', () => {
  useTestDb();

  it('renders each game of the catalogue', async () => {
    const { rows } = await listGames(db, { page: 1, limit: 20 });
    for (const row of rows) {
      const game = await getGame(db, row.id);
      if (!game) throw new Error('game vanished');
      const svg = renderThumbnail(game);
      expect(svg).toContain(`hsl(${game.thumbnailHue},`);
      expect(svg.length).toBeLessThan(200_000);
    }
  });
});

describe('seedGames', () => {
  useFreshDb();

  it('grows the catalogue the same way in one go or in steps', async () => {
    const other = await createTestDb();
    try {
      expect(await seedGames(db, 1000)).toEqual({ inserted: 700, total: 1000 });
      expect(await seedGames(other, 600, { batchSize: 97 })).toEqual({ inserted: 300, total: 600 });
      expect(await seedGames(other, 1000, { batchSize: 250 })).toEqual({ inserted: 400, total: 1000 });
      const identifiers = async (d: Db) => (await d.query<{ identifier: string }>('SELECT identifier FROM games ORDER BY id')).map((r) => r.identifier);
      expect(await identifiers(other)).toEqual(await identifiers(db));
      // Never shrinks, and a repeated run adds nothing.
      expect(await seedGames(db, 500)).toEqual({ inserted: 0, total: 1000 });
      expect(await seedGames(db, 1000)).toEqual({ inserted: 0, total: 1000 });
    } finally {
      await other.close();
    }
  });

  it('grows to 10,000 games and still answers every kind of page', async () => {
    // How fast: npm run bench:server (get-all-games at 10,000 games), not this test.
    const result = await seedGames(db, 10_000);
    expect(result).toEqual({ inserted: 9_700, total: 10_000 });

    const userId = await createUser();
    const categories = await listCategories(db);
    const providers = await listProviders(db);
    const favourites = (await listGames(db, { page: 1, limit: 30 })).rows;
    for (const game of favourites) await toggleFavorite(db, userId, game.id);

    const cases: ListGamesOptions[] = [
      { page: 1, limit: 24 },
      { page: 400, limit: 24 },
      { page: 1, limit: 24, categoryId: categories[0]?.id ?? 0 },
      { page: 10, limit: 24, categoryId: categories[6]?.id ?? 0 },
      { page: 2, limit: 24, providerId: providers[0]?.id ?? 0, device: 'mobile' },
      { page: 1, limit: 24, search: 'dragon' },
      { page: 1, limit: 24, search: 'roulette vip' },
      { page: 1, limit: 24, search: 'zzzz' },
      { page: 1, limit: 24, userId, favoritesOnly: true },
      { page: 1, limit: 24, userId },
    ];
    for (const options of cases) expect((await listGames(db, options)).rows.length).toBeLessThanOrEqual(24);

    const all = await listGames(db, { page: 1, limit: 24 });
    expect(all.count).toBe(10_000 + HOUSE_GAMES.length);
    const lastPage = await listGames(db, { page: 417, limit: 24 });
    expect(lastPage.rows.length).toBe(10_000 + HOUSE_GAMES.length - 416 * 24);
    expect((await listGames(db, { page: 1, limit: 24, userId, favoritesOnly: true })).count).toBe(30);
  });
});

describe('without a database', () => {
  it('generates the same game for the same seed and number', () => {
    expect(generateGame(7, 42)).toEqual(generateGame(7, 42));
    expect(generateGame(7, 42)).not.toEqual(generateGame(8, 42));
    const game = generateGame(7, 42);
    expect(game.identifier.startsWith(`${game.providerSlug}-`)).toBe(true);
    expect(game.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
  it('escapes LIKE wildcards', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });
  it('renders a self-contained SVG with the name escaped', () => {
    const svg = renderThumbnail({ name: 'Tom <&> "Jerry\'s" Gold', providerName: 'A & B <Studios>', thumbnailHue: 123 });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400"')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
    expect(svg).toContain('&lt;&amp;&gt;');
    expect(svg).toContain('&quot;Jerry&apos;s&quot;');
    expect(svg).toContain('A &amp; B &lt;Studios&gt;');
    expect(svg).toContain('hsl(123,');
    // No markup from the name and no external references.
    expect(svg).not.toMatch(/<&|<Studios|"Jerry/);
    expect(svg).not.toMatch(/href|<image|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    // Every '&' starts an entity.
    expect(svg.replace(/&(lt|gt|amp|quot|apos);/g, '')).not.toContain('&');
  });

  it('wraps names on one to three lines', () => {
    expect(wrapTitle('Gems')).toEqual(['Gems']);
    expect(wrapTitle('Golden Dragon Deluxe')).toEqual(['Golden Dragon', 'Deluxe']);
    expect(wrapTitle('Multi-Hand Atlantic Blackjack VIP')).toEqual(['Multi-Hand', 'Atlantic', 'Blackjack VIP']);
    const long = wrapTitle('One Two Three Four Five Six Seven Eight Nine Ten Eleven Twelve');
    expect(long).toHaveLength(3);
    expect(long[2]?.endsWith('…')).toBe(true);
    expect(wrapTitle('Supercalifragilisticexpialidocious')).toEqual(['Supercalifrag…']);
    expect(wrapTitle('')).toEqual([]);
  });
});
