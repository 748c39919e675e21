import { formatAmount, parseSignedAmount } from '../../src/money.ts';
import { one, type Queryable } from '../db/db.ts';

/**
 * Common data the SPA loads at start (settings, languages, currencies, pages, banners, countries,
 * payment providers) and the players' notifications. Money leaves here as canonical decimal strings.
 */

/** NUMERIC text ('0.00005000') → canonical amount ('0.00005'). */
function amount(numeric: string): string {
  return formatAmount(parseSignedAmount(numeric));
}

// ---------------------------------------------------------------------------------------------------
// Settings

/** The settings stored in the database (the HTTP layer adds the ones that come from configuration). */
/** The database answers (the health check). */
export async function databaseReachable(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}

export interface Settings {
  siteName: string;
  minDeposit: string;
  minWithdraw: string;
  maxTransferAmount: string;
  withdrawFee: string;
  depositConfirmations: number;
  referralReward: string;
  referralLimit: number;
}

export async function getSettings(db: Queryable): Promise<Settings> {
  const row = await one<{
    site_name: string;
    min_deposit: string;
    min_withdraw: string;
    max_transfer_amount: string;
    withdraw_fee: string;
    deposit_confirmations: number;
    referral_reward: string;
    referral_limit: number;
  }>(
    db,
    `SELECT site_name, min_deposit, min_withdraw, max_transfer_amount, withdraw_fee,
       deposit_confirmations, referral_reward, referral_limit
     FROM settings WHERE id = 1`,
  );
  return {
    siteName: row.site_name,
    minDeposit: amount(row.min_deposit),
    minWithdraw: amount(row.min_withdraw),
    maxTransferAmount: amount(row.max_transfer_amount),
    withdrawFee: amount(row.withdraw_fee),
    depositConfirmations: row.deposit_confirmations,
    referralReward: amount(row.referral_reward),
    referralLimit: row.referral_limit,
  };
}

// ---------------------------------------------------------------------------------------------------
// Languages and currencies

export type LanguageCode = 'en' | 'pt' | 'es';

export interface Language {
  code: LanguageCode;
  name: string;
  nativeName: string;
  /** The default and fallback language (English). */
  default: boolean;
}

export async function listLanguages(db: Queryable): Promise<Language[]> {
  const rows = await db.query<{ code: LanguageCode; name: string; native_name: string; is_default: boolean }>(
    'SELECT code, name, native_name, is_default FROM languages ORDER BY sort_order, code',
  );
  return rows.map((r) => ({ code: r.code, name: r.name, nativeName: r.native_name, default: r.is_default }));
}

export interface Currency {
  id: number;
  code: string;
  name: string;
  decimals: number;
  network: string;
  minDeposit: string;
  minWithdraw: string;
  withdrawFee: string;
  enabled: boolean;
}

interface CurrencyRow {
  id: number;
  code: string;
  name: string;
  decimals: number;
  network: string;
  min_deposit: string;
  min_withdraw: string;
  withdraw_fee: string;
  enabled: boolean;
}

function toCurrency(r: CurrencyRow): Currency {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    decimals: r.decimals,
    network: r.network,
    minDeposit: amount(r.min_deposit),
    minWithdraw: amount(r.min_withdraw),
    withdrawFee: amount(r.withdraw_fee),
    enabled: r.enabled,
  };
}

/** Enabled currencies (all of them with includeDisabled), LTC first: by sort_order, then id. */
export async function listCurrencies(db: Queryable, options: { includeDisabled?: boolean } = {}): Promise<Currency[]> {
  const rows = await db.query<CurrencyRow>(
    `SELECT id, code, name, decimals, network, min_deposit, min_withdraw, withdraw_fee, enabled
     FROM currencies WHERE enabled OR $1::boolean ORDER BY sort_order, id`,
    [options.includeDisabled ?? false],
  );
  return rows.map(toCurrency);
}

// ---------------------------------------------------------------------------------------------------
// Pages

export const PAGE_SLUGS = ['faq', 'terms', 'privacy', 'about', 'support'] as const;
export type PageSlug = (typeof PAGE_SLUGS)[number];

export interface Page {
  id: number;
  slug: PageSlug;
  /** The locale the page is written in: the one asked for, or 'en' when that one has no such page. */
  locale: LanguageCode;
  title: string;
  /** Safe HTML (p, h2, ul, li, strong, a). */
  content: string;
  updatedAt: Date;
}

/** Every page in `locale`, falling back to English page by page; an unknown locale gets English. */
export async function listPages(db: Queryable, locale: string): Promise<Page[]> {
  const rows = await db.query<{
    id: number;
    slug: PageSlug;
    locale: LanguageCode;
    title: string;
    content: string;
    updated_at: Date;
  }>(
    `SELECT DISTINCT ON (slug) id, slug, locale, title, content, updated_at
     FROM pages WHERE locale IN ($1, 'en')
     ORDER BY slug, (locale = $1) DESC`,
    [locale],
  );
  return rows
    .map((r) => ({ id: r.id, slug: r.slug, locale: r.locale, title: r.title, content: r.content, updatedAt: r.updated_at }))
    .sort((a, b) => PAGE_SLUGS.indexOf(a.slug) - PAGE_SLUGS.indexOf(b.slug));
}

// ---------------------------------------------------------------------------------------------------
// Banners

export interface Banner {
  id: number;
  title: string;
  subtitle: string | null;
  /** A path on this site or a data: URI. */
  imageUrl: string;
  linkUrl: string | null;
  order: number;
}

/** Active banners in display order. */
export async function listBanners(db: Queryable): Promise<Banner[]> {
  const rows = await db.query<{
    id: number;
    title: string;
    subtitle: string | null;
    image_url: string;
    link_url: string | null;
    sort_order: number;
  }>('SELECT id, title, subtitle, image_url, link_url, sort_order FROM banners WHERE active ORDER BY sort_order, id');
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    subtitle: r.subtitle,
    imageUrl: r.image_url,
    linkUrl: r.link_url,
    order: r.sort_order,
  }));
}

// ---------------------------------------------------------------------------------------------------
// Countries and states

export interface CountryState {
  code: string;
  name: string;
}

export interface CountryWithStates {
  code: string;
  name: string;
  /** Calling code as players type it, e.g. '+351' for Portugal, '+1-684' for American Samoa. */
  phoneCode: string;
  states: CountryState[];
}

// Countries and states never change while the server runs: load them once per database.
const countriesCache = new WeakMap<Queryable, Promise<CountryWithStates[]>>();

async function loadCountries(db: Queryable): Promise<CountryWithStates[]> {
  const countries = await db.query<{ code: string; name: string; phone_code: string }>(
    'SELECT code, name, phone_code FROM countries',
  );
  const states = await db.query<{ country_code: string; code: string; name: string }>(
    'SELECT country_code, code, name FROM states',
  );
  const collator = new Intl.Collator('en');
  const byCountry = new Map<string, CountryState[]>();
  for (const s of states) {
    let list = byCountry.get(s.country_code);
    if (!list) byCountry.set(s.country_code, (list = []));
    list.push({ code: s.code, name: s.name });
  }
  return countries
    .map((c) => ({
      code: c.code,
      name: c.name,
      phoneCode: c.phone_code,
      states: (byCountry.get(c.code) ?? []).sort((a, b) => collator.compare(a.name, b.name)),
    }))
    .sort((a, b) => collator.compare(a.name, b.name));
}

/** Every country by name, each with its phone code and states. Cached per database after the first call. */
export function listCountries(db: Queryable): Promise<CountryWithStates[]> {
  let cached = countriesCache.get(db);
  if (!cached) {
    cached = loadCountries(db);
    countriesCache.set(db, cached);
    // A failed load is not remembered: the next call tries again.
    cached.catch(() => countriesCache.delete(db));
  }
  return cached;
}

// ---------------------------------------------------------------------------------------------------
// Payment providers

export interface PaymentProvider {
  id: number;
  key: string;
  name: string;
  depositAllowed: boolean;
  withdrawAllowed: boolean;
  /** Codes of the enabled currencies, LTC first. */
  currencies: string[];
  /** Site-wide figures from settings (SPEC §9, in LTC). */
  minDeposit: string;
  minWithdraw: string;
  maxAmount: string;
  withdrawFee: string;
  confirmations: number;
}

/**
 * Active payment providers with the currencies they take and the site-wide limits (per-currency
 * figures are in {@link listCurrencies}).
 */
/**
 * The active payment providers. `adapterCurrencies`: the currencies the configured payment adapter is set
 * up for (CoinPayments: those it has a wallet of), when it names them: a currency outside it is not
 * offered, since a payment in it is refused (PAYMENT_PROVIDER_LIMITS_NOT_EXISTS).
 */
export async function listPaymentProviders(db: Queryable, adapterCurrencies?: readonly string[]): Promise<PaymentProvider[]> {
  const providers = await db.query<{ id: number; key: string; name: string; deposit_allowed: boolean; withdraw_allowed: boolean }>(
    'SELECT id, key, name, deposit_allowed, withdraw_allowed FROM payment_providers WHERE active ORDER BY id',
  );
  if (providers.length === 0) return [];
  const settings = await getSettings(db);
  const currencies = await listCurrencies(db);
  return providers.map((p) => ({
    id: p.id,
    key: p.key,
    name: p.name,
    depositAllowed: p.deposit_allowed,
    withdrawAllowed: p.withdraw_allowed,
    currencies: currencies.map((c) => c.code).filter((code) => !adapterCurrencies || adapterCurrencies.includes(code)),
    minDeposit: settings.minDeposit,
    minWithdraw: settings.minWithdraw,
    maxAmount: settings.maxTransferAmount,
    withdrawFee: settings.withdrawFee,
    confirmations: settings.depositConfirmations,
  }));
}

// ---------------------------------------------------------------------------------------------------
// Notifications

export interface Notification {
  id: number;
  title: string;
  message: string;
  isRead: boolean;
  readAt: Date | null;
  createdAt: Date;
}

interface NotificationRow {
  id: number;
  title: string;
  message: string;
  read_at: Date | null;
  created_at: Date;
}

function toNotification(r: NotificationRow): Notification {
  return { id: r.id, title: r.title, message: r.message, isRead: r.read_at !== null, readAt: r.read_at, createdAt: r.created_at };
}

export interface PageRequest {
  /** 1-based; values below 1 are read as 1. */
  page: number;
  /** 1 to 100; values outside are clamped. */
  limit: number;
}

export const MAX_PAGE_LIMIT = 100;

/** Page and limit made safe for OFFSET/LIMIT (the HTTP layer validates; this only guards the SQL). */
export function normalisePaging({ page, limit }: PageRequest): { limit: number; offset: number } {
  const safePage = Number.isFinite(page) ? Math.max(1, Math.floor(page)) : 1;
  const safeLimit = Number.isFinite(limit) ? Math.min(MAX_PAGE_LIMIT, Math.max(1, Math.floor(limit))) : 20;
  return { limit: safeLimit, offset: (safePage - 1) * safeLimit };
}

export interface NotificationPage {
  rows: Notification[];
  count: number;
  unreadCount: number;
}

/** The player's notifications, newest first, with the total and unread counts. */
export async function listNotifications(db: Queryable, userId: number, paging: PageRequest): Promise<NotificationPage> {
  const { limit, offset } = normalisePaging(paging);
  const rows = await db.query<NotificationRow>(
    `SELECT id, title, message, read_at, created_at FROM user_notifications
     WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [userId, limit, offset],
  );
  const counts = await one<{ count: number; unread: number }>(
    db,
    `SELECT count(*) AS count, count(*) FILTER (WHERE read_at IS NULL) AS unread
     FROM user_notifications WHERE user_id = $1`,
    [userId],
  );
  return { rows: rows.map(toNotification), count: counts.count, unreadCount: counts.unread };
}

/**
 * Marks the given notifications, or all of them with 'all', as read. Only the player's own unread ones
 * change; other ids are ignored. Returns how many changed.
 */
export async function markNotificationsRead(db: Queryable, userId: number, ids: readonly number[] | 'all'): Promise<number> {
  if (ids !== 'all' && ids.length === 0) return 0;
  const rows =
    ids === 'all'
      ? await db.query<{ id: number }>(
          'UPDATE user_notifications SET read_at = now() WHERE user_id = $1 AND read_at IS NULL RETURNING id',
          [userId],
        )
      : await db.query<{ id: number }>(
          `UPDATE user_notifications SET read_at = now()
           WHERE user_id = $1 AND read_at IS NULL AND id = ANY($2::bigint[]) RETURNING id`,
          [userId, [...ids]],
        );
  return rows.length;
}
