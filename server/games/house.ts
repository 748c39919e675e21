import { randomBytes } from 'node:crypto';
import type { components } from '../../src/api/schema.d.ts';
import { formatAmount, parseAmount, parseSignedAmount } from '../../src/money.ts';
import { minesMultiplier, minesOutcome, minesParamsError, numbersNeeded as minesNumbers, MINES_TILES } from '../../src/fairness/mines.ts';
import { randomIntegers, type SeedPair } from '../../src/fairness/random.ts';
import { payout as ratioPayout, ZERO, type Ratio } from '../../src/fairness/ratio.ts';
import { constraintOf, maybeOne, one, sqlState, type Db, type Queryable } from '../db/db.ts';
import { INSTANT_ENGINES, type HouseEngine, type Json } from './engines.ts';
import { skinOf } from './slot-engine.ts';
import { badHouseRequest, HouseGameError, type HouseErrorCode } from './errors.ts';
import { activePair, rotatePair, seedsView, setNextClientSeed, takeNonce, type RevealedSeedView, type SeedOwner, type SeedsView } from './seeds.ts';
import { callWallet, type HouseWalletOptions, type WalletPath, type WalletResult } from './wallet-client.ts';

/**
 * The built-in game provider ("house games"): its own API (openapi.yaml tag houseGames, handlers in
 * server/http/house.ts), provably fair outcomes from src/fairness, and money only through the signed
 * seamless game wallet over HTTP, exactly as an outside aggregator. A demo session plays with play money
 * kept here (house_demo_balances) and never reaches the wallet.
 *
 * A real-money round: the bet is sent first (its transaction id unique to the round); once it is taken the
 * round takes the player's seed pair's next nonce and its outcome is drawn, then the win is sent (even 0,
 * which settles the round). A bet whose answer stays unknown after the retries is rolled back and the
 * player is told nothing was played (GAME_WALLET_UNAVAILABLE); a win whose answer stays unknown is owed
 * and sent again. Either is finished by {@link resolveUnsettled} at the player's next call once it is
 * stale, so a player is never charged for a round they did not get and never paid twice.
 */

export interface HouseContext {
  db: Db;
  now: () => Date;
  wallet: HouseWalletOptions;
  log?: (message: string) => void;
}

/** Play money a demo session starts with. */
export const DEMO_START_BALANCE = parseAmount('1000');
/** The most a round may stake, per currency (demo: play money). */
const MAX_BET: Record<string, bigint> = {
  LTC: parseAmount('100'),
  BTC: parseAmount('1'),
  ETH: parseAmount('20'),
  USDT: parseAmount('10000'),
};
const DEFAULT_MAX_BET = parseAmount('100');
const DEMO_MAX_BET = parseAmount('100');
/** A round whose wallet call is unanswered this long is resolved by the player's next call (3 attempts of 5 s fit well within). */
export const UNSETTLED_AFTER_MS = 60_000;

// ---------------------------------------------------------------------------------------------------
// Sessions

interface SessionRow {
  id: string;
  user_id: number | null;
  demo: boolean;
  currency_code: string | null;
  decimals: number | null;
  expires_at: Date;
  game_id: number;
  game_name: string;
  game_identifier: string;
  engine: HouseEngine | null;
  slot_skin: unknown;
  wallet_secret: string;
  unsettled: boolean;
}

export interface HouseSession {
  sessionId: string;
  userId: number | null;
  demo: boolean;
  /** Real money: the session's wallet currency; null in demo. */
  currencyCode: string | null;
  /** Decimals of the currency (8 in demo). */
  decimals: number;
  game: { id: number; name: string; identifier: string };
  engine: HouseEngine | null;
  slotSkin: unknown;
  /** The game provider's wallet key: the house signs as the studio whose title it runs. */
  walletSecret: string;
  live: boolean;
  /** The player has rounds left unresolved long enough to be finished now ({@link resolveUnsettled}). */
  unsettled: boolean;
}

/**
 * The open session named by the launch URL. A demo session is anyone's who holds its id; a real-money one
 * only its own player's (the SPA sends the player's token): for anyone else, as for an unknown or expired
 * session or a game no longer active, 404 GAME_NOT_FOUND_ERROR. The session's expiry ends new play only:
 * Mines rounds already begun may still be finished, and rounds owed are still settled.
 */
export async function openSession(hc: HouseContext, sessionId: string, playerId: number | null, allowExpired = false): Promise<HouseSession> {
  const now = hc.now();
  // Whether the player has rounds to finish is asked in the same statement: every real-money call asks it.
  const row = await maybeOne<SessionRow>(
    hc.db,
    `SELECT s.id, s.user_id::int AS user_id, s.demo, s.currency_code, c.decimals, s.expires_at, g.id::int AS game_id, g.name AS game_name,
       g.identifier AS game_identifier, g.engine, g.slot_skin, p.wallet_secret,
       s.user_id IS NOT NULL AND EXISTS (
         SELECT 1 FROM house_rounds r WHERE r.user_id = s.user_id AND r.state IN ('betting', 'settling') AND r.updated_at < $2
       ) AS unsettled
     FROM game_sessions s JOIN games g ON g.id = s.game_id JOIN providers p ON p.id = g.provider_id
     LEFT JOIN currencies c ON c.code = s.currency_code
     WHERE s.id = $1 AND g.active AND p.active`,
    [sessionId, staleBefore(now)],
    { prepared: 'house_session' },
  );
  const live = row !== undefined && row.expires_at > now;
  if (!row || (!live && !allowExpired) || (!row.demo && row.user_id !== playerId)) throw new HouseGameError('GAME_NOT_FOUND_ERROR');
  return {
    sessionId: row.id,
    userId: row.user_id,
    demo: row.demo,
    currencyCode: row.demo ? null : row.currency_code,
    decimals: row.demo ? 8 : (row.decimals ?? 8),
    game: { id: row.game_id, name: row.game_name, identifier: row.game_identifier },
    engine: row.engine,
    slotSkin: row.slot_skin,
    walletSecret: row.wallet_secret,
    live,
    unsettled: row.unsettled,
  };
}

/** Rounds unresolved since before this are finished by the player's next call. */
function staleBefore(now: Date): Date {
  return new Date(now.getTime() - UNSETTLED_AFTER_MS);
}

function ownerOf(session: HouseSession): SeedOwner {
  return session.userId === null ? { demoSessionId: session.sessionId } : { userId: session.userId };
}

function requireEngine(session: HouseSession, engine: HouseEngine): void {
  // A title that runs another engine, or none (live dealers, sports): there is no such game here.
  if (session.engine !== engine) throw new HouseGameError('GAME_NOT_FOUND_ERROR');
}

function maxBet(session: HouseSession): bigint {
  return session.demo ? DEMO_MAX_BET : (MAX_BET[session.currencyCode ?? ''] ?? DEFAULT_MAX_BET);
}

function minBet(session: HouseSession): bigint {
  return 10n ** BigInt(8 - session.decimals);
}

/** The stake of a round: positive, in the currency's precision, at most the table's maximum (400 with the rule's code). */
function betUnits(session: HouseSession, amount: string): bigint {
  const units = parseAmount(amount);
  if (units <= 0n) throw badHouseRequest('amount', 'amount.positive');
  if (units % minBet(session) !== 0n) throw badHouseRequest('amount', 'amount.decimals');
  if (units > maxBet(session)) throw badHouseRequest('amount', 'amount.max');
  return units;
}

/** What a stake wins at a multiplier, rounded down to the currency's precision. */
function payoutOf(session: HouseSession, bet: bigint, multiplier: Ratio): bigint {
  const units = ratioPayout(bet, multiplier);
  return units - (units % minBet(session));
}

/** A multiplier as a decimal, rounded down to 8 places (an Amount: never overstates a win). */
function multiplierText(multiplier: Ratio): string {
  return formatAmount(ratioPayout(100_000_000n, multiplier));
}

// ---------------------------------------------------------------------------------------------------
// Wallet calls

interface WalletBalance {
  currencyCode: string;
  balance: string;
}

interface WalletTransaction {
  balance: WalletBalance;
}

/** Codes of the wallet's refusals a player is told as they are; anything else is the provider's fault. */
const PLAYER_REFUSALS = new Set<string>([
  'INSUFFICIENT_BALANCE',
  'DAILY_BET_LIMIT_EXCEEDED',
  'WEEKLY_BET_LIMIT_EXCEEDED',
  'MONTHLY_BET_LIMIT_EXCEEDED',
  'DAILY_LOSS_LIMIT_EXCEEDED',
  'WEEKLY_LOSS_LIMIT_EXCEEDED',
  'MONTHLY_LOSS_LIMIT_EXCEEDED',
  'SELF_EXCLUDED',
  'USER_INACTIVE',
  'CURRENCY_NOT_AVAILABLE',
]);

function refusalError(code: string): HouseGameError {
  if (PLAYER_REFUSALS.has(code)) return new HouseGameError(code as HouseErrorCode);
  // The wallet no longer knows the session (it expired between our check and the call).
  if (code === 'SESSION_EXPIRED') return new HouseGameError('GAME_NOT_FOUND_ERROR');
  return new HouseGameError('INTERNAL_SERVER_ERROR');
}

function wallet<T>(hc: HouseContext, session: HouseSession, path: WalletPath, body: Record<string, unknown>): Promise<WalletResult<T>> {
  return callWallet<T>(hc.wallet, session.walletSecret, path, { sessionId: session.sessionId, ...body }, hc.log);
}

/** The session's balance: the wallet's (signed call) for real money, the play money in demo. */
async function currentBalance(hc: HouseContext, session: HouseSession): Promise<string> {
  if (session.demo) return formatAmount(await demoBalance(hc.db, session.sessionId, hc.now()));
  const answer = await wallet<{ balance: WalletBalance }>(hc, session, '/game-wallet/balance', {});
  if (answer.kind === 'unknown') throw new HouseGameError('GAME_WALLET_UNAVAILABLE');
  if (answer.kind === 'refused') throw refusalError(answer.code);
  return answer.data.balance.balance;
}

// ---------------------------------------------------------------------------------------------------
// Demo money

async function demoBalance(db: Queryable, sessionId: string, now: Date, forUpdate = false): Promise<bigint> {
  await db.query(
    'INSERT INTO house_demo_balances (session_id, balance, updated_at) VALUES ($1, $2, $3) ON CONFLICT (session_id) DO NOTHING',
    [sessionId, formatAmount(DEMO_START_BALANCE), now],
    { prepared: 'house_demo_balance_open' },
  );
  const row = await one<{ balance: string }>(
    db,
    `SELECT balance::text AS balance FROM house_demo_balances WHERE session_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [sessionId],
    { prepared: forUpdate ? 'house_demo_balance_for_update' : 'house_demo_balance' },
  );
  return parseSignedAmount(row.balance);
}

async function setDemoBalance(tx: Queryable, sessionId: string, balance: bigint, now: Date): Promise<void> {
  await tx.query('UPDATE house_demo_balances SET balance = $2, updated_at = $3 WHERE session_id = $1', [sessionId, formatAmount(balance), now], {
    prepared: 'house_demo_balance_set',
  });
}

// ---------------------------------------------------------------------------------------------------
// Rounds

type RoundState = 'betting' | 'open' | 'settling' | 'settled' | 'void';

interface RoundRow {
  id: number;
  round_id: string;
  session_id: string;
  demo: boolean;
  engine: HouseEngine;
  currency_code: string | null;
  bet: string;
  params: Json;
  outcome: Json | null;
  multiplier: string | null;
  payout: string | null;
  state: RoundState;
  revealed: number[];
  mines_end: 'cashed' | 'busted' | null;
  nonce: number | null;
  server_seed_hash: string | null;
  client_seed: string | null;
  win_transaction_id: string | null;
  bet_transaction_id: string | null;
  created_at: Date;
}

const ROUND_COLUMNS = `r.id::int AS id, r.round_id, r.session_id, r.demo, r.engine, r.currency_code, r.bet::text AS bet, r.params, r.outcome,
  r.multiplier, r.payout::text AS payout, r.state, r.revealed, r.mines_end, r.nonce, sp.server_seed_hash, sp.client_seed,
  r.win_transaction_id, r.bet_transaction_id, r.created_at`;

async function roundById(db: Queryable, id: number, forUpdate = false): Promise<RoundRow> {
  return one<RoundRow>(
    db,
    `SELECT ${ROUND_COLUMNS} FROM house_rounds r LEFT JOIN house_seed_pairs sp ON sp.id = r.seed_pair_id WHERE r.id = $1${forUpdate ? ' FOR UPDATE OF r' : ''}`,
    [id],
    { prepared: forUpdate ? 'house_round_for_update' : 'house_round' },
  );
}

/** openapi.yaml HouseRound. state: open (Mines in play), settled (over and paid), pending (over, its payout owed until the wallet answers). */
export type HouseRoundView = components['schemas']['HouseRound'];

function roundView(row: RoundRow, balance: string | null): HouseRoundView {
  const state = row.state === 'open' ? 'open' : row.state === 'settled' ? 'settled' : 'pending';
  let outcome: Json = row.outcome ?? {};
  if (row.engine === 'mines') {
    // The board stays hidden while the round is open: knowing it would be knowing the outcome.
    outcome = { revealed: row.revealed, mines: row.state === 'open' ? null : ((row.outcome?.mines as number[] | undefined) ?? null), end: row.mines_end };
  }
  return {
    roundId: row.round_id,
    engine: row.engine,
    demo: row.demo,
    amount: formatAmount(parseSignedAmount(row.bet)),
    currencyCode: row.currency_code,
    // Written by the engines in the shapes openapi.yaml gives them.
    params: row.params as HouseRoundView['params'],
    outcome: outcome as HouseRoundView['outcome'],
    multiplier: row.multiplier,
    payout: formatAmount(parseSignedAmount(row.payout ?? '0')),
    state,
    balance,
    seeds: { serverSeedHash: row.server_seed_hash ?? '', clientSeed: row.client_seed ?? '', nonce: row.nonce ?? 0 },
    createdAt: row.created_at.toISOString(),
  };
}

function newRoundId(): string {
  return `h${randomBytes(15).toString('base64url')}`;
}

async function insertRound(
  tx: Queryable,
  session: HouseSession,
  engine: HouseEngine,
  bet: bigint,
  params: Json,
  now: Date,
  extra: { state: RoundState; pair?: SeedPairLike; outcome?: Json; multiplier?: string | null; payout?: bigint | null; minesEnd?: string | null },
): Promise<PlacedRound> {
  const roundId = newRoundId();
  const betTransactionId = session.demo ? null : `${roundId}:bet`;
  const row = await one<{ id: number }>(
    tx,
    `INSERT INTO house_rounds (round_id, session_id, game_id, user_id, demo, engine, currency_code, bet, params, seed_pair_id, nonce, outcome,
       multiplier, payout, state, mines_end, bet_transaction_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18) RETURNING id::int AS id`,
    [
      roundId,
      session.sessionId,
      session.game.id,
      session.userId,
      session.demo,
      engine,
      session.currencyCode,
      formatAmount(bet),
      JSON.stringify(params),
      extra.pair?.id ?? null,
      extra.pair?.nonce ?? null,
      extra.outcome === undefined ? null : JSON.stringify(extra.outcome),
      extra.multiplier ?? null,
      extra.payout === undefined || extra.payout === null ? null : formatAmount(extra.payout),
      extra.state,
      extra.minesEnd ?? null,
      betTransactionId,
      now,
    ],
    { prepared: 'house_round_insert' },
  ).catch((error: unknown) => {
    // A Mines round of the session is already in play (migration 0031's index): this one is not written.
    if (sqlState(error) === '23505' && constraintOf(error) === 'house_rounds_one_mines_in_play') throw new HouseGameError('ROUND_IN_PROGRESS');
    throw error;
  });
  return { id: row.id, round_id: roundId, bet_transaction_id: betTransactionId };
}

/** A round just written: its row id and the ids its wallet calls carry. */
type PlacedRound = Pick<RoundRow, 'id' | 'round_id' | 'bet_transaction_id'>;

type Draw = { outcome: Json; state: 'settling' | 'open'; multiplier: string | null; payout: bigint | null };

/** Times a draw is made again when another round took the nonce it was made with (or a rotation revealed its pair). */
const DRAW_ATTEMPTS = 100;

/**
 * Draws a real-money round once its bet is taken and writes the draw with the nonce it took, in one
 * statement: the draw is made with the active pair's next nonce as read, and written only while the round
 * is still betting and that nonce still the pair's next, which the same statement then takes. A round no
 * longer betting was rolled back meanwhile by a later call that took it for stale: the bet came back,
 * nothing is played, no nonce is taken, and the answer is GAME_WALLET_UNAVAILABLE. A nonce another round of
 * the player's took first (or a pair a rotation revealed) is read again and the round drawn anew.
 */
async function drawRound(hc: HouseContext, session: HouseSession, id: number, draw: (pair: SeedPair) => Promise<Draw>): Promise<RoundRow> {
  for (let attempt = 0; attempt < DRAW_ATTEMPTS; attempt++) {
    const now = hc.now();
    const pair = await activePair(hc.db, ownerOf(session), now);
    const drawn = await draw({ serverSeed: pair.server_seed, clientSeed: pair.client_seed, nonce: pair.next_nonce });
    const row = await maybeOne<{ betting: number } & Partial<RoundRow>>(
      hc.db,
      `WITH betting AS (
         SELECT id FROM house_rounds WHERE id = $1 AND state = 'betting' AND rollback_transaction_id IS NULL FOR UPDATE
       ), taken AS (
         UPDATE house_seed_pairs sp SET next_nonce = sp.next_nonce + 1 FROM betting
         WHERE sp.id = $2 AND sp.next_nonce = $3 AND sp.revealed_at IS NULL RETURNING sp.id, sp.server_seed_hash, sp.client_seed
       ), drawn AS (
         UPDATE house_rounds r SET seed_pair_id = sp.id, nonce = $3, outcome = $4, multiplier = $5, payout = $6, state = $7,
           win_transaction_id = r.round_id || ':win', updated_at = $8
         FROM taken sp WHERE r.id = $1
         RETURNING ${ROUND_COLUMNS}
       )
       SELECT b.id AS betting, d.* FROM betting b LEFT JOIN drawn d ON true`,
      [id, pair.id, pair.next_nonce, JSON.stringify(drawn.outcome), drawn.multiplier, drawn.payout === null ? null : formatAmount(drawn.payout), drawn.state, now],
      { prepared: 'house_round_drawn_with_nonce' },
    );
    if (!row) throw new HouseGameError('GAME_WALLET_UNAVAILABLE');
    if (row.id !== null && row.id !== undefined) {
      const { betting: _, ...round } = row;
      return round as RoundRow;
    }
  }
  throw new Error(`no nonce taken for house round ${id} after ${DRAW_ATTEMPTS} attempts`);
}

interface SeedPairLike {
  id: number;
  nonce: number;
}

/** The seed pair and nonce of a round about to be played (its nonce is taken in the caller's transaction). */
async function drawPair(tx: Queryable, session: HouseSession, now: Date): Promise<{ pair: SeedPair; ref: SeedPairLike }> {
  const row = await takeNonce(tx, ownerOf(session), now);
  return { pair: { serverSeed: row.server_seed, clientSeed: row.client_seed, nonce: row.next_nonce }, ref: { id: row.id, nonce: row.next_nonce } };
}

/**
 * Real money, step one: the bet. Opens the round (betting) and sends the bet; a refusal voids the round
 * and is the player's answer, an unknown answer is rolled back (GAME_WALLET_UNAVAILABLE).
 */
async function placeBet(hc: HouseContext, session: HouseSession, engine: HouseEngine, bet: bigint, params: Json): Promise<number> {
  const round = await insertRound(hc.db, session, engine, bet, params, hc.now(), { state: 'betting' });
  const id = round.id;
  const answer = await wallet<{ gameTransaction: WalletTransaction }>(hc, session, '/game-wallet/bet', {
    roundId: round.round_id,
    transactionId: round.bet_transaction_id,
    amount: formatAmount(bet),
  });
  if (answer.kind === 'ok') return id;
  if (answer.kind === 'refused') {
    await voidRound(hc.db, id, answer.code, hc.now());
    throw refusalError(answer.code);
  }
  await rollBackBet(hc, session, round);
  throw new HouseGameError('GAME_WALLET_UNAVAILABLE');
}

async function voidRound(db: Queryable, id: number, code: string, now: Date): Promise<void> {
  await db.query("UPDATE house_rounds SET state = 'void', failure_code = $2, updated_at = $3 WHERE id = $1 AND state = 'betting'", [id, code, now]);
}

/**
 * Cancels a bet whose answer is unknown: the rollback names the bet's transaction id, so it returns the
 * stake if the bet went through and, arriving first, closes the round against a late bet. Left betting
 * (and retried later) when the rollback itself goes unanswered.
 */
async function rollBackBet(hc: HouseContext, session: HouseSession, round: Pick<RoundRow, 'id' | 'round_id' | 'bet_transaction_id'>): Promise<boolean> {
  const transactionId = `${round.round_id}:rollback`;
  // Claimed in one statement, and only while the round is still betting: once its draw is written (the bet
  // was taken and the round played), it is not rolled back; once claimed, its draw is refused (drawRound).
  const claimed = await hc.db.query(
    "UPDATE house_rounds SET rollback_transaction_id = $2, updated_at = $3 WHERE id = $1 AND state = 'betting' RETURNING id",
    [round.id, transactionId, hc.now()],
  );
  if (claimed.length === 0) return false;
  const answer = await wallet(hc, session, '/game-wallet/rollback-bet', {
    roundId: round.round_id,
    transactionId,
    referenceTransactionId: round.bet_transaction_id,
  });
  if (answer.kind !== 'ok') {
    hc.log?.(`house round ${round.round_id}: rollback of its bet ${answer.kind === 'refused' ? `refused (${answer.code})` : 'unanswered'}`);
    return false;
  }
  await voidRound(hc.db, round.id, 'GAME_WALLET_UNAVAILABLE', hc.now());
  return true;
}

/**
 * Real money, last step: the win (0 for a loss), which settles the round. Answers the balance after it, or
 * null when the wallet did not answer: the round stays owed (settling) and is paid by a later call.
 */
async function sendWin(hc: HouseContext, session: HouseSession, round: RoundRow): Promise<string | null> {
  const answer = await wallet<{ gameTransaction: WalletTransaction }>(hc, session, '/game-wallet/win', {
    roundId: round.round_id,
    transactionId: round.win_transaction_id,
    amount: formatAmount(parseSignedAmount(round.payout ?? '0')),
  });
  if (answer.kind !== 'ok') {
    hc.log?.(`house round ${round.round_id}: win ${answer.kind === 'refused' ? `refused (${answer.code})` : 'unanswered'}, owed`);
    return null;
  }
  await hc.db.query("UPDATE house_rounds SET state = 'settled', updated_at = $2 WHERE id = $1 AND state = 'settling'", [round.id, hc.now()], {
    prepared: 'house_round_settled',
  });
  return answer.data.gameTransaction.balance.balance;
}

/**
 * Finishes the player's rounds left unresolved by a wallet that did not answer, once stale: a bet never
 * confirmed is rolled back, a win owed is sent again (same transaction ids, so nothing moves twice).
 */
export async function resolveUnsettled(hc: HouseContext, session: HouseSession): Promise<void> {
  if (session.demo || session.userId === null || !session.unsettled) return;
  const stale = staleBefore(hc.now());
  const rounds = await hc.db.query<{ id: number; session_id: string; state: RoundState }>(
    `SELECT id::int AS id, session_id, state FROM house_rounds
     WHERE user_id = $1 AND state IN ('betting', 'settling') AND updated_at < $2 ORDER BY id`,
    [session.userId, stale],
    { prepared: 'house_rounds_unsettled' },
  );
  for (const unresolved of rounds) {
    // The round's own session signs its calls (a session of another game has another provider's key).
    const own = unresolved.session_id === session.sessionId ? session : await openSession(hc, unresolved.session_id, session.userId, true);
    const round = await roundById(hc.db, unresolved.id);
    if (unresolved.state === 'betting') await rollBackBet(hc, own, round);
    else await sendWin(hc, own, round);
  }
}

// ---------------------------------------------------------------------------------------------------
// The table

export type HouseTableView = components['schemas']['HouseTable'];

/** What the game page needs to draw the table (null engine: the title has no engine here). */
export async function getTable(hc: HouseContext, sessionId: string, playerId: number | null): Promise<HouseTableView> {
  const session = await openSession(hc, sessionId, playerId);
  const base = {
    sessionId: session.sessionId,
    demo: session.demo,
    game: session.game,
    engine: session.engine,
    currencyCode: session.currencyCode,
    minBet: formatAmount(minBet(session)),
    maxBet: formatAmount(maxBet(session)),
    slotSkin: session.engine === 'slot' ? skinOf(session.slotSkin) : null,
  };
  if (session.engine === null) return { ...base, balance: null, seeds: null, openRound: null };
  await resolveUnsettled(hc, session);
  const balance = await currentBalance(hc, session);
  const pair = await activePair(hc.db, ownerOf(session), hc.now());
  const open = await openMinesRound(hc.db, session.sessionId);
  return { ...base, balance, seeds: seedsView(pair), openRound: open ? roundView(open, balance) : null };
}

// ---------------------------------------------------------------------------------------------------
// Dice, Limbo, Plinko, Slot: a round in one call

/** Plays one round of an instant engine: the stake, the outcome, the payout, the balance after. */
export async function playInstant(
  hc: HouseContext,
  sessionId: string,
  playerId: number | null,
  engine: Exclude<HouseEngine, 'mines'>,
  body: Json & { amount: string },
): Promise<HouseRoundView> {
  const session = await openSession(hc, sessionId, playerId);
  requireEngine(session, engine);
  const game = INSTANT_ENGINES[engine];
  const bet = betUnits(session, body.amount);
  const params = game.params(body, session.slotSkin);

  if (session.demo) {
    const id = await hc.db.transaction(async (tx) => {
      const now = hc.now();
      const balance = await demoBalance(tx, session.sessionId, now, true);
      if (balance < bet) throw new HouseGameError('INSUFFICIENT_BALANCE');
      const { pair, ref } = await drawPair(tx, session, now);
      const { outcome, multiplier } = await game.play(pair, params, session.slotSkin);
      const won = payoutOf(session, bet, multiplier);
      await setDemoBalance(tx, session.sessionId, balance - bet + won, now);
      const round = await insertRound(tx, session, engine, bet, params, now, {
        state: 'settled',
        pair: ref,
        outcome,
        multiplier: multiplierText(multiplier),
        payout: won,
      });
      return round.id;
    });
    return roundView(await roundById(hc.db, id), formatAmount(await demoBalance(hc.db, session.sessionId, hc.now())));
  }

  await resolveUnsettled(hc, session);
  const id = await placeBet(hc, session, engine, bet, params);
  const drawn = await drawRound(hc, session, id, async (pair) => {
    const { outcome, multiplier } = await game.play(pair, params, session.slotSkin);
    return { outcome, state: 'settling', multiplier: multiplierText(multiplier), payout: payoutOf(session, bet, multiplier) };
  });
  return settledView(drawn, await sendWin(hc, session, drawn));
}

/** A round once its win was sent: settled when the wallet answered (the balance after), else still owed. */
function settledView(round: RoundRow, balance: string | null): HouseRoundView {
  return roundView(balance === null ? round : { ...round, state: 'settled' }, balance);
}

// ---------------------------------------------------------------------------------------------------
// Mines: start (the bet), reveal, cash out (the win; 0 at a mine)

async function openMinesRound(db: Queryable, sessionId: string): Promise<RoundRow | undefined> {
  return maybeOne<RoundRow>(
    db,
    `SELECT ${ROUND_COLUMNS} FROM house_rounds r LEFT JOIN house_seed_pairs sp ON sp.id = r.seed_pair_id
     WHERE r.session_id = $1 AND r.engine = 'mines' AND r.state = 'open'`,
    [sessionId],
  );
}

/** Whether a Mines round of the owner's active pair is in play anywhere: rotating would reveal its board. */
async function pairHasOpenRound(db: Queryable, pairId: number): Promise<boolean> {
  return (await maybeOne(db, "SELECT 1 FROM house_rounds WHERE seed_pair_id = $1 AND state = 'open'", [pairId])) !== undefined;
}

function minesParams(body: Json): { mineCount: number } {
  const params = { mineCount: body.mineCount as number };
  const code = minesParamsError(params);
  if (code !== null) throw badHouseRequest('mineCount', code);
  return params;
}

async function minesBoard(pair: SeedPair, params: { mineCount: number }): Promise<number[]> {
  return minesOutcome(await randomIntegers(pair, minesNumbers(params)), params).mines;
}

export async function minesStart(
  hc: HouseContext,
  sessionId: string,
  playerId: number | null,
  body: { amount: string; mineCount: number },
): Promise<HouseRoundView> {
  const session = await openSession(hc, sessionId, playerId);
  requireEngine(session, 'mines');
  const bet = betUnits(session, body.amount);
  const params = minesParams(body);
  // One round in play per session: the round's insert is refused while another is (migration 0031).

  if (session.demo) {
    const id = await hc.db.transaction(async (tx) => {
      const now = hc.now();
      const balance = await demoBalance(tx, session.sessionId, now, true);
      if (balance < bet) throw new HouseGameError('INSUFFICIENT_BALANCE');
      const { pair, ref } = await drawPair(tx, session, now);
      const mines = await minesBoard(pair, params);
      await setDemoBalance(tx, session.sessionId, balance - bet, now);
      const round = await insertRound(tx, session, 'mines', bet, params, now, { state: 'open', pair: ref, outcome: { mines } });
      return round.id;
    });
    return roundView(await roundById(hc.db, id), formatAmount(await demoBalance(hc.db, session.sessionId, hc.now())));
  }

  await resolveUnsettled(hc, session);
  const id = await placeBet(hc, session, 'mines', bet, params);
  const drawn = await drawRound(hc, session, id, async (pair) => ({ outcome: { mines: await minesBoard(pair, params) }, state: 'open', multiplier: null, payout: null }));
  return roundView(drawn, await currentBalance(hc, session).catch(() => null));
}

/**
 * Ends an open Mines round in the caller's transaction: cashed (payout at the multiplier of the safe tiles
 * revealed) or busted (0). Demo money is paid here; real money by the win sent after the transaction.
 */
async function endMines(tx: Queryable, session: HouseSession, round: RoundRow, revealed: number[], end: 'cashed' | 'busted', now: Date): Promise<void> {
  const mineCount = (round.params.mineCount as number) ?? 1;
  const multiplier = end === 'busted' ? ZERO : minesMultiplier(mineCount, revealed.length);
  const won = payoutOf(session, parseSignedAmount(round.bet), multiplier);
  await tx.query(
    `UPDATE house_rounds SET revealed = $2, mines_end = $3, multiplier = $4, payout = $5, state = $6, updated_at = $7 WHERE id = $1`,
    [round.id, revealed, end, multiplierText(multiplier), formatAmount(won), session.demo ? 'settled' : 'settling', now],
  );
  if (session.demo) {
    const balance = await demoBalance(tx, session.sessionId, now, true);
    await setDemoBalance(tx, session.sessionId, balance + won, now);
  }
}

async function finishMines(hc: HouseContext, session: HouseSession, id: number): Promise<HouseRoundView> {
  const round = await roundById(hc.db, id);
  if (session.demo) return roundView(round, formatAmount(await demoBalance(hc.db, session.sessionId, hc.now())));
  if (round.state === 'settling') return settledView(round, await sendWin(hc, session, round));
  return roundView(round, await currentBalance(hc, session).catch(() => null));
}

/** The tile revealed: safe (the round goes on, or is cashed out when no safe tile is left) or a mine (lost). */
export async function minesReveal(hc: HouseContext, sessionId: string, playerId: number | null, tile: number): Promise<HouseRoundView> {
  const session = await openSession(hc, sessionId, playerId, true);
  requireEngine(session, 'mines');
  if (!Number.isInteger(tile) || tile < 0 || tile >= MINES_TILES) throw badHouseRequest('tile', 'maximum');
  const id = await hc.db.transaction(async (tx) => {
    const now = hc.now();
    const found = await openMinesRound(tx, session.sessionId);
    if (!found) throw new HouseGameError('ROUND_NOT_OPEN');
    const round = await roundById(tx, found.id, true);
    if (round.state !== 'open') throw new HouseGameError('ROUND_NOT_OPEN');
    if (round.revealed.includes(tile)) throw badHouseRequest('tile', 'duplicate');
    const revealed = [...round.revealed, tile];
    const mines = (round.outcome?.mines as number[] | undefined) ?? [];
    const mineCount = round.params.mineCount as number;
    if (mines.includes(tile)) await endMines(tx, session, round, revealed, 'busted', now);
    else if (revealed.length === MINES_TILES - mineCount) await endMines(tx, session, round, revealed, 'cashed', now);
    else {
      await tx.query('UPDATE house_rounds SET revealed = $2, multiplier = $3, updated_at = $4 WHERE id = $1', [
        round.id,
        revealed,
        multiplierText(minesMultiplier(mineCount, revealed.length)),
        now,
      ]);
    }
    return round.id;
  });
  return finishMines(hc, session, id);
}

/** Cashes out the open round at the multiplier of its safe tiles (at least one: else CASHOUT_NOT_ALLOWED). */
export async function minesCashOut(hc: HouseContext, sessionId: string, playerId: number | null): Promise<HouseRoundView> {
  const session = await openSession(hc, sessionId, playerId, true);
  requireEngine(session, 'mines');
  const id = await hc.db.transaction(async (tx) => {
    const found = await openMinesRound(tx, session.sessionId);
    if (!found) throw new HouseGameError('ROUND_NOT_OPEN');
    const round = await roundById(tx, found.id, true);
    if (round.state !== 'open') throw new HouseGameError('ROUND_NOT_OPEN');
    if (round.revealed.length === 0) throw new HouseGameError('CASHOUT_NOT_ALLOWED');
    await endMines(tx, session, round, round.revealed, 'cashed', hc.now());
    return round.id;
  });
  return finishMines(hc, session, id);
}

// ---------------------------------------------------------------------------------------------------
// Seeds

/**
 * Sets the client seed of the player's (or demo session's) next pair, at any time: a Mines round open with
 * the active pair plays on unchanged.
 */
export async function setNextSeed(hc: HouseContext, sessionId: string, playerId: number | null, clientSeed: string): Promise<SeedsView> {
  const session = await openSession(hc, sessionId, playerId);
  if (session.engine === null) throw new HouseGameError('GAME_NOT_FOUND_ERROR');
  return setNextClientSeed(hc.db, ownerOf(session), clientSeed, hc.now());
}

/**
 * Reveals the server seed of the player's (or demo session's) active pair and makes the next pair active as
 * shown, with the client seed given as its client seed when there is one. Refused while a Mines round of
 * the pair is open (its board would be known). The pair is locked first: a second rotation at once waits,
 * then rotates the pair this one made active.
 */
export async function rotateSeeds(
  hc: HouseContext,
  sessionId: string,
  playerId: number | null,
  clientSeed: string | undefined,
): Promise<{ revealed: RevealedSeedView; seeds: SeedsView }> {
  const session = await openSession(hc, sessionId, playerId);
  if (session.engine === null) throw new HouseGameError('GAME_NOT_FOUND_ERROR');
  return hc.db.transaction(async (tx) => {
    const now = hc.now();
    const pair = await activePair(tx, ownerOf(session), now, true);
    if (await pairHasOpenRound(tx, pair.id)) throw new HouseGameError('ROUND_IN_PROGRESS');
    return rotatePair(tx, ownerOf(session), pair, clientSeed, now);
  });
}
