import { createHash, randomUUID } from 'node:crypto';
import type { components } from '../../src/api/schema.d.ts';
import { DEFAULT_SLOT_SKIN } from '../../src/fairness/slot.ts';
import { divRound, formatAmount, formatFixed, parseAmount, parseSignedAmount } from '../../src/money.ts';
import { LIMIT_PERIODS, type LimitPeriod } from '../../src/rules/limits.ts';
import type { AppContext } from '../context.ts';
import { announceCommitted, announcedAtCommit, LIVE_CHANNEL } from '../live.ts';
import { Batcher, latestCallTime } from './batcher.ts';
import { maybeOne, one, sqlState, type Db, type Queryable } from '../db/db.ts';
import { hmacSha256Hex, hmacSha256HexMatches } from '../signatures.ts';
import { DomainError, badRequest, type ErrorCode } from './errors.ts';
import { bonusMoneyHome, recordWagering, runningBonusId, type BonusMoneyHome } from './bonuses.ts';
import { LIMITS_CURRENCY } from './deposits.ts';
import {
  currencyStep,
  idempotency,
  InsufficientBalanceError,
  postTransaction,
  roundToCurrency,
  systemAccount,
  transfer,
  walletAccount,
  type Leg,
  type TransactionActionType,
} from './ledger.ts';
import { getLimits, LIMIT_PERIOD_MS, selfExclusionOf } from './limits.ts';

/**
 * The seamless game wallet: the calls a game provider (or an aggregator) makes while a player plays a
 * real-money session opened by casinoInitGame. The casino keeps the money; the game only reports bets,
 * wins and rollbacks of its rounds.
 *
 * Authentication: the game session id in the body names the player, wallet and game, and the body is
 * signed (`X-Game-Signature`, hex HMAC-SHA256 of the raw body) with the game provider's wallet key
 * (providers.wallet_secret): the session id travels through the player's browser, the key never does.
 *
 * Money rules, all inside one database transaction with the wallet row locked, so a player's calls
 * queue and a balance never goes below zero:
 * - a bet is paid from available first, then from the bonus balance; it counts toward bonus wagering;
 * - a win is split like the round's stake: the bonus-paid share of the stake (rounded up to the
 *   currency's precision, so bonus money never turns into cash by rounding) belongs to the bonus that
 *   paid it, whatever became of it since: the bonus balance while it runs, available once it completed,
 *   the bonus pool once forfeited or expired; the rest goes to available; a round without a stake (free
 *   spins) pays to available;
 * - a rollback returns exactly what its bet moved, or takes back exactly what its win paid.
 *
 * Idempotency: one row per (round, action, provider transaction id). A replay gets the first answer back
 * and moves nothing; the same transaction id with a different request is refused. A rollback that
 * arrives before what it cancels is stored, and closes the round: the late bet or win is refused.
 */

export const GAME_WALLET_ACTIONS = ['bet', 'win', 'freeSpin', 'rollbackBet', 'rollbackWin'] as const;
export type GameWalletAction = (typeof GAME_WALLET_ACTIONS)[number] & TransactionActionType;

export const SIGNATURE_HEADER = 'x-game-signature';

const BET_LIMIT_CODES: Record<LimitPeriod, ErrorCode> = {
  daily: 'DAILY_BET_LIMIT_EXCEEDED',
  weekly: 'WEEKLY_BET_LIMIT_EXCEEDED',
  monthly: 'MONTHLY_BET_LIMIT_EXCEEDED',
};

const LOSS_LIMIT_CODES: Record<LimitPeriod, ErrorCode> = {
  daily: 'DAILY_LOSS_LIMIT_EXCEEDED',
  weekly: 'WEEKLY_LOSS_LIMIT_EXCEEDED',
  monthly: 'MONTHLY_LOSS_LIMIT_EXCEEDED',
};

/** Hex HMAC-SHA256 of a wallet call's raw body with the game provider's wallet key. */
export const signGameWalletRequest = hmacSha256Hex;

/** The wallet key of the game provider with this id (shared with the provider out of band). */
export async function providerWalletSecret(db: Queryable, providerId: number): Promise<string | undefined> {
  const row = await maybeOne<{ wallet_secret: string }>(db, 'SELECT wallet_secret FROM providers WHERE id = $1', [providerId]);
  return row?.wallet_secret;
}

// ---------------------------------------------------------------------------------------------------
// Sessions

interface SessionRow {
  id: string;
  user_id: number | null;
  demo: boolean;
  expires_at: Date;
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
  /** False once the session has expired: rounds already begun still settle, new play is refused. */
  live: boolean;
  /** The provider's key the call's signature was checked with (the one-statement calls check it still is). */
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
 * the statement that uses it: the one-statement bet and win (game_wallet_play) and the balance read go on
 * only while the provider's key is still the one the call was checked with and, for a bet, the session
 * has not expired; otherwise the session is read again (a signature with a rotated-out key is refused at
 * once). The general path always reads it again.
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
    return toSession(ctx, cached, () => readAndAuthenticate(ctx, input));
  }
  return readAndAuthenticate(ctx, input);
}

async function readAndAuthenticate(ctx: AppContext, input: { sessionId: string; rawBody: string; signature: string }): Promise<GameWalletSession> {
  const cache = sessionCache(ctx.db);
  cache.delete(input.sessionId);
  const row = await maybeOne<SessionRow>(
    ctx.db,
    `SELECT s.id, s.user_id, s.demo, s.expires_at, g.id AS game_id, g.identifier AS game_identifier, p.id AS provider_id,
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
  return toSession(ctx, row, null);
}

function toSession(ctx: AppContext, row: SessionRow, reauthenticate: (() => Promise<GameWalletSession>) | null): GameWalletSession {
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
    live: row.expires_at > ctx.now(),
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

interface RoundRow {
  id: number;
  user_id: number;
  wallet_id: number;
  staked_available: string;
  staked_bonus: string;
  won: string;
  closed: boolean;
  /** The bonus whose money paid part of the stake (migration 0032). */
  user_bonus_id: number | null;
}

interface ActionRow {
  id: number;
  action: GameWalletAction;
  transaction_id: string;
  reference_id: string | null;
  amount: string;
  bonus_amount: string;
  request_hash: string;
  available_after: string;
  bonus_after: string;
  ledger_public_id: string | null;
  created_at: Date;
}

const ACTION_COLUMNS = `a.id, a.action, a.transaction_id, a.reference_id, a.amount, a.bonus_amount, a.request_hash, a.available_after,
  a.bonus_after, l.public_id AS ledger_public_id, a.created_at`;

function actionView(session: GameWalletSession, roundId: string, row: ActionRow, replayed: boolean): GameTransactionView {
  return {
    transactionId: row.transaction_id,
    roundId,
    action: row.action,
    referenceTransactionId: row.reference_id,
    amount: formatAmount(parseSignedAmount(row.amount)),
    bonusAmount: formatAmount(parseSignedAmount(row.bonus_amount)),
    ledgerTransactionId: row.ledger_public_id,
    balance: balanceView(session.currencyCode, parseSignedAmount(row.available_after), parseSignedAmount(row.bonus_after)),
    replayed,
    createdAt: row.created_at.toISOString(),
  };
}

async function findAction(tx: Queryable, roundPk: number, action: GameWalletAction, transactionId: string): Promise<ActionRow | undefined> {
  return maybeOne<ActionRow>(
    tx,
    `SELECT ${ACTION_COLUMNS} FROM game_wallet_actions a LEFT JOIN ledger_transactions l ON l.id = a.ledger_transaction_id
     WHERE a.round_pk = $1 AND a.action = $2 AND a.transaction_id = $3`,
    [roundPk, action, transactionId],
  );
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

/** Refuses a bet that would take the player past a bet or a loss limit (rolling day, week, month). */
async function assertWithinPlayLimits(
  tx: Queryable,
  session: Pick<GameWalletSession, 'userId' | 'currencyId' | 'currencyCode'>,
  amount: bigint,
  now: Date,
): Promise<void> {
  if (session.currencyCode !== LIMITS_CURRENCY) return;
  const limits = await getLimits(tx, session.userId, now);
  const limitOf = (value: string | null) => (value === null ? null : parseAmount(value));
  const anySet = LIMIT_PERIODS.some((period) => limits.bet[period].current !== null || limits.loss[period].current !== null);
  if (!anySet) return;
  // Net stakes and net wins per window: a rolled-back bet or win no longer counts.
  const since = (period: LimitPeriod) => new Date(now.getTime() - LIMIT_PERIOD_MS[period]);
  const sums = await one<Record<string, string>>(
    tx,
    `SELECT
       coalesce(sum(CASE a.action WHEN 'bet' THEN a.amount WHEN 'rollbackBet' THEN -a.amount ELSE 0 END) FILTER (WHERE a.created_at > $2), 0) AS bets_daily,
       coalesce(sum(CASE a.action WHEN 'bet' THEN a.amount WHEN 'rollbackBet' THEN -a.amount ELSE 0 END) FILTER (WHERE a.created_at > $3), 0) AS bets_weekly,
       coalesce(sum(CASE a.action WHEN 'bet' THEN a.amount WHEN 'rollbackBet' THEN -a.amount ELSE 0 END), 0) AS bets_monthly,
       coalesce(sum(CASE a.action WHEN 'win' THEN a.amount WHEN 'freeSpin' THEN a.amount WHEN 'rollbackWin' THEN -a.amount ELSE 0 END)
         FILTER (WHERE a.created_at > $2), 0) AS wins_daily,
       coalesce(sum(CASE a.action WHEN 'win' THEN a.amount WHEN 'freeSpin' THEN a.amount WHEN 'rollbackWin' THEN -a.amount ELSE 0 END)
         FILTER (WHERE a.created_at > $3), 0) AS wins_weekly,
       coalesce(sum(CASE a.action WHEN 'win' THEN a.amount WHEN 'freeSpin' THEN a.amount WHEN 'rollbackWin' THEN -a.amount ELSE 0 END), 0) AS wins_monthly
     FROM game_wallet_actions a JOIN game_rounds r ON r.id = a.round_pk
     WHERE a.user_id = $1 AND r.currency_id = $5 AND a.created_at > $4`,
    [session.userId, since('daily'), since('weekly'), since('monthly'), session.currencyId],
  );
  for (const period of LIMIT_PERIODS) {
    const limit = limitOf(limits.bet[period].current);
    if (limit !== null && parseSignedAmount(sums[`bets_${period}`] ?? '0') + amount > limit) throw new DomainError(BET_LIMIT_CODES[period]);
  }
  for (const period of LIMIT_PERIODS) {
    const limit = limitOf(limits.loss[period].current);
    const loss = parseSignedAmount(sums[`bets_${period}`] ?? '0') - parseSignedAmount(sums[`wins_${period}`] ?? '0');
    if (limit !== null && loss + amount > limit) throw new DomainError(LOSS_LIMIT_CODES[period]);
  }
}

/**
 * casinoInitGame: no real-money game opens once a bet or loss limit has nothing left in its window (not
 * even the smallest bet would fit), in the currency asked for or the selected wallet's. An unknown
 * currency is left to the session's own check (CURRENCY_NOT_AVAILABLE).
 */
export async function assertPlayLimitsLeft(db: Queryable, userId: number, currencyCode: string | undefined, now: Date): Promise<void> {
  const currency = await maybeOne<{ id: number; code: string }>(
    db,
    currencyCode === undefined
      ? 'SELECT c.id, c.code FROM wallets w JOIN currencies c ON c.id = w.currency_id WHERE w.user_id = $1 AND w.selected'
      : 'SELECT id, code FROM currencies WHERE code = $1',
    [currencyCode ?? userId],
  );
  if (!currency) return;
  await assertWithinPlayLimits(db, { userId, currencyId: currency.id, currencyCode: currency.code }, 1n, now);
}

/** What game_wallet_play (migration 0016) raises for a call it leaves to the general path: nothing of it stayed. */
const GENERAL_PATH = 'GW001';
/** ... and for a call whose balance did not cover it or whose session (key, expiry) changed since it was cached. */
const SESSION_CHANGED = 'GW002';

/**
 * A bet, a win or a rollback in one statement, one database transaction (game_wallet_play, migration
 * 0016): the common case of a bet paid from the available balance with no bonus to wager and no limit to
 * check, a win of a round staked from available alone, a rollback of such a bet or win (the ledger's
 * request hash of a rollback is computed there: what it moves is read there). 'general' when the call is
 * not that case (a replay, a
 * refusal, a bonus or a limit in play), 'sessionChanged' when the balance did not cover a bet or the
 * session is no longer what the call was checked against: nothing moved either way.
 */
async function playInOneStatement(
  ctx: AppContext,
  session: GameWalletSession,
  call: GameWalletCall,
  action: 'bet' | 'win' | 'rollbackBet' | 'rollbackWin',
  amount: bigint,
  hash: string,
): Promise<GameTransactionView | 'general' | 'sessionChanged'> {
  const rollback = action === 'rollbackBet' || action === 'rollbackWin';
  const reference = rollback ? (call.referenceTransactionId ?? call.transactionId) : null;
  const now = ctx.now();
  const key = idempotency.game(`${call.roundId}:${call.transactionId}`, action, session.providerSlug);
  const publicId = randomUUID();
  const params: PlayParams = {
    action,
    walletId: session.walletId,
    userId: session.userId,
    currencyId: session.currencyId,
    limitsApply: session.currencyCode === LIMITS_CURRENCY,
    providerId: session.providerId,
    sessionId: session.sessionId,
    gameId: session.gameId,
    gameIdentifier: session.gameIdentifier,
    roundId: call.roundId,
    transactionId: call.transactionId,
    amount: formatFixed(amount),
    requestHash: hash,
    publicId,
    ledgerScope: key.scope,
    ledgerKey: key.key,
    at: now,
    walletSecret: session.walletSecret,
    reference,
  };
  // Bets and wins go through the batcher (several players' calls in one transaction under load); a
  // rollback runs alone.
  const row = rollback ? await playOne(ctx.db, params) : await playBatcher(ctx.db).submit(params);
  if (row === 'general' || row === 'sessionChanged') return row;
  await announceCommitted(ctx.db, row.out_announce);
  return actionView(
    session,
    call.roundId,
    {
      id: row.out_action_id,
      action,
      transaction_id: call.transactionId,
      reference_id: reference,
      amount: row.out_amount,
      bonus_amount: '0',
      request_hash: hash,
      available_after: row.out_available,
      bonus_after: row.out_bonus,
      ledger_public_id: row.out_ledger_id === null ? null : publicId,
      created_at: now,
    },
    false,
  );
}

interface PlayParams {
  action: 'bet' | 'win' | 'rollbackBet' | 'rollbackWin';
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
  at: Date;
  walletSecret: string;
  reference: string | null;
}

interface PlayRow {
  out_action_id: number;
  out_ledger_id: number | null;
  out_available: string;
  out_bonus: string;
  out_announce: string[];
  out_amount: string;
}

type Played = PlayRow | 'general' | 'sessionChanged';

/** One call alone: game_wallet_play, its own database transaction. */
async function playOne(db: Queryable, p: PlayParams): Promise<Played> {
  try {
    const row = await maybeOne<PlayRow>(
      db,
      'SELECT * FROM game_wallet_play($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)',
      [p.action, p.walletId, p.userId, p.currencyId, p.limitsApply, p.providerId, p.sessionId, p.gameId, p.gameIdentifier, p.roundId,
        p.transactionId, p.amount, p.requestHash, p.publicId, p.ledgerScope, p.ledgerKey, p.at, p.walletSecret, p.reference],
      { prepared: 'game_wallet_play' },
    );
    if (!row) throw new Error('game_wallet_play returned no row');
    return row;
  } catch (error) {
    if (sqlState(error) === GENERAL_PATH || sqlState(error) === 'LG002') return 'general';
    if (sqlState(error) === SESSION_CHANGED) return 'sessionChanged';
    throw error;
  }
}

/**
 * Bets and wins of several wallets in one database transaction (game_wallet_play_batch, migration 0024):
 * each call answers as game_wallet_play would have, 'done' with what it wrote, or 'general' or 'changed'
 * having written nothing.
 *
 * The batch's live updates are announced in the same statement, so at its commit (announcedAtCommit, its
 * rows come back with nothing left to announce). A call alone announces after its commit instead: there a
 * NOTIFY held through every call's flush to disk made each commit wait for the one before. A batch commits
 * for several calls, and under `npm run bench:server` (16 players) announcing inside it took a round from
 * 1.07 to 0.87–0.88 ms of server CPU and its rate from 579 to 622–643 a second: no announcement statements
 * of their own, and no call waiting for one before it answers.
 */
async function playBatch(db: Queryable, calls: readonly PlayParams[]): Promise<Played[]> {
  const column = <K extends keyof PlayParams>(name: K) => calls.map((call) => call[name]);
  const rows = await db.query<PlayRow & { out_n: number; out_status: 'done' | 'general' | 'changed' }>(
    announcedAtCommit(
      'game_wallet_play_batch($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)',
      ['out_n', 'out_status', 'out_action_id', 'out_ledger_id', 'out_available', 'out_bonus', 'out_amount'],
      '$19',
    ),
    [column('action'), column('walletId'), column('userId'), column('currencyId'), column('limitsApply'), column('providerId'),
      column('sessionId'), column('gameId'), column('gameIdentifier'), column('roundId'), column('transactionId'), column('amount'),
      column('requestHash'), column('publicId'), column('ledgerScope'), column('ledgerKey'), column('walletSecret'),
      // The latest of the calls' times: a session's expiry is judged no earlier than any call's own time.
      latestCallTime(calls), LIVE_CHANNEL],
    { prepared: 'game_wallet_play_batch' },
  );
  if (rows.length !== calls.length) throw new Error(`game_wallet_play_batch answered ${rows.length} of ${calls.length} calls`);
  return rows.map((row) => (row.out_status === 'done' ? row : row.out_status === 'changed' ? 'sessionChanged' : 'general'));
}

/**
 * Per database: the most calls in one batch, the most batches on their way at once, and the fewest calls
 * that start another batch while one is on its way. Batches go over the database's pipelined connection
 * (Db.pipeline): the second one on its way waits behind the first inside PostgreSQL, which starts it the
 * moment the first has committed.
 *
 * Measured with `npm run bench:server` at 16 players (short runs of the rounds, alternated). Batches of
 * at most 16, each on a pooled connection, three at once and another beside one only from 12 waiting: 8
 * calls a batch, PostgreSQL's CPU per round 1.25–1.31 → 0.97–1.06 ms against another from 6, and the
 * rate the same within the noise (2, 3 or 4 on their way, from 4 to 16 calls, and one at a time). Each
 * batch then started only once the server had the last one's answer: 1,010–1,648 rounds a second over
 * eleven runs, the cores 1.51–1.57 busy of 2. Two on their way, the second pipelined behind the first from
 * 8 waiting: 1,386–1,863 over six runs, 1.65–1.77 cores busy, the CPU per round unchanged. From 6: about
 * the same; three on their way from 4: smaller batches, more CPU per round, and fewer rounds.
 */
const PLAY_BATCH_SIZE = 16;
const PLAY_BATCHES_IN_FLIGHT = 2;
const PLAY_BATCH_MIN_WHILE_BUSY = 8;
const playBatchers = new WeakMap<object, Batcher<PlayParams, Played>>();

function playBatcher(db: Db): Batcher<PlayParams, Played> {
  let batcher = playBatchers.get(db);
  if (!batcher) {
    const pipeline = db.pipeline();
    batcher = new Batcher<PlayParams, Played>({
      maxBatch: PLAY_BATCH_SIZE,
      maxInFlight: PLAY_BATCHES_IN_FLIGHT,
      minBatchWhileBusy: PLAY_BATCH_MIN_WHILE_BUSY,
      // A wallet's calls one at a time, in order; a round's too (another wallet may name the same round id).
      keys: (call) => [`wallet:${call.walletId}`, `round:${call.providerId}:${call.roundId}`],
      runOne: (call) => playOne(db, call),
      runBatch: (calls) => playBatch(pipeline, calls),
    });
    playBatchers.set(db, batcher);
  }
  return batcher;
}

/** 1 in units of 1e-8, as parseSignedAmount reads amounts (and the multiplier). */
const UNIT = 100_000_000n;

/**
 * A round's wins may add up to its stake times its provider's max_win_multiplier (migration 0022), no
 * more: a win past it is refused (400, field `amount`, code `amount.max`) and moves nothing. Free-spin
 * rounds have no stake and are not bounded here.
 */
async function assertWinWithinStake(tx: Queryable, providerId: number, staked: bigint, wonAfter: bigint): Promise<void> {
  const provider = await one<{ max_win_multiplier: string }>(tx, 'SELECT max_win_multiplier FROM providers WHERE id = $1', [providerId]);
  if (wonAfter * UNIT > staked * parseSignedAmount(provider.max_win_multiplier)) throw badRequest([{ field: 'amount', code: 'amount.max' }]);
}

/** The one refusal of a call on a round that cannot take it: a closed round, another wallet's round. */
const roundRefused = () => new DomainError('INVALID_VALUE');

/**
 * Applies one signed call of a game session. Refusals: 400 PLEASE_CHECK_REQUEST_DATA (amount finer than
 * the currency, a zero bet, a transaction id reused for a different request: field code `duplicate`);
 * 401 SESSION_EXPIRED (a bet or free spin after the session expired); 403 USER_INACTIVE, SELF_EXCLUDED
 * (bets); 404 NOT_FOUND (a win for a round without a bet); 422 INSUFFICIENT_BALANCE, the bet and loss
 * limit codes, INVALID_VALUE (the round was closed by a rollback, or belongs to another wallet).
 */
export async function applyGameCall(ctx: AppContext, authenticated: GameWalletSession, call: GameWalletCall): Promise<GameTransactionView> {
  let session = authenticated;
  const amount = call.action === 'rollbackBet' || call.action === 'rollbackWin' ? 0n : callAmount(call, session.decimals);
  const hash = callHash(session, call);
  // New play needs a live session: an expired one's bet goes the general way (a replay, or refused).
  const action = call.action;
  const oneStatement = (s: GameWalletSession) => (action === 'bet' && s.live) || action === 'win' || action === 'rollbackBet' || action === 'rollbackWin';
  if (action !== 'freeSpin' && oneStatement(session)) {
    let played = await playInOneStatement(ctx, session, call, action, amount, hash);
    if (played === 'sessionChanged' && session.reauthenticate) {
      // Read again (a rotated key or an expired session is refused here), then once more with it.
      session = await session.reauthenticate();
      played = oneStatement(session) ? await playInOneStatement(ctx, session, call, action, amount, hash) : 'general';
    }
    if (typeof played === 'object') return played;
  }
  // The general path reads the session afresh: its expiry decides what it may still take.
  if (session.reauthenticate) session = await session.reauthenticate();
  try {
    return await ctx.db.transaction(async (tx) => {
      const now = ctx.now();
      // The wallet row first: every call of this wallet waits here, so balances, limits and rounds are
      // read and written by one call at a time.
      const wallet = await one<{ available: string; bonus: string }>(tx, 'SELECT available, bonus FROM wallets WHERE id = $1 FOR UPDATE', [
        session.walletId,
      ]);
      const available = parseSignedAmount(wallet.available);
      const bonus = parseSignedAmount(wallet.bonus);

      let round = await maybeOne<RoundRow>(
        tx,
        `SELECT id, user_id, wallet_id, staked_available, staked_bonus, won, closed, user_bonus_id::int AS user_bonus_id FROM game_rounds
         WHERE provider_id = $1 AND round_id = $2 FOR UPDATE`,
        [session.providerId, call.roundId],
      );
      if (round && round.wallet_id !== session.walletId) throw roundRefused();
      if (round) {
        const earlier = await findAction(tx, round.id, call.action, call.transactionId);
        if (earlier) {
          if (earlier.request_hash !== hash) throw badRequest([{ field: 'transactionId', code: 'duplicate' }]);
          return actionView(session, call.roundId, earlier, true);
        }
      }

      // New play needs a live session; a replay above, and wins and rollbacks of begun rounds, do not.
      if ((call.action === 'bet' || call.action === 'freeSpin') && !session.live) throw new DomainError('SESSION_EXPIRED');
      if (call.action === 'bet') {
        const user = await one<{ active: boolean; self_exclusion_permanent: boolean; self_excluded_until: Date | null }>(
          tx,
          'SELECT active, self_exclusion_permanent, self_excluded_until FROM users WHERE id = $1',
          [session.userId],
        );
        if (!user.active) throw new DomainError('USER_INACTIVE');
        if (selfExclusionOf(user, now).type !== null) throw new DomainError('SELF_EXCLUDED');
      }
      if ((call.action === 'bet' || call.action === 'win' || call.action === 'freeSpin') && round?.closed) throw roundRefused();
      if (call.action === 'win' && !round) throw new DomainError('NOT_FOUND');
      if (!round) {
        // Another wallet may open the same round id at the same moment (its lock is not ours): the
        // loser of the race finds the winner's round and is refused like any call on another's round.
        round = await maybeOne<RoundRow>(
          tx,
          `INSERT INTO game_rounds (provider_id, round_id, session_id, user_id, wallet_id, currency_id, game_id, free_spin, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) ON CONFLICT (provider_id, round_id) DO NOTHING
           RETURNING id, user_id, wallet_id, staked_available, staked_bonus, won, closed, user_bonus_id::int AS user_bonus_id`,
          [session.providerId, call.roundId, session.sessionId, session.userId, session.walletId, session.currencyId, session.gameId,
            call.action === 'freeSpin', now],
        );
        if (!round) throw roundRefused();
      }
      const stakedAvailable = parseSignedAmount(round.staked_available);
      const stakedBonus = parseSignedAmount(round.staked_bonus);

      // What moves: signed changes of the player's available and bonus balances.
      let availableChange = 0n;
      let bonusChange = 0n;
      // Bonus money a rollback hands back after its bonus ended: it returns to the bonus pool, not to the player.
      let poolChange = 0n;
      let moved = amount;
      let bonusPart = 0n;
      let roundUpdate: { stakedAvailable: bigint; stakedBonus: bigint; won: bigint; settled: boolean; closed: boolean; userBonusId: number | null } = {
        stakedAvailable,
        stakedBonus,
        won: parseSignedAmount(round.won),
        settled: false,
        closed: round.closed,
        userBonusId: round.user_bonus_id,
      };
      // The bonus-paid share of a round's money (of a win, or of what a rollback cancels) moves to, or
      // from, where the bonus that paid the stake keeps its money now (bonusMoneyHome).
      const homeOfShare = (): Promise<BonusMoneyHome> => bonusMoneyHome(tx, round.user_bonus_id, session.walletId, now);
      let related: number | null = null;

      switch (call.action) {
        case 'bet': {
          await assertWithinPlayLimits(tx, session, amount, now);
          const fromAvailable = amount < available ? amount : available;
          bonusPart = amount - fromAvailable;
          if (bonusPart > bonus) throw new DomainError('INSUFFICIENT_BALANCE');
          availableChange = -fromAvailable;
          bonusChange = -bonusPart;
          // Bonus money is the running bonus's (only a running bonus holds a bonus balance); a round keeps the
          // first bonus that paid it.
          const userBonusId = bonusPart > 0n && round.user_bonus_id === null ? await runningBonusId(tx, session.walletId, now) : round.user_bonus_id;
          roundUpdate = { ...roundUpdate, stakedAvailable: stakedAvailable + fromAvailable, stakedBonus: stakedBonus + bonusPart, userBonusId };
          break;
        }
        case 'win':
        case 'freeSpin': {
          const staked = stakedAvailable + stakedBonus;
          if (call.action === 'win') await assertWinWithinStake(tx, session.providerId, staked, roundUpdate.won + amount);
          // The bonus-paid share of the stake, rounded up: bonus money never becomes cash by rounding. It is the
          // bonus's, whatever became of the bonus since the bet: a forfeit in the middle of a round keeps nothing.
          bonusPart = stakedBonus === 0n ? 0n : roundToCurrency(divRound(amount * stakedBonus, staked, 'up'), session.decimals, 'up');
          if (bonusPart > amount) bonusPart = amount;
          availableChange = amount - bonusPart;
          if (bonusPart > 0n) {
            const home = await homeOfShare();
            if (home === 'bonus') bonusChange = bonusPart;
            else if (home === 'available') availableChange = amount;
            else poolChange = bonusPart;
          }
          roundUpdate = { ...roundUpdate, won: roundUpdate.won + amount, settled: true };
          break;
        }
        case 'rollbackBet':
        case 'rollbackWin': {
          const cancelled = call.action === 'rollbackBet' ? 'bet' : 'win';
          const reference = call.referenceTransactionId ?? call.transactionId;
          // A win rollback also cancels free-spin winnings (the provider reports both as wins).
          const original =
            (await findAction(tx, round.id, cancelled, reference)) ??
            (cancelled === 'win' ? await findAction(tx, round.id, 'freeSpin', reference) : undefined);
          const alreadyRolledBack = await maybeOne(
            tx,
            'SELECT 1 FROM game_wallet_actions WHERE round_pk = $1 AND action = $2 AND reference_id = $3',
            [round.id, call.action, reference],
          );
          roundUpdate = { ...roundUpdate, closed: true };
          moved = 0n;
          if (original && !alreadyRolledBack) {
            moved = parseSignedAmount(original.amount);
            bonusPart = parseSignedAmount(original.bonus_amount);
            const home = bonusPart > 0n ? await homeOfShare() : 'bonus';
            if (cancelled === 'bet') {
              // The stake comes back as it was paid, its bonus part to where the bonus keeps its money now (a
              // forfeited bonus stays forfeited), and the wagering it counted is undone.
              availableChange = moved - bonusPart;
              if (home === 'bonus') bonusChange = bonusPart;
              else if (home === 'available') availableChange = moved;
              else poolChange = bonusPart;
              await recordWagering(tx, { userId: session.userId, walletId: session.walletId, currencyId: session.currencyId, amount: -moved, at: now });
            } else if (home === 'bonus') {
              // The win is taken back as it was paid; bonus money since wagered away is taken from available
              // instead (a balance too low for that refuses the rollback: INSUFFICIENT_BALANCE).
              const fromBonus = bonusPart < bonus ? bonusPart : bonus;
              bonusChange = -fromBonus;
              availableChange = -(moved - fromBonus);
            } else {
              // Its bonus part from where that money went with the bonus's end: available, or the pool.
              availableChange = home === 'available' ? -moved : -(moved - bonusPart);
              if (home === 'pool') poolChange = -bonusPart;
            }
            if (cancelled === 'bet') {
              roundUpdate = { ...roundUpdate, stakedAvailable: stakedAvailable - (moved - bonusPart), stakedBonus: stakedBonus - bonusPart };
            } else {
              roundUpdate = { ...roundUpdate, won: roundUpdate.won - moved };
            }
            const originalLedger = await maybeOne<{ id: number }>(tx, 'SELECT ledger_transaction_id AS id FROM game_wallet_actions WHERE id = $1', [
              original.id,
            ]);
            related = originalLedger?.id ?? null;
          }
          break;
        }
      }

      let ledgerTransactionId: number | null = null;
      if (availableChange !== 0n || bonusChange !== 0n || poolChange !== 0n) {
        const house = systemAccount(session.currencyId, 'house');
        const legs: Leg[] = [];
        for (const [kind, change] of [
          ['available', availableChange],
          ['bonus', bonusChange],
        ] as const) {
          if (change < 0n) legs.push(...transfer(walletAccount(session.walletId, kind), house, -change));
          if (change > 0n) legs.push(...transfer(house, walletAccount(session.walletId, kind), change));
        }
        if (poolChange > 0n) legs.push(...transfer(house, systemAccount(session.currencyId, 'bonus_pool'), poolChange));
        if (poolChange < 0n) legs.push(...transfer(systemAccount(session.currencyId, 'bonus_pool'), house, -poolChange));
        const posted = await postTransaction(tx, {
          kind: `game.${call.action.toLowerCase()}`,
          at: now,
          legs,
          idempotency: idempotency.game(`${call.roundId}:${call.transactionId}`, call.action, `${session.providerSlug}`),
          visible: { walletId: session.walletId, type: 'casino', actionType: call.action, status: 'completed', amount: moved, gameIdentifier: session.gameIdentifier },
          relatedTransactionId: related,
        });
        ledgerTransactionId = posted.transaction.id;
      }
      if (call.action === 'bet') {
        await recordWagering(tx, { userId: session.userId, walletId: session.walletId, currencyId: session.currencyId, amount, at: now });
      }
      // Read back rather than computed: wagering may have completed a bonus and released its funds.
      const after = await one<{ available: string; bonus: string }>(tx, 'SELECT available, bonus FROM wallets WHERE id = $1', [session.walletId]);

      await tx.query(
        `UPDATE game_rounds SET staked_available = $2, staked_bonus = $3, won = $4, settled = settled OR $5, closed = $6, updated_at = $7,
           user_bonus_id = $8
         WHERE id = $1`,
        [
          round.id,
          formatAmount(roundUpdate.stakedAvailable),
          formatAmount(roundUpdate.stakedBonus),
          formatAmount(roundUpdate.won),
          roundUpdate.settled,
          roundUpdate.closed,
          now,
          roundUpdate.userBonusId,
        ],
      );
      const inserted = await one<{ id: number }>(
        tx,
        `INSERT INTO game_wallet_actions (round_pk, action, transaction_id, reference_id, user_id, amount, bonus_amount, request_hash,
           ledger_transaction_id, available_after, bonus_after, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
        [
          round.id,
          call.action,
          call.transactionId,
          call.action === 'rollbackBet' || call.action === 'rollbackWin' ? (call.referenceTransactionId ?? call.transactionId) : null,
          session.userId,
          formatAmount(moved),
          formatAmount(bonusPart),
          hash,
          ledgerTransactionId,
          after.available,
          after.bonus,
          now,
        ],
      );
      const row = await one<ActionRow>(
        tx,
        `SELECT ${ACTION_COLUMNS} FROM game_wallet_actions a LEFT JOIN ledger_transactions l ON l.id = a.ledger_transaction_id WHERE a.id = $1`,
        [inserted.id],
      );
      return actionView(session, call.roundId, row, false);
    });
  } catch (error) {
    // The lock above makes this rare (another wallet's bonus bookkeeping may still take the balance).
    if (error instanceof InsufficientBalanceError) throw new DomainError('INSUFFICIENT_BALANCE');
    throw error;
  }
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
