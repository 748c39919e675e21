import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Country, State } from 'country-state-city';
import type { Db } from '../../server/db/db.ts';
import { HOUSE_GAMES, normalisePhoneCode, seedReferenceData } from '../../server/db/seed.ts';
import {
  getSettings,
  listBanners,
  listCountries,
  listCurrencies,
  listLanguages,
  listNotifications,
  listPages,
  listPaymentProviders,
  markNotificationsRead,
} from '../../server/domain/common.ts';
import { addNotification, createTestDb, useRollbackDb } from '../helpers/db.ts';

// Each test runs inside a transaction rolled back after it, on one database per describe block (tests
// without one are at the end); seeding runs scripts, which need a fresh database each.
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
    [`common${userSeq}@example.com`, `common${userSeq}`, `REFCOMMON${userSeq}`],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('user not created');
  return id;
}

const SEEDED_TABLES = [
  'settings',
  'languages',
  'currencies',
  'pages',
  'banners',
  'countries',
  'states',
  'payment_providers',
  'providers',
  'categories',
  'sub_categories',
  'games',
] as const;

async function tableCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of SEEDED_TABLES) {
    const rows = await db.query<{ count: number }>(`SELECT count(*) AS count FROM ${table}`);
    counts[table] = rows[0]?.count ?? -1;
  }
  return counts;
}

describe('seedReferenceData', () => {
  useFreshDb();

  it('is idempotent: a second run adds and changes nothing', async () => {
    const before = await tableCounts();
    const pagesBefore = await db.query<{ id: number; updated_at: Date }>('SELECT id, updated_at FROM pages ORDER BY id');
    for (const count of Object.values(before)) expect(count).toBeGreaterThan(0);

    const started = performance.now();
    await seedReferenceData(db);
    await seedReferenceData(db);
    console.log(`seedReferenceData on an already seeded PGlite, twice: ${(performance.now() - started).toFixed(0)} ms`);

    expect(await tableCounts()).toEqual(before);
    const pagesAfter = await db.query<{ id: number; updated_at: Date }>('SELECT id, updated_at FROM pages ORDER BY id');
    expect(pagesAfter).toEqual(pagesBefore);
  });

  it('seeds empty tables from scratch (time printed, not asserted)', async () => {
    // Everything seedReferenceData writes, removed in dependency order, then seeded again from scratch.
    await db.exec(`DELETE FROM games; DELETE FROM sub_categories; DELETE FROM categories; DELETE FROM providers;
      DELETE FROM states; DELETE FROM countries; DELETE FROM pages; DELETE FROM banners; DELETE FROM payment_providers;
      DELETE FROM settings;`);
    const started = performance.now();
    await seedReferenceData(db);
    const elapsed = performance.now() - started;
    console.log(`seedReferenceData from empty tables on PGlite: ${elapsed.toFixed(0)} ms`);
    expect((await tableCounts()).games).toBe(300 + HOUSE_GAMES.length);
    expect((await tableCounts()).states).toBe(State.getAllStates().length);
  });
});

describe('settings, languages, currencies, payment providers', () => {
  useTestDb();

  it('has the SPEC §9 figures as canonical decimal strings', async () => {
    expect(await getSettings(db)).toEqual({
      siteName: 'Crypto Casino',
      minDeposit: '0.00005',
      minWithdraw: '0.03',
      maxTransferAmount: '10000',
      withdrawFee: '0.000006',
      depositConfirmations: 6,
      referralReward: '0.001',
      referralLimit: 10,
    });
  });

  it('lists English (default), Portuguese and Spanish', async () => {
    const languages = await listLanguages(db);
    expect(languages.map((l) => l.code)).toEqual(['en', 'pt', 'es']);
    expect(languages.filter((l) => l.default).map((l) => l.code)).toEqual(['en']);
    expect(languages.find((l) => l.code === 'pt')?.nativeName).toBe('Português');
  });

  it('lists enabled currencies LTC first, with the LTC figures from SPEC §9', async () => {
    const currencies = await listCurrencies(db);
    expect(currencies.map((c) => c.code)).toEqual(['LTC', 'BTC', 'ETH', 'USDT']);
    expect(currencies[0]).toEqual({
      id: 1,
      code: 'LTC',
      name: 'Litecoin',
      decimals: 8,
      network: 'Litecoin',
      minDeposit: '0.00005',
      minWithdraw: '0.03',
      withdrawFee: '0.000006',
      enabled: true,
    });
    expect(currencies.find((c) => c.code === 'USDT')?.network).toBe('Tron TRC20');

    await db.query(`UPDATE currencies SET enabled = false WHERE code = 'ETH'`);
    expect((await listCurrencies(db)).map((c) => c.code)).toEqual(['LTC', 'BTC', 'USDT']);
    const all = await listCurrencies(db, { includeDisabled: true });
    expect(all.map((c) => [c.code, c.enabled])).toEqual([
      ['LTC', true],
      ['BTC', true],
      ['ETH', false],
      ['USDT', true],
    ]);
  });

  it('lists coinpayments with its currencies and limits', async () => {
    const providers = await listPaymentProviders(db);
    expect(providers).toEqual([
      {
        id: expect.any(Number),
        key: 'coinpayments',
        name: 'CoinPayments',
        depositAllowed: true,
        withdrawAllowed: true,
        currencies: ['LTC', 'BTC', 'ETH', 'USDT'],
        minDeposit: '0.00005',
        minWithdraw: '0.03',
        maxAmount: '10000',
        withdrawFee: '0.000006',
        confirmations: 6,
      },
    ]);
    await db.query(`UPDATE payment_providers SET active = false`);
    expect(await listPaymentProviders(db)).toEqual([]);
  });
});

describe('pages', () => {
  useTestDb();

  const ALLOWED_TAGS = new Set(['p', 'h2', 'ul', 'li', 'strong', 'a']);

  it('has the five pages in English, Portuguese and Spanish, in safe HTML', async () => {
    for (const locale of ['en', 'pt', 'es'] as const) {
      const pages = await listPages(db, locale);
      expect(pages.map((p) => p.slug)).toEqual(['faq', 'terms', 'privacy', 'about', 'support']);
      for (const page of pages) {
        expect(page.locale).toBe(locale);
        expect(page.title.length).toBeGreaterThan(0);
        expect(page.updatedAt).toBeInstanceOf(Date);
        const tags = [...page.content.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*)>/g)];
        expect(tags.length).toBeGreaterThan(0);
        for (const [, tag, attributes] of tags) {
          expect(ALLOWED_TAGS.has(tag ?? '')).toBe(true);
          // Only links carry attributes, and only an href to mail or a path on the site.
          if (attributes?.trim()) expect(attributes).toMatch(/^ href="(mailto:[^"]+|\/[^"]*)"$/);
        }
        expect(page.content).not.toMatch(/script|on[a-z]+=|javascript:/i);
      }
    }
  });

  it('carries the business figures and the two-week terms sentence', async () => {
    const en = await listPages(db, 'en');
    const bySlug = new Map(en.map((p) => [p.slug, p.content]));
    expect(bySlug.get('terms')).toContain('Terms updates take effect a minimum of two weeks after announcement');
    const faq = bySlug.get('faq') ?? '';
    expect(faq).toContain('6 network confirmations');
    expect(faq).toContain('0.00005 LTC');
    expect(faq).toMatch(/not credited and cannot be refunded/);
    expect(faq).toContain('0.03 LTC');
    expect(faq).toContain('0.000006 LTC');
    expect(bySlug.get('support')).toContain('mailto:support@casino.local');

    const pt = new Map((await listPages(db, 'pt')).map((p) => [p.slug, p.content]));
    expect(pt.get('terms')).toContain('no mínimo duas semanas após o seu anúncio');
    expect(pt.get('faq')).toContain('0.00005 LTC');
    const es = new Map((await listPages(db, 'es')).map((p) => [p.slug, p.content]));
    expect(es.get('terms')).toContain('como mínimo dos semanas después de su anuncio');
    expect(es.get('faq')).toContain('6 confirmaciones');
  });

  it('falls back to English page by page, and for an unknown locale', async () => {
    await db.query(`DELETE FROM pages WHERE slug = 'privacy' AND locale = 'pt'`);
    const pt = await listPages(db, 'pt');
    expect(pt.map((p) => [p.slug, p.locale])).toEqual([
      ['faq', 'pt'],
      ['terms', 'pt'],
      ['privacy', 'en'],
      ['about', 'pt'],
      ['support', 'pt'],
    ]);
    const fr = await listPages(db, 'fr');
    expect(fr.map((p) => p.locale)).toEqual(['en', 'en', 'en', 'en', 'en']);
  });
});

describe('banners', () => {
  useTestDb();

  it('lists active banners in order, with self-contained SVG images', async () => {
    const banners = await listBanners(db);
    expect(banners.length).toBeGreaterThanOrEqual(3);
    expect(banners.map((b) => b.order)).toEqual([...banners.map((b) => b.order)].sort((a, b) => a - b));
    for (const banner of banners) {
      expect(banner.imageUrl).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/);
      expect(banner.imageUrl.length).toBeLessThanOrEqual(2048);
      const svg = Buffer.from(banner.imageUrl.split(',')[1] ?? '', 'base64').toString('utf8');
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(svg).not.toMatch(/href|<image|url\((?!#)/);
    }
    expect(banners.find((b) => b.linkUrl === '/bonus')).toBeDefined();
    await db.query(`UPDATE banners SET active = false WHERE key = 'live-casino'`);
    expect((await listBanners(db)).length).toBe(banners.length - 1);
  });
});

describe('countries', () => {
  useTestDb();

  it('has every country and state of the country-state-city package, with phone codes', async () => {
    const countries = await listCountries(db);
    expect(countries.length).toBe(Country.getAllCountries().length);
    expect(countries.length).toBeGreaterThan(200);
    const states = countries.reduce((acc, c) => acc + c.states.length, 0);
    expect(states).toBe(State.getAllStates().length);
    expect(states).toBeGreaterThan(4000);

    const portugal = countries.find((c) => c.code === 'PT');
    expect(portugal?.name).toBe('Portugal');
    expect(portugal?.phoneCode).toBe('+351');
    expect(portugal?.states.length).toBeGreaterThan(10);
    expect(portugal?.states.map((s) => s.name)).toContain('Lisbon');
    expect(countries.find((c) => c.code === 'US')?.states.find((s) => s.code === 'CA')?.name).toBe('California');

    // Sorted by name; every phone code in the form the profile rules accept.
    const names = countries.map((c) => c.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
    for (const country of countries) expect(country.phoneCode).toMatch(/^\+[1-9][0-9]{0,3}(-[0-9]{1,4})?$/);
  });

  it('loads once per database and serves later calls from memory', async () => {
    const first = await listCountries(db);
    await db.query(`UPDATE countries SET name = 'Changed' WHERE code = 'PT'`);
    const second = await listCountries(db);
    expect(second).toBe(first);
    expect(second.find((c) => c.code === 'PT')?.name).toBe('Portugal');
  });
});

describe('notifications', () => {
  useTestDb();

  it('lists the player’s notifications newest first, paged, with counts', async () => {
    const userId = await createUser();
    const otherId = await createUser();
    for (let i = 1; i <= 5; i++) await addNotification(db, userId, `Title ${i}`, `Message ${i}`);
    await addNotification(db, otherId, 'Other', 'Not yours');

    const first = await listNotifications(db, userId, { page: 1, limit: 2 });
    expect(first.count).toBe(5);
    expect(first.unreadCount).toBe(5);
    expect(first.rows.map((r) => r.title)).toEqual(['Title 5', 'Title 4']);
    expect(first.rows[0]).toEqual({
      id: expect.any(Number),
      title: 'Title 5',
      message: 'Message 5',
      isRead: false,
      readAt: null,
      createdAt: expect.any(Date),
    });
    const last = await listNotifications(db, userId, { page: 3, limit: 2 });
    expect(last.rows.map((r) => r.title)).toEqual(['Title 1']);
    expect((await listNotifications(db, userId, { page: 4, limit: 2 })).rows).toEqual([]);
    expect((await listNotifications(db, otherId, { page: 1, limit: 10 })).rows.map((r) => r.title)).toEqual(['Other']);
  });

  it('orders by creation time, newest first', async () => {
    const userId = await createUser();
    const old = await addNotification(db, userId, 'Old', 'Yesterday');
    await addNotification(db, userId, 'New', 'Today');
    await db.query(`UPDATE user_notifications SET created_at = now() + interval '1 hour' WHERE id = $1`, [old.id]);
    expect((await listNotifications(db, userId, { page: 1, limit: 10 })).rows.map((r) => r.title)).toEqual(['Old', 'New']);
  });

  it('marks only the player’s own notifications as read', async () => {
    const userId = await createUser();
    const otherId = await createUser();
    const mine = [
      await addNotification(db, userId, 'A', 'a'),
      await addNotification(db, userId, 'B', 'b'),
      await addNotification(db, userId, 'C', 'c'),
    ];
    const theirs = await addNotification(db, otherId, 'X', 'x');

    expect(await markNotificationsRead(db, userId, [mine[0]?.id ?? 0, theirs.id])).toBe(1);
    expect(await markNotificationsRead(db, userId, [mine[0]?.id ?? 0])).toBe(0); // already read
    expect(await markNotificationsRead(db, userId, [])).toBe(0);
    const page = await listNotifications(db, userId, { page: 1, limit: 10 });
    expect(page.unreadCount).toBe(2);
    expect(page.rows.map((r) => [r.title, r.isRead])).toEqual([
      ['C', false],
      ['B', false],
      ['A', true],
    ]);
    expect(page.rows[2]?.readAt).toBeInstanceOf(Date);
    expect((await listNotifications(db, otherId, { page: 1, limit: 10 })).unreadCount).toBe(1);

    expect(await markNotificationsRead(db, userId, 'all')).toBe(2);
    expect((await listNotifications(db, userId, { page: 1, limit: 10 })).unreadCount).toBe(0);
    expect((await listNotifications(db, otherId, { page: 1, limit: 10 })).unreadCount).toBe(1);
  });
});

describe('without a database', () => {
  it('normalises the package phone codes', () => {
    expect(normalisePhoneCode('351')).toBe('+351');
    expect(normalisePhoneCode('+1-684')).toBe('+1-684');
    expect(normalisePhoneCode('+1-809 and 1-829')).toBe('+1-809');
    expect(normalisePhoneCode('0055')).toBe('+55');
  });
});
