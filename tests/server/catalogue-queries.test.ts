import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../server/db/db.ts';
import { seedGames } from '../../server/db/seed.ts';
import { listGames, toggleFavorite, type ListGamesOptions } from '../../server/domain/casino.ts';
import { createTestDb, useRollbackDb } from '../helpers/db.ts';

/**
 * The catalogue listing's search and totals (migration 0012, listGames): a search by any part of a game's
 * or its provider's name finds exactly what a scan would, and every total equals a count(*) over the
 * games whatever was changed since (games activated, moved or deleted, providers renamed or
 * deactivated). Then the plans at 10,000 games: a page and a search are index lookups, and no statement
 * counts over the games table. Runs on PGlite and again on PostgreSQL, whose planner and row locks are
 * its own.
 */

let db: Db;

let gameSeq = 0;
/** Adds a game to the given provider and category (the first sub-category of it, or none). */
async function addGame(
  name: string,
  providerId: number,
  categoryId: number,
  options: { subCategory?: boolean; devices?: string[]; active?: boolean } = {},
): Promise<number> {
  gameSeq += 1;
  const rows = await db.query<{ id: number }>(
    `INSERT INTO games (identifier, name, slug, provider_id, category_id, sub_category_id, devices, active)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $6 THEN (SELECT min(id) FROM sub_categories WHERE category_id = $5) END, $7, $8)
     RETURNING id`,
    [`catalogue-${gameSeq}`, name, `catalogue-${gameSeq}`, providerId, categoryId, options.subCategory ?? true, options.devices ?? ['desktop', 'mobile'], options.active ?? true],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('game not created');
  return id;
}

async function ids(sql: string, params: unknown[] = []): Promise<number[]> {
  return (await db.query<{ id: number }>(sql, params)).map((r) => r.id);
}

/** What a full scan finds: active games of active providers matching the filters, in listing order. */
async function expectedIds(options: Omit<ListGamesOptions, 'page' | 'limit'>): Promise<number[]> {
  const search = options.search?.trim().toLowerCase() ?? '';
  const rows = await db.query<{ id: number; name: string; provider_name: string }>(
    `SELECT g.id, g.name, p.name AS provider_name
     FROM games g JOIN providers p ON p.id = g.provider_id
     WHERE g.active AND p.active
       AND ($1::int IS NULL OR g.category_id = $1) AND ($2::int IS NULL OR g.sub_category_id = $2)
       AND ($3::int IS NULL OR g.provider_id = $3) AND ($4::text IS NULL OR $4 = ANY (g.devices))
     ORDER BY g.sort_order, g.name, g.id`,
    [options.categoryId ?? null, options.subCategoryId ?? null, options.providerId ?? null, options.device ?? null],
  );
  // The substring test in JavaScript, not SQL: nothing of the code under test decides what matches.
  return rows
    .filter((r) => search === '' || r.name.toLowerCase().includes(search) || r.provider_name.toLowerCase().includes(search))
    .map((r) => r.id);
}

/** Every page of a listing: the ids in order and the total each page reported. */
async function listAll(options: Omit<ListGamesOptions, 'page' | 'limit'>, limit = 100): Promise<{ ids: number[]; counts: Set<number> }> {
  const found: number[] = [];
  const counts = new Set<number>();
  for (let page = 1; page < 1000; page++) {
    const result = await listGames(db, { ...options, page, limit });
    counts.add(result.count);
    if (result.rows.length === 0) break;
    found.push(...result.rows.map((r) => r.id));
  }
  return { ids: found, counts };
}

/** The listing and its total agree with a full scan, for these filters. */
async function expectExact(options: Omit<ListGamesOptions, 'page' | 'limit'>): Promise<number[]> {
  const expected = await expectedIds(options);
  const first = await listGames(db, { ...options, page: 1, limit: 24 });
  expect(first.count, JSON.stringify(options)).toBe(expected.length);
  expect(first.rows.map((r) => r.id), JSON.stringify(options)).toEqual(expected.slice(0, 24));
  // Past the end the total is still reported.
  expect(await listGames(db, { ...options, page: Math.ceil(expected.length / 24) + 2, limit: 24 })).toEqual({ rows: [], count: expected.length });
  return expected;
}

/** game_counts holds exactly the active games per group that games does. */
async function expectCountsMatchGames(): Promise<void> {
  const groups = `SELECT provider_id, category_id, sub_category_id, devices, games FROM (%s) x ORDER BY provider_id, category_id, sub_category_id, devices::text`;
  const kept = await db.query(groups.replace('%s', 'SELECT * FROM game_counts'));
  const recounted = await db.query(
    groups.replace(
      '%s',
      `SELECT provider_id, category_id, coalesce(sub_category_id, 0) AS sub_category_id, devices, count(*)::int AS games
       FROM games WHERE active GROUP BY 1, 2, 3, 4`,
    ),
  );
  expect(kept).toEqual(recounted);
}

interface Catalogue {
  providers: { id: number; name: string }[];
  categories: number[];
  subCategories: { id: number; categoryId: number }[];
}

async function catalogue(): Promise<Catalogue> {
  return {
    providers: await db.query<{ id: number; name: string }>('SELECT id, name FROM providers ORDER BY id'),
    categories: await ids('SELECT id FROM categories ORDER BY id'),
    subCategories: (await db.query<{ id: number; category_id: number }>('SELECT id, category_id FROM sub_categories ORDER BY id')).map((r) => ({
      id: r.id,
      categoryId: r.category_id,
    })),
  };
}

/** A listing's filters, each alone and a few together. */
function filterSets(c: Catalogue): Omit<ListGamesOptions, 'page' | 'limit'>[] {
  const [p1, p2] = c.providers;
  const [c1, c2] = c.categories;
  const s1 = c.subCategories[0];
  return [
    {},
    { device: 'mobile' },
    { device: 'desktop' },
    { categoryId: c1 },
    { categoryId: c2, device: 'desktop' },
    { subCategoryId: s1?.id },
    { subCategoryId: s1?.id, categoryId: s1?.categoryId, device: 'mobile' },
    { providerId: p1?.id },
    { providerId: p2?.id, categoryId: c1, device: 'mobile' },
  ];
}

describe('search', () => {
  const current = useRollbackDb();
  beforeEach(() => {
    db = current();
  });

  it('finds a game by any part of its name, in any case', async () => {
    const games = await db.query<{ id: number; name: string }>('SELECT id, name FROM games WHERE active ORDER BY id');
    expect(games.length).toBeGreaterThan(100);
    // Every 20th game, by a piece from the middle of its name of 1 to 6 characters.
    for (const [i, game] of games.entries()) {
      if (i % 20 !== 0) continue;
      const length = 1 + (i % 6);
      const start = Math.floor((game.name.length - length) / 2);
      const part = game.name.slice(Math.max(0, start), Math.max(0, start) + length);
      const search = i % 3 === 0 ? part.toUpperCase() : part;
      const found = await expectExact({ search });
      expect(found, `"${search}" in "${game.name}"`).toContain(game.id);
    }
  });

  it('finds names with spaces, punctuation and letters outside ASCII', async () => {
    const [provider] = (await catalogue()).providers;
    const category = (await ids('SELECT id FROM categories ORDER BY id'))[0];
    if (!provider || category === undefined) throw new Error('catalogue incomplete');
    const cafe = await addGame('Café Éclair 7', provider.id, category);
    const rocket = await addGame("Rocket's Ride: Re-Entry", provider.id, category);
    for (const search of ['Café', 'fé Éc', 'clair 7', "ket's ri", 'ride: re-en', ': ', '-']) await expectExact({ search });
    expect(await expectExact({ search: 'fé Éc' })).toEqual([cafe]);
    expect(await expectExact({ search: "ROCKET'S RIDE" })).toEqual([rocket]);
  });

  it("finds every game of a provider by a part of the provider's name, with the games named so", async () => {
    const velvet = (await catalogue()).providers.find((p) => p.name === 'Velvet Comet Live');
    if (!velvet) throw new Error('no Velvet Comet Live');
    const category = (await ids('SELECT id FROM categories ORDER BY id'))[0] ?? 0;
    const other = (await catalogue()).providers.find((p) => p.id !== velvet.id);
    if (!other) throw new Error('one provider only');
    const named = await addGame('Comet Chaser', other.id, category);

    const ofVelvet = await ids('SELECT id FROM games WHERE active AND provider_id = $1', [velvet.id]);
    const found = await expectExact({ search: 'COMET' });
    expect(found).toEqual(expect.arrayContaining([...ofVelvet, named]));
    // Every page of it, once each.
    const all = await listAll({ search: 'comet' }, 7);
    expect(all.ids).toEqual(found);
    expect(all.counts).toEqual(new Set([found.length]));
    // Several providers at once ('er': Tidewater Studios, Emberline Interactive), every page of it.
    const several = await expectedIds({ search: 'er' });
    expect(await listAll({ search: 'er' }, 50)).toEqual({ ids: several, counts: new Set([several.length]) });
    await expectExact({ search: 'a' });
    // Combined with filters.
    await expectExact({ search: 'er', device: 'desktop', categoryId: category });
    await expectExact({ search: 'comet', device: 'mobile' });
    await expectExact({ search: 'comet', providerId: other.id });
    await expectExact({ search: 'velvet', categoryId: category });
  });

  it('follows a renamed provider, and leaves out a deactivated one', async () => {
    const c = await catalogue();
    const velvet = c.providers.find((p) => p.name === 'Velvet Comet Live');
    if (!velvet) throw new Error('no Velvet Comet Live');
    const ofVelvet = await ids('SELECT id FROM games WHERE active AND provider_id = $1 ORDER BY id', [velvet.id]);
    expect(ofVelvet.length).toBeGreaterThan(0);

    await db.query('UPDATE providers SET name = $1 WHERE id = $2', ['Aurora Tables', velvet.id]);
    expect((await expectExact({ search: 'aurora tab' })).sort((a, b) => a - b)).toEqual(ofVelvet);
    expect(await expectExact({ search: 'velvet comet live' })).toEqual([]);

    await db.query('UPDATE providers SET active = false WHERE id = $1', [velvet.id]);
    expect(await expectExact({ search: 'aurora' })).toEqual([]);
    for (const filters of filterSets(c)) await expectExact(filters);
    await expectExact({ search: 'gold' });
  });

  it('counts the favourites and searches them', async () => {
    const user = (
      await db.query<{ id: number }>(`INSERT INTO users (email, username, referral_code) VALUES ('fav@example.com', 'favcat', 'REFFAVCAT') RETURNING id`)
    )[0]?.id;
    if (user === undefined) throw new Error('no user');
    const favourites = await ids(`SELECT id FROM games WHERE active AND name ILIKE '%o%' ORDER BY id LIMIT 30`);
    for (const id of favourites) await toggleFavorite(db, user, id);
    const all = await listAll({ userId: user, favoritesOnly: true }, 7);
    expect(all.ids.sort((a, b) => a - b)).toEqual(favourites);
    expect(all.counts).toEqual(new Set([favourites.length]));
    const withSearch = await listGames(db, { page: 9, limit: 10, userId: user, favoritesOnly: true, search: 'o' });
    expect(withSearch).toEqual({ rows: [], count: favourites.length });
  });
});

describe('totals', () => {
  const current = useRollbackDb();
  beforeEach(() => {
    db = current();
  });

  it('are exact under every filter', async () => {
    for (const filters of filterSets(await catalogue())) await expectExact(filters);
    await expectCountsMatchGames();
  });

  it('stay exact as games are added, deactivated, moved, changed and deleted', async () => {
    const c = await catalogue();
    const [p1, p2] = c.providers;
    const [c1, c2] = c.categories;
    if (!p1 || !p2 || c1 === undefined || c2 === undefined) throw new Error('catalogue incomplete');
    const check = async (): Promise<void> => {
      await expectCountsMatchGames();
      for (const filters of filterSets(c)) await expectExact(filters);
    };

    const added = [
      await addGame('Tally One', p1.id, c1),
      await addGame('Tally Two', p1.id, c1, { devices: ['desktop'] }),
      await addGame('Tally Three', p2.id, c2, { subCategory: false }),
      await addGame('Tally Four', p2.id, c1, { active: false }),
    ];
    await check();
    // Several rows at once, in and out of groups.
    await db.query('UPDATE games SET active = NOT active WHERE id = ANY ($1)', [added]);
    await check();
    await db.query('UPDATE games SET active = false WHERE provider_id = $1 AND category_id = $2', [p1.id, c1]);
    await check();
    await db.query('UPDATE games SET active = true WHERE provider_id = $1', [p1.id]);
    await check();
    // Moved to another provider, category and sub-category; devices changed; renamed (no group change).
    await db.query(
      `UPDATE games SET provider_id = $1, category_id = $2, sub_category_id = (SELECT min(id) FROM sub_categories WHERE category_id = $2)
       WHERE id IN (SELECT id FROM games WHERE provider_id = $3 ORDER BY id LIMIT 10)`,
      [p2.id, c2, p1.id],
    );
    await db.query(`UPDATE games SET devices = ARRAY['mobile'] WHERE id IN (SELECT id FROM games ORDER BY id DESC LIMIT 15)`);
    await db.query(`UPDATE games SET name = name || ' Prime' WHERE id % 3 = 0`);
    await check();
    await db.query('DELETE FROM games WHERE id = ANY ($1)', [added]);
    await check();
    // A provider with its games deactivated, then every game gone: its groups go with them.
    await db.query('UPDATE providers SET active = false WHERE id = $1', [p2.id]);
    await check();
    await db.query('DELETE FROM games');
    await check();
    expect(await db.query('SELECT * FROM game_counts')).toEqual([]);
    expect(await listGames(db, { page: 1, limit: 24 })).toEqual({ rows: [], count: 0 });
  });

  it('refuse to go wrong: a removal from a group that is not counted fails the statement', async () => {
    const [game] = await ids('SELECT id FROM games WHERE active ORDER BY id LIMIT 1');
    await db.query('DELETE FROM game_counts');
    await expect(db.transaction((tx) => tx.query('UPDATE games SET active = false WHERE id = $1', [game]))).rejects.toThrow(
      /game_counts does not match games/,
    );
  });
});

describe('totals under concurrent changes', () => {
  // Transactions of their own, at once: on PostgreSQL they overlap and meet on game_counts' row locks.
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    await db.close();
  });

  it('stay exact when many transactions change games of the same groups at once', async () => {
    const c = await catalogue();
    const games = await ids('SELECT id FROM games ORDER BY id LIMIT 120');
    const [p1] = c.providers;
    const [c1] = c.categories;
    if (!p1 || c1 === undefined) throw new Error('catalogue incomplete');
    await Promise.all(
      Array.from({ length: 24 }, (_, w) =>
        db.transaction(async (tx: Queryable) => {
          const mine = games.filter((_, i) => i % 24 === w);
          await tx.query('UPDATE games SET active = NOT active WHERE id = ANY ($1)', [mine]);
          gameSeq += 1;
          await tx.query(
            `INSERT INTO games (identifier, name, slug, provider_id, category_id) VALUES ($1, 'Race Reels', $1, $2, $3)`,
            [`race-${gameSeq}-${w}`, p1.id, c1],
          );
          if (w % 2 === 0) await tx.query('UPDATE games SET active = true WHERE id = ANY ($1)', [mine]);
        }),
      ),
    );
    await expectCountsMatchGames();
    for (const filters of filterSets(c)) await expectExact(filters);
  });
});

/** A plan node of EXPLAIN (FORMAT JSON), the fields these tests read. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Filter?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

/** The blocks a statement read, from its top node (cumulative over the nodes under it). */
function blocks(plan: PlanNode): number {
  return (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** The plans of the statements listGames sends for these options, executed (ANALYZE, BUFFERS). */
async function plansOf(options: ListGamesOptions): Promise<{ sql: string; plan: PlanNode }[]> {
  const plans: { sql: string; plan: PlanNode }[] = [];
  const explaining: Queryable = {
    async query<T extends object>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
      const rows = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
      const raw = rows[0]?.['QUERY PLAN'];
      const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
      const plan = parsed[0]?.Plan;
      if (!plan) throw new Error('no plan');
      plans.push({ sql, plan });
      return db.query<T>(sql, params);
    },
  };
  await listGames(explaining, options);
  return plans;
}

/** What each statement does with the games table: its scan nodes, and the blocks the statement read. */
function gamesScans(plan: PlanNode): PlanNode[] {
  return nodes(plan).filter((n) => n['Relation Name'] === 'games' || (/Index Scan/.test(n['Node Type']) && n['Index Name']?.startsWith('games')));
}

describe('plans at 10,000 games', () => {
  beforeAll(async () => {
    db = await createTestDb();
    await seedGames(db, 10_000);
  }, 120_000);
  afterAll(async () => {
    await db.close();
  });

  it('a page is an index range in listing order, its total a sum over game_counts', async () => {
    for (const options of [
      { page: 1, limit: 24 },
      { page: 3, limit: 24, categoryId: (await ids('SELECT id FROM categories ORDER BY id'))[0], device: 'mobile' as const },
    ]) {
      for (const { plan } of await plansOf(options)) {
        for (const scan of gamesScans(plan)) {
          expect(scan['Node Type'], JSON.stringify(options)).toMatch(/^Index (Only )?Scan$/);
          expect(scan['Index Name']).toMatch(/^games_(pkey|listing|category_listing)$/);
        }
        // No statement aggregates over games: the only Aggregate reads game_counts.
        for (const aggregate of nodes(plan).filter((n) => n['Node Type'] === 'Aggregate')) {
          expect(nodes(aggregate).map((n) => n['Relation Name']).filter(Boolean)).toEqual(['game_counts']);
        }
        expect(blocks(plan), JSON.stringify(options)).toBeLessThan(500);
      }
    }
  });

  it('a page with an inactive provider left out is still an index-only range', async () => {
    await db.query('UPDATE providers SET active = false WHERE id = (SELECT min(id) FROM providers)');
    try {
      const statements = await plansOf({ page: 100, limit: 24 });
      const page = statements.find((s) => s.sql.includes('FROM games g'));
      if (!page) throw new Error('no page statement');
      const listing = gamesScans(page.plan).filter((n) => n['Index Name'] === 'games_listing');
      expect(listing.map((n) => [n['Node Type'], n.Filter])).toEqual([['Index Only Scan', expect.stringMatching(/provider_id <> ALL/)]]);
    } finally {
      await db.query('UPDATE providers SET active = true WHERE id = (SELECT min(id) FROM providers)');
    }
  });

  it("a search is a trigram index lookup, and a provider's games by name an index range of that provider", async () => {
    for (const [search, providerListing] of [
      ['star', false],
      ['dragon', false],
      ['velvet comet', true],
    ] as const) {
      const statements = await plansOf({ page: 1, limit: 24, search });
      const page = statements.find((s) => s.sql.includes('FROM games g'));
      if (!page) throw new Error('no page statement');
      const scans = gamesScans(page.plan);
      expect(scans.filter((n) => n['Node Type'] === 'Bitmap Index Scan').map((n) => n['Index Name']), search).toEqual(['games_search_trgm']);
      const listings = scans.filter((n) => n['Index Name'] === 'games_provider_listing').map((n) => n['Node Type']);
      expect(listings, search).toEqual(providerListing ? ['Index Only Scan'] : []);
      // The games read are those the indexes found (and the page's 24 by id): nothing walks the listing
      // filtering every game, and nothing counts over games.
      for (const scan of scans) {
        expect(scan['Node Type']).toMatch(/^(Bitmap Index Scan|Bitmap Heap Scan|Index Scan|Index Only Scan)$/);
        if (scan['Node Type'] === 'Index Scan') expect(scan['Index Name']).toBe('games_pkey');
      }
      for (const aggregate of nodes(page.plan).filter((n) => n['Node Type'] === 'Aggregate')) {
        expect(nodes(aggregate).map((n) => n['Relation Name']).filter((name) => name === 'games')).toEqual([]);
      }
      expect(blocks(page.plan), search).toBeLessThan(500);
    }
  });
});
