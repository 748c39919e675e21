import { createHash, randomUUID } from 'node:crypto';
import type { components } from '../../src/api/schema.d.ts';
import { DEFAULT_SLOT_SKIN } from '../../src/fairness/slot.ts';
import { divRound, formatAmount, formatFixed, parseAmount, parseSignedAmount } from '../../src/money.ts';
import type { AppContext } from '../context.ts';
import { announceCommitted, announcedAtCommit, LIVE_CHANNEL } from '../live.ts';
import { Batcher, latestCallTime } from './batcher.ts';
import { maybeOne, one, type Db, type Queryable } from '../db/db.ts';
import { hmacSha256Hex, hmacSha256HexMatches } from '../signatures.ts';
import { DomainError, badRequest, type ErrorCode } from './errors.ts';
import { LIMITS_CURRENCY } from './held-deposits.ts';
import { currencyStep, idempotency, type TransactionActionType } from './ledger.ts';

/**
 * The seamless game wallet: the calls a game provider (or an aggregator) makes while a player plays a
 * real-money session opened by casinoInitGame. The casino keeps the money; the game only reports bets,
 * wins and rollbacks of its rounds.
 *
 * Authentication: the game session id in the body names the player, wallet and game, and the body is
 * signed (`X-Game-Signature`, hex HMAC-SHA256 of the raw body) with the game provider's wallet key
 * (providers.wallet_secret): the session id travels through the player's browser, the key never does.
 *
 * Money rules, replays and rollbacks: game_wallet_play (server/db/schema/1_function_game_wallet_play.sql),
 * the one implementation; under load several players' calls share its call (it takes its calls as a set).
 */

export const GAME_WALLET_ACTIONS = ['bet', 'win', 'freeSpin', 'rollbackBet', 'rollbackWin'] as const;
export type GameWalletAction = (typeof GAME_WALLET_ACTIONS)[number] & TransactionActionType;

export const SIGNATURE_HEADER = 'x-game-signature';

/** Hex HMAC-SHA256 of a wallet call's raw body with the game provider's wallet key. */
export const signGameWalletRequest = hmacSha256Hex;

// ---------------------------------------------------------------------------------------------------
// Sessions

interface SessionRow {
  id: string;
  user_id: number | null;
  demo: boolean;
  game_id: number;
  game_identifier: string;
  provider_id: number;
  provider_slug: string;
  wallet_secret: string;
  wallet_id: number | null;
  currency_id: number | null;
  currency_code: string | null;
  decimals: number | null;
}

export interface GameWalletSession {
  sessionId: string;
  userId: number;
  gameId: number;
  gameIdentifier: string;
  providerId: number;
  providerSlug: string;
  walletId: number;
  currencyId: number;
  currencyCode: string;
  decimals: number;
  /** The provider's key the call's signature was checked with (game_wallet_play checks it still is). */
  walletSecret: string;
  /**
   * Set when the session came from the server's cache: reads it from the database again and checks the
   * call's signature afresh (what a call that found the session changed does before going on).
   */
  reauthenticate: (() => Promise<GameWalletSession>) | null;
}

/**
 * Sessions already authenticated, per database, by session id: the session, its game, provider, key and
 * wallet, read once instead of on every call. What can change under it is checked where it matters, in
 * the statement that uses it: game_wallet_play and the balance read go on only while the session is there
 * and the provider's key is still the one the call was checked with (game_wallet_play judges the session's
 * expiry itself); otherwise the session is read again (a signature with a rotated-out key is refused at
 * once). Without it the rounds a second fall by a third (docs/performance.md).
 */
const sessionCaches = new WeakMap<object, Map<string, SessionRow>>();
const SESSION_CACHE_LIMIT = 10_000;

function sessionCache(db: object): Map<string, SessionRow> {
  let cache = sessionCaches.get(db);
  if (!cache) {
    cache = new Map();
    sessionCaches.set(db, cache);
  }
  return cache;
}

/**
 * The real-money session a signed call belongs to. An unknown session is 401 SESSION_EXPIRED, a signature
 * that does not match its provider's key 401 INVALID_SIGNATURE, a demo session (it has no wallet)
 * 403 FORBIDDEN.
 */
export async function authenticateGameCall(
  ctx: AppContext,
  input: { sessionId: string; rawBody: string; signature: string },
): Promise<GameWalletSession> {
  const cached = sessionCache(ctx.db).get(input.sessionId);
  if (cached && hmacSha256HexMatches(cached.wallet_secret, input.rawBody, input.signature)) {
    return toSession(cached, () => readAndAuthenticate(ctx, input));
  }
  return readAndAuthenticate(ctx, input);
}

async function readAndAuthenticate(ctx: AppContext, input: { sessionId: string; rawBody: string; signature: string }): Promise<GameWalletSession> {
  const cache = sessionCache(ctx.db);
  cache.delete(input.sessionId);
  const row = await maybeOne<SessionRow>(
    ctx.db,
    `SELECT s.id, s.user_id, s.demo, g.id AS game_id, g.identifier AS game_identifier, p.id AS provider_id,
       p.slug AS provider_slug, p.wallet_secret, w.id AS wallet_id, c.id AS currency_id, c.code AS currency_code, c.decimals
     FROM game_sessions s JOIN games g ON g.id = s.game_id JOIN providers p ON p.id = g.provider_id
     LEFT JOIN currencies c ON c.code = s.currency_code
     LEFT JOIN wallets w ON w.user_id = s.user_id AND w.currency_id = c.id
     WHERE s.id = $1`,
    [input.sessionId],
    // A session's first call, and every call after its cached copy is dropped: planned once per connection.
    { prepared: 'game_wallet_session' },
  );
  if (!row) throw new DomainError('SESSION_EXPIRED');
  if (!hmacSha256HexMatches(row.wallet_secret, input.rawBody, input.signature)) throw new DomainError('INVALID_SIGNATURE');
  if (row.demo || row.user_id === null) throw new DomainError('FORBIDDEN');
  if (row.wallet_id === null || row.currency_id === null || row.currency_code === null || row.decimals === null) {
    throw new DomainError('CURRENCY_NOT_AVAILABLE');
  }
  if (cache.size >= SESSION_CACHE_LIMIT) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(row.id, row);
  return toSession(row, null);
}

function toSession(row: SessionRow, reauthenticate: (() => Promise<GameWalletSession>) | null): GameWalletSession {
  if (row.user_id === null || row.wallet_id === null || row.currency_id === null || row.currency_code === null || row.decimals === null) {
    throw new Error(`session ${row.id} has no wallet`);
  }
  return {
    sessionId: row.id,
    userId: row.user_id,
    gameId: row.game_id,
    gameIdentifier: row.game_identifier,
    providerId: row.provider_id,
    providerSlug: row.provider_slug,
    walletId: row.wallet_id,
    currencyId: row.currency_id,
    currencyCode: row.currency_code,
    decimals: row.decimals,
    walletSecret: row.wallet_secret,
    reauthenticate,
  };
}

export interface GameBalanceView {
  currencyCode: string;
  /** available + bonus: what the game shows as the player's balance. */
  balance: string;
  available: string;
  bonus: string;
}

function balanceView(currencyCode: string, available: bigint, bonus: bigint): GameBalanceView {
  return { currencyCode, balance: formatAmount(available + bonus), available: formatAmount(available), bonus: formatAmount(bonus) };
}

/** The session wallet's balances (a game asks at launch and after each round). */
export async function gameBalance(ctx: AppContext, session: GameWalletSession): Promise<GameBalanceView> {
  // Only while the session and the provider's key are still those the call was checked with.
  const row = await maybeOne<{ available: string; bonus: string }>(
    ctx.db,
    `SELECT w.available, w.bonus FROM wallets w
     WHERE w.id = $1 AND EXISTS (SELECT 1 FROM game_sessions s JOIN games g ON g.id = s.game_id JOIN providers p ON p.id = g.provider_id
       WHERE s.id = $2 AND p.wallet_secret = $3)`,
    [session.walletId, session.sessionId, session.walletSecret],
  );
  if (!row) {
    if (session.reauthenticate) return gameBalance(ctx, await session.reauthenticate());
    throw new DomainError('SESSION_EXPIRED');
  }
  return balanceView(session.currencyCode, parseSignedAmount(row.available), parseSignedAmount(row.bonus));
}

// ---------------------------------------------------------------------------------------------------
// Calls

export interface GameWalletCall {
  action: GameWalletAction;
  roundId: string;
  transactionId: string;
  /** bet, win, freeSpin: the amount; rollbacks move what the cancelled call moved. */
  amount?: string;
  /** rollbackBet, rollbackWin: the transaction id of the bet or win cancelled. */
  referenceTransactionId?: string;
}

export interface GameTransactionView {
  transactionId: string;
  roundId: string;
  action: GameWalletAction;
  referenceTransactionId: string | null;
  amount: string;
  /** The part of amount paid from or to the bonus balance. */
  bonusAmount: string;
  /** The ledger transaction (SPEC §3 transaction ID) that moved the money; null when nothing moved. */
  ledgerTransactionId: string | null;
  balance: GameBalanceView;
  /** True when this call repeated an earlier one: nothing moved this time. */
  replayed: boolean;
  createdAt: string;
}

/** The amount of a bet, win or free spin: a valid amount in the currency's precision (a bet is positive). */
function callAmount(call: GameWalletCall, decimals: number): bigint {
  const text = call.amount;
  if (text === undefined) throw badRequest([{ field: 'amount', code: 'required' }]);
  const units = parseAmount(text);
  if (call.action === 'bet' && units <= 0n) throw badRequest([{ field: 'amount', code: 'amount.positive' }]);
  if (units % currencyStep(decimals) !== 0n) throw badRequest([{ field: 'amount', code: 'amount.decimals' }]);
  return units;
}

/** What makes a call what it is: the same transaction id with another hash is a different request. */
function callHash(session: GameWalletSession, call: GameWalletCall): string {
  return createHash('sha256')
    .update(JSON.stringify([session.walletId, call.action, call.roundId, call.transactionId, call.amount ?? null, call.referenceTransactionId ?? null]))
    .digest('hex');
}

/**
 * casinoInitGame: no real-money game opens once a bet or loss limit has nothing left in its window (not
 * even the smallest bet would fit), in the currency asked for or the selected wallet's. An unknown
 * currency is left to the session's own check (CURRENCY_NOT_AVAILABLE). The limits are held by the
 * database's game_play_limit_exceeded, which refuses bets too.
 */
export async function assertPlayLimitsLeft(db: Queryable, userId: number, currencyCode: string | undefined, now: Date): Promise<void> {
  const currency = await maybeOne<{ id: number; code: string }>(
    db,
    currencyCode === undefined
      ? 'SELECT c.id, c.code FROM wallets w JOIN currencies c ON c.id = w.currency_id WHERE w.user_id = $1 AND w.selected'
      : 'SELECT id, code FROM currencies WHERE code = $1',
    [currencyCode ?? userId],
  );
  if (!currency || currency.code !== LIMITS_CURRENCY) return;
  const row = await one<{ code: ErrorCode | null }>(db, 'SELECT game_play_limit_exceeded($1, $2, $3, $4) AS code', [
    userId,
    currency.id,
    formatFixed(1n),
    now,
  ]);
  if (row.code !== null) throw new DomainError(row.code);
}

interface PlayParams {
  action: GameWalletAction;
  walletId: number;
  userId: number;
  currencyId: number;
  limitsApply: boolean;
  providerId: number;
  sessionId: string;
  gameId: number;
  gameIdentifier: string;
  roundId: string;
  transactionId: string;
  amount: string;
  requestHash: string;
  publicId: string;
  ledgerScope: string;
  ledgerKey: string;
  walletSecret: string;
  reference: string | null;
  at: Date;
}

/** What game_wallet_play answers for a call (server/db/schema/1_function_game_wallet_play.sql). */
interface PlayRow {
  out_status: 'done' | 'replayed' | 'refused' | 'changed';
  out_code: string | null;
  out_action_id: number | null;
  out_ledger_public_id: string | null;
  out_available: string | null;
  out_bonus: string | null;
  out_announce: string[] | null;
  out_amount: string | null;
  out_bonus_amount: string | null;
  out_reference_id: string | null;
  out_created_at: Date | null;
}

const PLAY_COLUMNS = [
  'out_status',
  'out_code',
  'out_action_id',
  'out_ledger_public_id',
  'out_available',
  'out_bonus',
  'out_amount',
  'out_bonus_amount',
  'out_reference_id',
  'out_created_at',
];

const PLAY_STATEMENT = 'game_wallet_play($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)';

/** game_wallet_play's arguments for a set of calls, at the latest of their times (a session's expiry is judged no earlier than any call's own). */
function playArguments(calls: readonly PlayParams[]): unknown[] {
  const column = <K extends keyof PlayParams>(name: K) => calls.map((call) => call[name]);
  return [column('action'), column('walletId'), column('userId'), column('currencyId'), column('limitsApply'), column('providerId'),
    column('sessionId'), column('gameId'), column('gameIdentifier'), column('roundId'), column('transactionId'), column('amount'),
    column('requestHash'), column('publicId'), column('ledgerScope'), column('ledgerKey'), column('walletSecret'), column('reference'),
    latestCallTime(calls)];
}

/**
 * One call alone: game_wallet_play given a set of one, its own database transaction; its live updates
 * announced once it has committed (a NOTIFY inside it would hold every call's commit behind the one before).
 */
async function playOne(db: Queryable, p: PlayParams): Promise<PlayRow> {
  const row = await maybeOne<PlayRow>(db, `SELECT ${PLAY_COLUMNS.join(', ')}, out_announce FROM ${PLAY_STATEMENT}`, playArguments([p]), {
    prepared: 'game_wallet_play',
  });
  if (!row) throw new Error('game_wallet_play returned no row');
  await announceCommitted(db, row.out_announce ?? []);
  return row;
}

/**
 * Calls of several players in one database transaction, game_wallet_play given them all: each answers as
 * it would have alone. The batch's live updates are announced in the same statement, so at its commit.
 */
async function playBatch(db: Queryable, calls: readonly PlayParams[]): Promise<PlayRow[]> {
  const rows = await db.query<PlayRow & { out_n: number }>(
    announcedAtCommit(PLAY_STATEMENT, ['out_n', ...PLAY_COLUMNS], '$20'),
    [...playArguments(calls), LIVE_CHANNEL],
    { prepared: 'game_wallet_play_batch' },
  );
  if (rows.length !== calls.length) throw new Error(`game_wallet_play answered ${rows.length} of ${calls.length} calls`);
  return rows;
}

/**
 * Per database: the most calls in one batch, the most batches on their way at once, and the fewest calls
 * that start another batch while one is on its way. Each batch is a transaction of its own on a
 * connection of the pool, so batches on their way run side by side and share their commits' flushes (no
 * two hold a key in common: they take no lock the other waits for). Figures: docs/performance.md.
 */
const PLAY_BATCH_SIZE = 32;
const PLAY_BATCHES_IN_FLIGHT = 2;
const PLAY_BATCH_MIN_WHILE_BUSY = 8;
const playBatchers = new WeakMap<object, Batcher<PlayParams, PlayRow>>();

function playBatcher(db: Db): Batcher<PlayParams, PlayRow> {
  let batcher = playBatchers.get(db);
  if (!batcher) {
    batcher = new Batcher<PlayParams, PlayRow>({
      maxBatch: PLAY_BATCH_SIZE,
      maxInFlight: PLAY_BATCHES_IN_FLIGHT,
      minBatchWhileBusy: PLAY_BATCH_MIN_WHILE_BUSY,
      // A wallet's calls one at a time, in order; a round's too (another wallet may name the same round id);
      // and a player's (their limits and bonus span their wallets).
      keys: (call) => [`user:${call.userId}`, `wallet:${call.walletId}`, `round:${call.providerId}:${call.roundId}`],
      runOne: (call) => playOne(db, call),
      runBatch: (calls) => playBatch(db, calls),
    });
    playBatchers.set(db, batcher);
  }
  return batcher;
}

/** A refusal game_wallet_play answers, as the contract's error. */
function refusal(code: string | null): DomainError {
  if (code === 'amount.max') return badRequest([{ field: 'amount', code: 'amount.max' }]);
  if (code === 'duplicate') return badRequest([{ field: 'transactionId', code: 'duplicate' }]);
  return new DomainError((code ?? 'INVALID_VALUE') as ErrorCode);
}

/**
 * Applies one signed call of a game session (game_wallet_play), under load in a batch with other wallets'
 * calls. Refusals: 400 PLEASE_CHECK_REQUEST_DATA (amount finer than the currency, a zero bet, a win past
 * the round's bound: field code `amount.max`, a transaction id reused for a different request: field code
 * `duplicate`); 401 SESSION_EXPIRED (a bet or free spin after the session expired); 403 USER_INACTIVE,
 * SELF_EXCLUDED (bets); 404 NOT_FOUND (a win for a round without a bet); 422 INSUFFICIENT_BALANCE, the bet
 * and loss limit codes, INVALID_VALUE (the round was closed by a rollback, or belongs to another wallet).
 */
export async function applyGameCall(ctx: AppContext, authenticated: GameWalletSession, call: GameWalletCall): Promise<GameTransactionView> {
  let session = authenticated;
  const rollback = call.action === 'rollbackBet' || call.action === 'rollbackWin';
  const amount = rollback ? 0n : callAmount(call, session.decimals);
  const hash = callHash(session, call);
  const play = (s: GameWalletSession): Promise<PlayRow> => {
    const key = idempotency.game(`${call.roundId}:${call.transactionId}`, call.action, s.providerSlug);
    return playBatcher(ctx.db).submit({
      action: call.action,
      walletId: s.walletId,
      userId: s.userId,
      currencyId: s.currencyId,
      limitsApply: s.currencyCode === LIMITS_CURRENCY,
      providerId: s.providerId,
      sessionId: s.sessionId,
      gameId: s.gameId,
      gameIdentifier: s.gameIdentifier,
      roundId: call.roundId,
      transactionId: call.transactionId,
      amount: formatFixed(amount),
      requestHash: hash,
      publicId: randomUUID(),
      ledgerScope: key.scope,
      ledgerKey: key.key,
      walletSecret: s.walletSecret,
      reference: rollback ? (call.referenceTransactionId ?? call.transactionId) : null,
      at: ctx.now(),
    });
  };
  let row = await play(session);
  if (row.out_status === 'changed' && session.reauthenticate) {
    // The session the server had read changed: read it again (a rotated key is refused here), then once more.
    session = await session.reauthenticate();
    row = await play(session);
  }
  if (row.out_status === 'changed') throw new DomainError('SESSION_EXPIRED');
  if (row.out_status === 'refused') throw refusal(row.out_code);
  if (row.out_available === null || row.out_bonus === null || row.out_amount === null || row.out_created_at === null) {
    throw new Error(`game_wallet_play answered ${row.out_status} without the call's figures`);
  }
  return {
    transactionId: call.transactionId,
    roundId: call.roundId,
    action: call.action,
    referenceTransactionId: row.out_reference_id,
    amount: formatAmount(parseSignedAmount(row.out_amount)),
    bonusAmount: formatAmount(parseSignedAmount(row.out_bonus_amount ?? '0')),
    ledgerTransactionId: row.out_ledger_public_id,
    balance: balanceView(session.currencyCode, parseSignedAmount(row.out_available), parseSignedAmount(row.out_bonus)),
    replayed: row.out_status === 'replayed',
    createdAt: new Date(row.out_created_at).toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------------
// Bet history

export type BetStatus = 'pending' | 'won' | 'lost' | 'rolledBack';

export interface BetHistoryQuery {
  page: number;
  limit: number;
  startDate?: Date;
  endDate?: Date;
  currencyCode?: string;
  gameId?: number;
  status?: BetStatus;
}

/** A house-game round's provably fair data (server/games): its seeds and nonce, the server seed once rotated. */
export type HouseFairness = components['schemas']['HouseFairness'];

export interface BetHistoryItem {
  roundId: string;
  game: { id: number; name: string; identifier: string };
  betAmount: string;
  multiplier: string | null;
  payout: string;
  status: BetStatus;
  currencyCode: string;
  createdAt: string;
  /** House-game rounds that were played (a nonce taken) only. */
  fairness?: HouseFairness;
}

/** Status from the round's figures; the SQL filter below says the same thing. */
const STATUS_SQL = `CASE
  WHEN r.closed AND r.staked_available + r.staked_bonus = 0 AND r.won = 0 AND NOT r.free_spin THEN 'rolledBack'
  WHEN NOT r.settled THEN 'pending'
  WHEN r.won > 0 THEN 'won'
  ELSE 'lost' END`;

/** The player's rounds, newest first, one page with the total. */
export async function betHistory(db: Queryable, userId: number, query: BetHistoryQuery): Promise<{ rows: BetHistoryItem[]; count: number }> {
  const params: unknown[] = [userId];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = ['r.user_id = $1'];
  if (query.startDate) where.push(`r.created_at >= ${param(query.startDate)}`);
  if (query.endDate) where.push(`r.created_at < ${param(query.endDate)}`);
  if (query.currencyCode) where.push(`c.code = ${param(query.currencyCode)}`);
  if (query.gameId !== undefined) where.push(`r.game_id = ${param(query.gameId)}`);
  if (query.status) where.push(`(${STATUS_SQL}) = ${param(query.status)}`);
  const from = 'game_rounds r JOIN currencies c ON c.id = r.currency_id';
  const filter = where.join(' AND ');
  const limit = Math.min(100, Math.max(1, query.limit));
  const offset = (Math.max(1, query.page) - 1) * limit;
  const filterParams = [...params];
  const rows = await db.query<{
    round_id: string;
    game_id: number;
    game_name: string;
    game_identifier: string;
    staked: string;
    won: string;
    status: BetStatus;
    code: string;
    created_at: Date;
    house_engine: HouseFairness['engine'] | null;
    server_seed_hash: string | null;
    client_seed: string | null;
    nonce: number | null;
    server_seed: string | null;
    // Written by server/games in the shapes openapi.yaml gives them.
    house_params: HouseFairness['params'] | null;
    house_outcome: HouseFairness['outcome'] | null;
    slot_skin: HouseFairness['slotSkin'];
  }>(
    // A house round (server/games) is found by its wallet round id; its Mines board stays hidden while open,
    // and its server seed until the pair is rotated.
    `SELECT r.round_id, g.id AS game_id, g.name AS game_name, g.identifier AS game_identifier,
       r.staked_available + r.staked_bonus AS staked, r.won, ${STATUS_SQL} AS status, c.code, r.created_at,
       h.engine AS house_engine, sp.server_seed_hash, sp.client_seed, h.nonce,
       CASE WHEN sp.revealed_at IS NOT NULL THEN sp.server_seed END AS server_seed, h.params AS house_params,
       CASE WHEN h.engine = 'mines' THEN jsonb_build_object('revealed', to_jsonb(h.revealed),
         'mines', CASE WHEN h.state = 'open' THEN 'null'::jsonb ELSE h.outcome -> 'mines' END, 'end', to_jsonb(h.mines_end))
         ELSE h.outcome END AS house_outcome,
       CASE WHEN h.engine = 'slot' THEN g.slot_skin END AS slot_skin
     FROM ${from} JOIN games g ON g.id = r.game_id
     LEFT JOIN house_rounds h ON h.round_id = r.round_id AND h.game_id = r.game_id AND h.nonce IS NOT NULL
     LEFT JOIN house_seed_pairs sp ON sp.id = h.seed_pair_id
     WHERE ${filter} ORDER BY r.created_at DESC, r.id DESC LIMIT ${param(limit)} OFFSET ${param(offset)}`,
    params,
  );
  const total = await one<{ count: number }>(db, `SELECT count(*)::int AS count FROM ${from} WHERE ${filter}`, filterParams);
  return {
    rows: rows.map((row) => {
      const staked = parseSignedAmount(row.staked);
      const won = parseSignedAmount(row.won);
      return {
        roundId: row.round_id,
        game: { id: row.game_id, name: row.game_name, identifier: row.game_identifier },
        betAmount: formatAmount(staked),
        // payout / bet, rounded down to 8 decimals: the figure never overstates a win.
        multiplier: staked === 0n || row.status === 'pending' ? null : formatAmount(divRound(won * 100_000_000n, staked, 'down')),
        payout: formatAmount(won),
        status: row.status,
        currencyCode: row.code,
        createdAt: row.created_at.toISOString(),
        ...(row.house_engine === null ||
        row.nonce === null ||
        row.server_seed_hash === null ||
        row.client_seed === null ||
        row.house_params === null ||
        row.house_outcome === null
          ? {}
          : {
              fairness: {
                engine: row.house_engine,
                serverSeedHash: row.server_seed_hash,
                clientSeed: row.client_seed,
                nonce: row.nonce,
                serverSeed: row.server_seed,
                params: row.house_params,
                outcome: row.house_outcome,
                // A slot title without a skin of its own plays the default one (server/games/slot-engine.ts).
                slotSkin: row.house_engine === 'slot' ? (row.slot_skin ?? DEFAULT_SLOT_SKIN) : null,
              },
            }),
      };
    }),
    count: total.count,
  };
}
