import { randomBytes } from 'node:crypto';
import { maybeOne, one, type Queryable } from '../db/db.ts';
import { formatAmount, parseAmount } from '../../src/money.ts';
import { normalisePaging } from './common.ts';
import { textOutline } from './cover-font.ts';

/**
 * The game catalogue: providers, categories, sub-categories, the paged game listing with search and
 * favourites, game sessions (real or demo) and the generated thumbnails.
 */

export type Device = 'desktop' | 'mobile';

/** The game does not exist, is not active, or its provider is not active. */
export class GameNotFoundError extends Error {
  /** SPEC §8 code; the subclasses below answer with the same one (404 in openapi.yaml). */
  readonly code = 'GAME_NOT_FOUND_ERROR';
  constructor(
    readonly gameId: number,
    message = `Game ${gameId} not found`,
  ) {
    super(message);
    this.name = 'GameNotFoundError';
  }
}

/** A demo session was asked for a game without a demo mode (a GameNotFoundError for the API). */
export class DemoNotAvailableError extends GameNotFoundError {
  constructor(gameId: number) {
    super(gameId, `Game ${gameId} has no demo mode`);
    this.name = 'DemoNotAvailableError';
  }
}

/** A session was asked for a device the game does not run on (a GameNotFoundError for the API). */
export class GameNotOnDeviceError extends GameNotFoundError {
  constructor(
    gameId: number,
    readonly device: Device,
  ) {
    super(gameId, `Game ${gameId} does not run on ${device}`);
    this.name = 'GameNotOnDeviceError';
  }
}

/** A real-money session was asked without a logged-in player. */
export class LoginRequiredError extends Error {
  readonly code = 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED';
  constructor() {
    super('Real-money play needs a logged-in player');
    this.name = 'LoginRequiredError';
  }
}

/** The session's currency is unknown or disabled. */
export class CurrencyNotAvailableError extends Error {
  readonly code = 'CURRENCY_NOT_AVAILABLE';
  constructor(readonly currencyCode: string) {
    super(`Currency ${currencyCode} is not available`);
    this.name = 'CurrencyNotAvailableError';
  }
}

// ---------------------------------------------------------------------------------------------------
// Providers, categories, sub-categories

export interface Provider {
  id: number;
  name: string;
  slug: string;
  /** Always null: the catalogue has no provider logos (the SPA shows the name). */
  logoUrl: string | null;
  /** Active games of this provider. */
  gameCount: number;
}

/** Active providers with at least one active game, by name. */
export async function listProviders(db: Queryable): Promise<Provider[]> {
  const rows = await db.query<{ id: number; name: string; slug: string; game_count: number }>(
    `SELECT p.id, p.name, p.slug, g.game_count
     FROM providers p
     JOIN (SELECT provider_id, count(*) AS game_count FROM games WHERE active GROUP BY provider_id) g
       ON g.provider_id = p.id
     WHERE p.active
     ORDER BY p.name, p.id`,
  );
  return rows.map((r) => ({ id: r.id, name: r.name, slug: r.slug, logoUrl: null, gameCount: r.game_count }));
}

export interface Category {
  id: number;
  name: string;
  slug: string;
  /** Display position. */
  order: number;
}

/** The lobby categories in display order. */
export async function listCategories(db: Queryable): Promise<Category[]> {
  const rows = await db.query<{ id: number; name: string; slug: string; sort_order: number }>(
    'SELECT id, name, slug, sort_order FROM categories ORDER BY sort_order, id',
  );
  return rows.map((r) => ({ id: r.id, name: r.name, slug: r.slug, order: r.sort_order }));
}

export interface SubCategory {
  id: number;
  categoryId: number;
  name: string;
  slug: string;
  /** Display position within its category. */
  order: number;
}

/** Sub-categories of one category, or all of them (in category order) when categoryId is omitted. */
export async function listSubCategories(db: Queryable, categoryId?: number): Promise<SubCategory[]> {
  const rows = await db.query<{ id: number; category_id: number; name: string; slug: string; sort_order: number }>(
    `SELECT s.id, s.category_id, s.name, s.slug, s.sort_order
     FROM sub_categories s JOIN categories c ON c.id = s.category_id
     WHERE $1::int IS NULL OR s.category_id = $1::int
     ORDER BY c.sort_order, s.sort_order, s.id`,
    [categoryId ?? null],
  );
  return rows.map((r) => ({ id: r.id, categoryId: r.category_id, name: r.name, slug: r.slug, order: r.sort_order }));
}

// ---------------------------------------------------------------------------------------------------
// Games

export interface GameListRow {
  id: number;
  name: string;
  slug: string;
  identifier: string;
  providerId: number;
  providerName: string;
  categoryId: number;
  subCategoryId: number | null;
  /** `/api/v1/casino/thumbnail/{id}`: a generated SVG, see {@link renderThumbnail}. */
  thumbnailUrl: string;
  hasDemo: boolean;
  devices: Device[];
  /** False when the listing is not for a player. */
  isFavorite: boolean;
  /** Return to player in percent, canonical ('96.5', '97'); null when not published. */
  rtp: string | null;
}

export interface Game extends Omit<GameListRow, 'isFavorite'> {
  thumbnailHue: number;
}

export interface ListGamesOptions {
  /** 1-based. */
  page: number;
  /** 1 to 100. */
  limit: number;
  categoryId?: number;
  subCategoryId?: number;
  providerId?: number;
  /**
   * Case-insensitive substring of the game's or its provider's name; '%', '_' and '\' match
   * literally. Blank means no search.
   */
  search?: string;
  device?: Device;
  /** The player asking: fills isFavorite, and is needed for favoritesOnly. */
  userId?: number | null;
  /** Only the player's favourites, most recently added first (empty without a userId). */
  favoritesOnly?: boolean;
}

export interface GamePage {
  rows: GameListRow[];
  /** Games matching the filters, over all pages. */
  count: number;
}

interface GameRow {
  id: number;
  name: string;
  slug: string;
  identifier: string;
  provider_id: number;
  provider_name: string;
  category_id: number;
  sub_category_id: number | null;
  has_demo: boolean;
  devices: Device[];
  rtp: string | null;
  thumbnail_hue: number;
}

const GAME_COLUMNS = `g.id, g.name, g.slug, g.identifier, g.provider_id, p.name AS provider_name, g.category_id,
  g.sub_category_id, g.has_demo, g.devices, g.rtp::text AS rtp, g.thumbnail_hue`;

function toGame(r: GameRow): Game {
  return {
    id: r.id,
    name: r.name,
    slug: r.slug,
    identifier: r.identifier,
    providerId: r.provider_id,
    providerName: r.provider_name,
    categoryId: r.category_id,
    subCategoryId: r.sub_category_id,
    thumbnailUrl: `/api/v1/casino/thumbnail/${r.id}`,
    hasDemo: r.has_demo,
    devices: r.devices,
    // NUMERIC(5,2) text ('96.50') → canonical percentage ('96.5').
    rtp: r.rtp === null ? null : formatAmount(parseAmount(r.rtp)),
    thumbnailHue: r.thumbnail_hue,
  };
}

/** Escapes LIKE's wildcards and its escape character, so user input matches literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Active games of active providers, one page at a time with the total: by popularity (sort_order),
 * then name and id; the favourites list by when each was added, newest first.
 *
 * Two statements. The providers first (a handful of rows): which are inactive, and which match the
 * search by name. Then the page: each filter maps onto a partial index in listing order, so a page is
 * an index range; a search is a trigram index lookup on the lower-cased names (migration 0012), and
 * the games of a provider whose name matched are that provider's listing (an index range of the first
 * offset + limit), merged with the name matches of the other providers. No statement counts over
 * games: a listing's total is a sum over game_counts (active games per provider, category,
 * sub-category and devices, kept by triggers), a search's the name matches the index found plus the
 * matching providers' sums, the favourites' the player's favourites read anyway.
 */
export async function listGames(db: Queryable, options: ListGamesOptions): Promise<GamePage> {
  const { limit, offset } = normalisePaging(options);
  const userId = options.userId ?? null;
  if (options.favoritesOnly && userId === null) return { rows: [], count: 0 };
  const search = options.search?.trim() ?? '';

  // lower() in SQL, as for search_name, so both sides fold case the same way.
  const providers = await db.query<{ id: number; active: boolean; matches: boolean }>(
    `SELECT id, active, coalesce(lower(name) LIKE ('%' || lower($1::text) || '%') ESCAPE '\\', false) AS matches FROM providers`,
    [search === '' ? null : escapeLike(search)],
  );
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const inactiveProviders = providers.filter((p) => !p.active).map((p) => p.id);
  const matchingProviders = providers.filter((p) => p.active && p.matches).map((p) => p.id);

  // The filters twice over: on games for the page, and on game_counts for a listing's total.
  const where = ['g.active'];
  const countWhere: string[] = [];
  const filter = (column: string, value: unknown): void => {
    const placeholder = param(value);
    where.push(`g.${column} = ${placeholder}`);
    countWhere.push(`c.${column} = ${placeholder}`);
  };
  // Providers are few and almost never inactive: filtering their games out by id, only when there are
  // some, keeps a page an index-only scan.
  if (inactiveProviders.length > 0) {
    const ids = param(inactiveProviders);
    where.push(`g.provider_id <> ALL (${ids}::int[])`);
    countWhere.push(`c.provider_id <> ALL (${ids}::int[])`);
  }
  if (options.categoryId !== undefined) filter('category_id', options.categoryId);
  if (options.subCategoryId !== undefined) filter('sub_category_id', options.subCategoryId);
  if (options.providerId !== undefined) filter('provider_id', options.providerId);
  if (options.device !== undefined) {
    const device = param(options.device);
    where.push(`${device}::text = ANY (g.devices)`);
    countWhere.push(`${device}::text = ANY (c.devices)`);
  }
  const favorites = options.favoritesOnly === true;
  const filtersSql = where.join(' AND ');
  const sumCounts = (extra: string[] = []): string => {
    const conditions = [...countWhere, ...extra];
    return `SELECT coalesce(sum(c.games), 0) AS count FROM game_counts c${conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : ''}`;
  };
  const userParam = favorites ? param(userId) : null;
  const from = favorites ? `favorite_games f JOIN games g ON g.id = f.game_id AND f.user_id = ${userParam}::bigint` : 'games g';
  const listingOrder = 'sort_order, name, id';
  let withSql: string;
  let totalSql: string;
  // A page past the end returns no row to read the total from: this statement counts alone.
  let countSql: string;
  let countParams: unknown[];

  if (search === '' && !favorites) {
    // A listing: the page's ids are an index range in listing order, the planner stopping at the page's
    // end; the total is the sum of the listing's groups in game_counts, once for the statement.
    countSql = sumCounts();
    countParams = [...params];
    withSql = `page AS (SELECT g.id FROM games g WHERE ${filtersSql} ORDER BY g.sort_order, g.name, g.id LIMIT ${param(limit)} OFFSET ${param(offset)})`;
    totalSql = `(${countSql})`;
  } else {
    // A search or the favourites: every match is read to be ordered (a trigram index lookup, or the
    // player's favourites), so the same rows give the total. MATERIALIZED plans the matches without
    // the page's LIMIT: planned with it, PostgreSQL walks the listing index in order and filters every
    // game, hoping to stop early, as if a count over all the rows could stop early too. A provider
    // whose name matched is the exception, below: its games are its listing.
    const pattern = search === '' ? null : `('%' || lower(${param(escapeLike(search))}::text) || '%')`;
    const byName = pattern === null ? null : `g.search_name LIKE ${pattern} ESCAPE '\\'`;
    const matching = matchingProviders.length > 0 && byName !== null ? param(matchingProviders) : null;
    let matchesWhere = filtersSql;
    if (byName !== null && matching === null) matchesWhere += ` AND ${byName}`;
    // A player's favourites are few: a matching provider's are taken with the names in one pass.
    else if (byName !== null && favorites) matchesWhere += ` AND (${byName} OR g.provider_id = ANY (${matching}::int[]))`;
    // In the catalogue, the games of a provider whose name matched are a listing of that provider (an
    // index range in listing order, its total in game_counts); the name search covers the others.
    else if (byName !== null) matchesWhere += ` AND ${byName} AND g.provider_id <> ALL (${matching}::int[])`;
    const providersTotal = !favorites && matching !== null ? sumCounts([`c.provider_id = ANY (${matching}::int[])`]) : null;
    countSql = `SELECT count(*) AS count FROM ${from} WHERE ${matchesWhere}`;
    if (providersTotal !== null) countSql = `SELECT (${countSql}) + (${providersTotal}) AS count`;
    countParams = [...params];
    if (favorites) {
      withSql = `matches AS MATERIALIZED (SELECT g.id, f.created_at AS favorited_at FROM ${from} WHERE ${matchesWhere}),
        page AS (SELECT id, favorited_at FROM matches ORDER BY favorited_at DESC, id DESC LIMIT ${param(limit)} OFFSET ${param(offset)})`;
      totalSql = '(SELECT count(*) FROM matches)';
    } else {
      // The first offset + limit of each part are enough to order the page from.
      const enough = param(offset + limit);
      const parts = [`(SELECT id, sort_order, name FROM matches ORDER BY ${listingOrder} LIMIT ${enough})`];
      for (const id of matching === null ? [] : matchingProviders) {
        parts.push(`(SELECT g.id, g.sort_order, g.name FROM games g WHERE ${filtersSql} AND g.provider_id = ${param(id)}
          ORDER BY g.sort_order, g.name, g.id LIMIT ${enough})`);
      }
      withSql = `matches AS MATERIALIZED (SELECT g.id, g.sort_order, g.name FROM games g WHERE ${matchesWhere}),
        page AS (SELECT id FROM (${parts.join(' UNION ALL ')}) found
          ORDER BY ${listingOrder} LIMIT ${param(limit)} OFFSET ${param(offset)})`;
      totalSql = `((SELECT count(*) FROM matches)${providersTotal === null ? '' : ` + (${providersTotal})`})`;
    }
  }

  // The page's ids first (no joins), then the joins for those few rows only: deep pages then skip index
  // entries instead of joined rows.
  const favoriteOf = userParam ?? param(userId);
  const rows = await db.query<GameRow & { is_favorite: boolean; total_count: number }>(
    `WITH ${withSql}
     SELECT ${GAME_COLUMNS}, ${totalSql} AS total_count,
       (${favoriteOf}::bigint IS NOT NULL AND EXISTS (
         SELECT 1 FROM favorite_games uf WHERE uf.user_id = ${favoriteOf}::bigint AND uf.game_id = g.id)) AS is_favorite
     FROM page JOIN games g ON g.id = page.id JOIN providers p ON p.id = g.provider_id
     ORDER BY ${favorites ? 'page.favorited_at DESC, g.id DESC' : 'g.sort_order, g.name, g.id'}`,
    params,
  );
  let count: number;
  const first = rows[0];
  if (first) count = first.total_count;
  else if (offset === 0) count = 0;
  else count = (await one<{ count: number }>(db, countSql, countParams)).count;
  return {
    rows: rows.map((r) => {
      const { thumbnailHue: _hue, ...game } = toGame(r);
      return { ...game, isFavorite: r.is_favorite };
    }),
    count,
  };
}

/** An active game of an active provider, or null. */
export async function getGame(db: Queryable, id: number): Promise<Game | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const row = await maybeOne<GameRow>(
    db,
    `SELECT ${GAME_COLUMNS}
     FROM games g JOIN providers p ON p.id = g.provider_id
     WHERE g.id = $1 AND g.active AND p.active`,
    [id],
  );
  return row ? toGame(row) : null;
}

export interface FavoriteToggle {
  gameId: number;
  isFavorite: boolean;
}

/**
 * Adds the game to the player's favourites, or removes it when it is there, in one atomic statement.
 * Throws GameNotFoundError for an unknown or inactive game.
 */
export async function toggleFavorite(db: Queryable, userId: number, gameId: number): Promise<FavoriteToggle> {
  if (!Number.isSafeInteger(gameId) || gameId <= 0) throw new GameNotFoundError(gameId);
  const result = await one<{ found: number; added: number }>(
    db,
    `WITH game AS (
       SELECT g.id FROM games g JOIN providers p ON p.id = g.provider_id WHERE g.id = $2 AND g.active AND p.active
     ), removed AS (
       DELETE FROM favorite_games WHERE user_id = $1 AND game_id IN (SELECT id FROM game) RETURNING game_id
     ), added AS (
       INSERT INTO favorite_games (user_id, game_id)
       SELECT $1, id FROM game WHERE NOT EXISTS (SELECT 1 FROM removed)
       ON CONFLICT DO NOTHING
       RETURNING game_id
     )
     SELECT (SELECT count(*) FROM game) AS found, (SELECT count(*) FROM added) AS added`,
    [userId, gameId],
  );
  if (result.found === 0) throw new GameNotFoundError(gameId);
  return { gameId, isFavorite: result.added > 0 };
}

// ---------------------------------------------------------------------------------------------------
// Game sessions

export const GAME_SESSION_TTL_MS = 4 * 60 * 60 * 1000;

export interface CreateGameSessionInput {
  /** null for a visitor: only demo play is allowed then. */
  userId: number | null;
  gameId: number;
  demo: boolean;
  /**
   * Real-money sessions: the wallet currency bets use; default the player's selected wallet, else the
   * first enabled currency (LTC). Ignored for demo sessions.
   */
  currencyCode?: string | null;
  /** When given, the game must run on it. */
  device?: Device;
  /** The current time (the server's clock, which tests can move); default the system clock. */
  now?: Date;
}

export interface GameSession {
  sessionId: string;
  launchUrl: string;
  gameId: number;
  demo: boolean;
  /** null in demo mode. */
  currencyCode: string | null;
  expiresAt: Date;
}

/**
 * Opens a session for a game, valid for 4 hours. Throws LoginRequiredError for real-money play
 * without a player; GameNotFoundError for an unknown or inactive game, and its subclasses
 * DemoNotAvailableError (demo of a game without one) and GameNotOnDeviceError; and
 * CurrencyNotAvailableError for an unknown or disabled currency.
 */
export async function createGameSession(db: Queryable, input: CreateGameSessionInput): Promise<GameSession> {
  if (!input.demo && input.userId === null) throw new LoginRequiredError();
  const game = await getGame(db, input.gameId);
  if (!game) throw new GameNotFoundError(input.gameId);
  if (input.demo && !game.hasDemo) throw new DemoNotAvailableError(game.id);
  if (input.device !== undefined && !game.devices.includes(input.device)) throw new GameNotOnDeviceError(game.id, input.device);
  const currencyCode = input.demo ? null : await sessionCurrency(db, input.userId, input.currencyCode ?? null);
  // 192 random bits, URL-safe: the session id is the only credential of the launch URL.
  const sessionId = randomBytes(24).toString('base64url');
  const expiresAt = new Date((input.now ?? new Date()).getTime() + GAME_SESSION_TTL_MS);
  await db.query(
    `INSERT INTO game_sessions (id, user_id, game_id, demo, currency_code, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, coalesce($6::timestamptz, now()), $7)`,
    [sessionId, input.userId, game.id, input.demo, currencyCode, input.now ?? null, expiresAt],
  );
  return { sessionId, launchUrl: `/play/${sessionId}`, gameId: game.id, demo: input.demo, currencyCode, expiresAt };
}

async function sessionCurrency(db: Queryable, userId: number | null, requested: string | null): Promise<string> {
  if (requested !== null) {
    const currency = await maybeOne(db, 'SELECT 1 FROM currencies WHERE code = $1 AND enabled', [requested]);
    if (!currency) throw new CurrencyNotAvailableError(requested);
    return requested;
  }
  const row = await maybeOne<{ code: string }>(
    db,
    `SELECT code FROM (
       SELECT c.code, 0 AS rank, 0 AS sort_order FROM wallets w JOIN currencies c ON c.id = w.currency_id
       WHERE w.user_id = $1 AND w.selected AND c.enabled
       UNION ALL
       SELECT code, 1, sort_order FROM currencies WHERE enabled
     ) candidates ORDER BY rank, sort_order LIMIT 1`,
    [userId],
  );
  if (!row) throw new CurrencyNotAvailableError('none');
  return row.code;
}

export interface StoredGameSession {
  sessionId: string;
  userId: number | null;
  gameId: number;
  demo: boolean;
  currencyCode: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** A session that exists and has not expired at `now` (default the system clock), or null. */
export async function getGameSession(db: Queryable, sessionId: string, now: Date = new Date()): Promise<StoredGameSession | null> {
  const row = await maybeOne<{
    id: string;
    user_id: number | null;
    game_id: number;
    demo: boolean;
    currency_code: string | null;
    created_at: Date;
    expires_at: Date;
  }>(
    db,
    `SELECT id, user_id, game_id, demo, currency_code, created_at, expires_at
     FROM game_sessions WHERE id = $1 AND expires_at > $2`,
    [sessionId, now],
  );
  if (!row) return null;
  return {
    sessionId: row.id,
    userId: row.user_id,
    gameId: row.game_id,
    demo: row.demo,
    currencyCode: row.currency_code,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export interface OpenGameSession {
  session: StoredGameSession;
  game: GameListRow;
}

/**
 * An open session as its game page shows it, with its game, for whoever may see it: a demo session for
 * anyone with its id, a real-money one only for its own player. Null when the session is unknown,
 * expired, another player's, or its game is no longer active.
 */
export async function readGameSession(db: Queryable, sessionId: string, userId: number | null, now: Date = new Date()): Promise<OpenGameSession | null> {
  const session = await getGameSession(db, sessionId, now);
  if (!session || (!session.demo && session.userId !== userId)) return null;
  const game = await getGame(db, session.gameId);
  if (!game) return null;
  const favourite =
    userId === null ? undefined : await maybeOne(db, 'SELECT 1 FROM favorite_games WHERE user_id = $1 AND game_id = $2', [userId, game.id]);
  const { thumbnailHue: _hue, ...row } = game;
  return { session, game: { ...row, isFavorite: favourite !== undefined } };
}

// ---------------------------------------------------------------------------------------------------
// Thumbnails

export interface ThumbnailInput {
  name: string;
  providerName: string;
  thumbnailHue: number;
}

const THUMBNAIL_WIDTH = 300;
const THUMBNAIL_HEIGHT = 400;
const MAX_LINE_CHARS = 14;
const MAX_LINES = 3;

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) =>
    c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : c === '"' ? '&quot;' : '&apos;',
  );
}

/** Cuts `text` to `max` characters, ending with '…' when it was cut (or when `forceEllipsis`). */
function truncate(text: string, max: number, forceEllipsis = false): string {
  const chars = [...text];
  if (chars.length <= max && !forceEllipsis) return text;
  if (chars.length < max) return `${text}…`;
  return `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}

/** Greedy word wrap into at most `maxLines` lines; what does not fit ends the last line with '…'. */
export function wrapTitle(text: string, maxChars = MAX_LINE_CHARS, maxLines = MAX_LINES): string[] {
  const words = text.trim().split(/\s+/).filter((w) => w !== '');
  const lines: string[] = [];
  let next = 0;
  while (next < words.length && lines.length < maxLines) {
    let line = words[next] ?? '';
    next += 1;
    for (let word = words[next]; word !== undefined && [...`${line} ${word}`].length <= maxChars; word = words[next]) {
      line = `${line} ${word}`;
      next += 1;
    }
    lines.push(line);
  }
  const overflow = next < words.length;
  return lines.map((line, i) => truncate(line, maxChars, overflow && i === lines.length - 1));
}

/**
 * A self-contained 300x400 SVG card for a game: a gradient from its hue, the name on one to three
 * lines and the provider's name small at the bottom, drawn as outlines, with both in its <title>. All
 * text is XML-escaped; no external references.
 */
export function renderThumbnail(game: ThumbnailInput): string {
  const hue = ((Math.round(Number.isFinite(game.thumbnailHue) ? game.thumbnailHue : 0) % 360) + 360) % 360;
  const hue2 = (hue + 40) % 360;
  const lines = wrapTitle(game.name);
  // The most a line's type may be; one wider than the card is drawn smaller to fit.
  const fontSize = lines.length <= 1 ? 36 : lines.length === 2 ? 34 : 30;
  const lineHeight = Math.round(fontSize * 1.2);
  const firstY = Math.round(THUMBNAIL_HEIGHT / 2 - ((lines.length - 1) * lineHeight) / 2 + fontSize / 3);
  // Each line as outlines (./cover-font.ts), or as SVG text where the font lacks a character.
  const line = (content: string, y: number, size: number, maxWidth: number, attributes: string): string => {
    const outline = textOutline(content, 150, y, size, maxWidth);
    return outline === null
      ? `<text x="150" y="${y}" font-family="Helvetica, Arial, sans-serif" font-size="${size}" text-anchor="middle" ${attributes}>${escapeXml(content)}</text>`
      : `<path d="${outline}" ${attributes}/>`;
  };
  const title = lines.map((text, i) => line(text, firstY + i * lineHeight, fontSize, 276, 'font-weight="700" fill="#fff"')).join('');
  const provider = line(truncate(game.providerName, 28), 372, 16, 260, 'fill="#fff" fill-opacity="0.8"');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${THUMBNAIL_WIDTH}" height="${THUMBNAIL_HEIGHT}" viewBox="0 0 ${THUMBNAIL_WIDTH} ${THUMBNAIL_HEIGHT}">` +
    `<title>${escapeXml(`${game.name} · ${game.providerName}`)}</title>` +
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="hsl(${hue},70%,48%)"/><stop offset="1" stop-color="hsl(${hue2},75%,22%)"/>` +
    `</linearGradient></defs>` +
    `<rect width="${THUMBNAIL_WIDTH}" height="${THUMBNAIL_HEIGHT}" rx="16" fill="url(#bg)"/>` +
    `<circle cx="250" cy="60" r="90" fill="#fff" fill-opacity="0.08"/>` +
    `<circle cx="40" cy="360" r="120" fill="#000" fill-opacity="0.12"/>` +
    title +
    provider +
    `</svg>`
  );
}
