import type { components } from '../../src/api/schema.d.ts';
import { divRound, formatAmount, formatFixed, MONEY_DECIMALS, parseSignedAmount, type Rounding } from '../../src/money.ts';
import { maybeOne, one, sqlState, type Queryable } from '../db/db.ts';

/**
 * The double-entry ledger (migration 0006_ledger.sql; docs/money.md). Its one writer is the database function
 * ledger_post_many (server/db/schema/1_function_ledger_post_many.sql), called here by {@link postTransaction}.
 * Amounts are bigint units of 1e-8 (src/money.ts); an entry's amount is added to its account (-5 takes 5 out).
 */

export type TransactionType = components['schemas']['TransactionType'];
export type TransactionActionType = components['schemas']['TransactionActionType'];
export type TransactionStatus = components['schemas']['TransactionStatus'];
export type TransactionDto = components['schemas']['Transaction'];

// ---------------------------------------------------------------------------------------------------
// Accounts

/** A player's accounts, one of each per wallet; their balances are cached in the wallet's columns. */
export const WALLET_ACCOUNT_KINDS = ['available', 'pending', 'bonus', 'held'] as const;
export type WalletAccountKind = (typeof WALLET_ACCOUNT_KINDS)[number];

/**
 * The casino's accounts, one of each per currency; their balances are summed from the entries (a cached
 * house balance would make every bet of a currency wait for the one row).
 * - house: bets in, wins out (the casino's gaming result).
 * - provider_clearing: the payment provider's side of deposits (negative: coins held there) and payouts.
 * - fees: withdrawal fees charged.
 * - bonus_pool: where bonus and referral money comes from.
 * - adjustments: the other side of opening balances and operator corrections.
 */
export const SYSTEM_ACCOUNT_KINDS = ['house', 'provider_clearing', 'fees', 'bonus_pool', 'adjustments'] as const;
export type SystemAccountKind = (typeof SYSTEM_ACCOUNT_KINDS)[number];

export type WalletAccountRef = { readonly walletId: number; readonly kind: WalletAccountKind };
export type SystemAccountRef = { readonly currencyId: number; readonly kind: SystemAccountKind };
export type AccountRef = WalletAccountRef | SystemAccountRef;

export function walletAccount(walletId: number, kind: WalletAccountKind): WalletAccountRef {
  return { walletId, kind };
}

export function systemAccount(currencyId: number, kind: SystemAccountKind): SystemAccountRef {
  return { currencyId, kind };
}

function isWalletAccount(ref: AccountRef): ref is WalletAccountRef {
  return 'walletId' in ref;
}

/** One side of a posting: `amount` is added to the account (negative takes money out). */
export interface Leg {
  account: AccountRef;
  amount: bigint;
}

/** The two legs that move `amount` (> 0) from one account to another. */
export function transfer(from: AccountRef, to: AccountRef, amount: bigint): [Leg, Leg] {
  if (amount <= 0n) throw new LedgerInputError('BAD_AMOUNT', `a transfer moves a positive amount, got ${String(amount)}`);
  return [
    { account: from, amount: -amount },
    { account: to, amount },
  ];
}

// ---------------------------------------------------------------------------------------------------
// Idempotency

/** Unique in the database per (scope, key): a second posting with it is a replay and moves nothing. */
export interface IdempotencyKey {
  scope: string;
  key: string;
}

/** The scopes the product uses, in one place so that two callers never build the same key differently. */
export const idempotency = {
  /** A deposit credited for the payment provider's transaction id. */
  deposit: (provider: string, providerTransactionId: string): IdempotencyKey => ({
    scope: `deposit:${provider}`,
    key: providerTransactionId,
  }),
  /** One step of a withdrawal (request, fee, payout, refund), keyed by its spend request id. */
  withdrawal: (spendRequestId: string, step: string = 'request'): IdempotencyKey => ({
    scope: `withdrawal:${step}`,
    key: spendRequestId,
  }),
  /** A game transaction: the provider's round id and the action (bet, win, rollbackBet, ...). */
  game: (roundId: string, action: TransactionActionType, provider: string = 'casino'): IdempotencyKey => ({
    scope: `game:${provider}`,
    key: `${roundId}:${action}`,
  }),
  /** The optional Idempotency-Key header of a player's money POST: per player and per operation. */
  playerRequest: (userId: number, operationId: string, headerValue: string): IdempotencyKey => ({
    scope: `player:${userId}:${operationId}`,
    key: headerValue,
  }),
};

// ---------------------------------------------------------------------------------------------------
// Errors

/**
 * A posting would take a player's balance below zero. Nothing was moved. A domain error, not an HTTP one:
 * the operation that posts decides what the player is told (a withdrawal or a bet answers 422
 * INSUFFICIENT_BALANCE), so no code reaches the contract before an operation can produce it.
 */
export class InsufficientBalanceError extends Error {
  override readonly name = 'InsufficientBalanceError';
  constructor(
    readonly walletId: number,
    readonly account: WalletAccountKind,
    readonly balance: bigint,
    readonly change: bigint,
  ) {
    super(`Wallet ${walletId} ${account} balance ${formatAmount(balance)} cannot take ${formatAmount(change)}`);
  }
}

/** The key was used before by a different posting: refused, nothing moved. */
export class IdempotencyConflictError extends Error {
  override readonly name = 'IdempotencyConflictError';
  readonly code = 'IDEMPOTENCY_KEY_REUSED';
  constructor(
    readonly idempotency: IdempotencyKey,
    readonly existing: LedgerTransaction,
  ) {
    super(`Idempotency key ${idempotency.scope}/${idempotency.key} was used by transaction ${existing.publicId} for a different posting`);
  }
}

export type LedgerInputProblem =
  | 'BAD_KIND'
  | 'BAD_AMOUNT'
  | 'BAD_ACCOUNT'
  | 'TOO_FEW_LEGS'
  | 'UNBALANCED'
  | 'UNKNOWN_ACCOUNT'
  | 'PRECISION'
  | 'VISIBLE_WALLET_UNTOUCHED'
  | 'GAME_IDENTIFIER'
  | 'BAD_IDEMPOTENCY_KEY'
  | 'BAD_DATE';

/** A posting the server should never have built (a bug, not a player error): nothing was moved. */
export class LedgerInputError extends Error {
  override readonly name = 'LedgerInputError';
  constructor(
    readonly problem: LedgerInputProblem,
    detail: string,
  ) {
    super(`${problem}: ${detail}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Rounding: explicit, and never in the player's favour by accident

/** Units in one step of a currency with `decimals` decimals: 10^(8 - decimals) (USDT, 6 decimals: 100). */
export function currencyStep(decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MONEY_DECIMALS) {
    throw new RangeError(`decimals must be an integer from 0 to ${MONEY_DECIMALS}, got ${decimals}`);
  }
  return 10n ** BigInt(MONEY_DECIMALS - decimals);
}

/** `units` rounded to the currency's precision: 'up' is ceiling, 'down' is floor. */
export function roundToCurrency(units: bigint, decimals: number, rounding: Rounding): bigint {
  const step = currencyStep(decimals);
  return divRound(units, step, rounding) * step;
}

/** A withdrawal's fee: the currency's flat fee rounded UP to its precision, so the casino never charges less than its schedule says. */
export function feeUnits(flat: bigint, decimals: number): bigint {
  return roundToCurrency(flat, decimals, 'up');
}

// ---------------------------------------------------------------------------------------------------
// Transactions

/** The player-visible record of a transaction (SPEC §3). Before and after balances are filled in here. */
export interface VisibleInput {
  /** The player's wallet the record belongs to; one of the posting's legs must touch it. */
  walletId: number;
  type: TransactionType;
  actionType: TransactionActionType;
  status: TransactionStatus;
  /** Unsigned: the direction shows in the before and after balances. */
  amount: bigint;
  /** The game's identifier: required for type 'casino', else absent. */
  gameIdentifier?: string | null;
}

export interface Posting {
  /** What the server did, finer than the visible type: 'deposit', 'withdraw.request', 'bet', 'correction', ... */
  kind: string;
  /** From the application's clock (ctx.now()). */
  at: Date;
  legs: readonly Leg[];
  idempotency?: IdempotencyKey | null;
  /** Null or absent for internal transactions that no player sees. */
  visible?: VisibleInput | null;
  /** The earlier transaction this one settles, refunds, rolls back or corrects. */
  relatedTransactionId?: number | null;
}

export interface LedgerEntry {
  accountId: number;
  account: AccountRef;
  currencyId: number;
  amount: bigint;
}

export interface VisibleRecord {
  userId: number;
  walletId: number;
  currencyId: number;
  currencyCode: string;
  type: TransactionType;
  actionType: TransactionActionType;
  status: TransactionStatus;
  amount: bigint;
  /** The wallet's available balance before and after this transaction. */
  beforeBalance: bigint;
  afterBalance: bigint;
  gameIdentifier: string | null;
}

export interface LedgerTransaction {
  id: number;
  /** SPEC §3 "transaction ID", a UUID. */
  publicId: string;
  kind: string;
  idempotency: IdempotencyKey | null;
  relatedTransactionId: number | null;
  createdAt: Date;
  /** One net entry per account, by account id. */
  entries: LedgerEntry[];
  visible: VisibleRecord | null;
}

export interface PostingResult {
  transaction: LedgerTransaction;
  /** True when the idempotency key had been used by this same posting: nothing moved this time. */
  replayed: boolean;
}

interface TransactionRow {
  id: number;
  public_id: string;
  kind: string;
  idempotency_scope: string | null;
  idempotency_key: string | null;
  request_hash: string;
  related_transaction_id: number | null;
  user_id: number | null;
  wallet_id: number | null;
  currency_id: number | null;
  currency_code: string | null;
  type: TransactionType | null;
  action_type: TransactionActionType | null;
  status: TransactionStatus | null;
  amount: string | null;
  before_balance: string | null;
  after_balance: string | null;
  game_identifier: string | null;
  created_at: Date;
}

const TRANSACTION_COLUMNS = `t.id, t.public_id, t.kind, t.idempotency_scope, t.idempotency_key, t.request_hash,
  t.related_transaction_id, t.user_id, t.wallet_id, t.currency_id, c.code AS currency_code, t.type, t.action_type,
  t.status, t.amount, t.before_balance, t.after_balance, t.game_identifier, t.created_at`;

async function loadEntries(db: Queryable, transactionId: number): Promise<LedgerEntry[]> {
  const rows = await db.query<{ account_id: number; currency_id: number; amount: string; kind: string; wallet_id: number | null }>(
    `SELECT e.account_id, e.currency_id, e.amount, a.kind, a.wallet_id
     FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
     WHERE e.transaction_id = $1 ORDER BY e.account_id`,
    [transactionId],
  );
  return rows.map((row) => ({
    accountId: row.account_id,
    account:
      row.wallet_id === null
        ? systemAccount(row.currency_id, row.kind as SystemAccountKind)
        : walletAccount(row.wallet_id, row.kind as WalletAccountKind),
    currencyId: row.currency_id,
    amount: parseSignedAmount(row.amount),
  }));
}

async function toTransaction(db: Queryable, row: TransactionRow): Promise<LedgerTransaction> {
  const visible: VisibleRecord | null =
    row.user_id === null || row.wallet_id === null || row.currency_id === null || row.type === null || row.action_type === null ||
    row.status === null || row.amount === null || row.before_balance === null || row.after_balance === null
      ? null
      : {
          userId: row.user_id,
          walletId: row.wallet_id,
          currencyId: row.currency_id,
          currencyCode: row.currency_code ?? '',
          type: row.type,
          actionType: row.action_type,
          status: row.status,
          amount: parseSignedAmount(row.amount),
          beforeBalance: parseSignedAmount(row.before_balance),
          afterBalance: parseSignedAmount(row.after_balance),
          gameIdentifier: row.game_identifier,
        };
  return {
    id: row.id,
    publicId: row.public_id,
    kind: row.kind,
    idempotency:
      row.idempotency_scope !== null && row.idempotency_key !== null ? { scope: row.idempotency_scope, key: row.idempotency_key } : null,
    relatedTransactionId: row.related_transaction_id,
    createdAt: row.created_at,
    entries: await loadEntries(db, row.id),
    visible,
  };
}

/** A ledger transaction by its id; undefined when there is none. */
export async function getTransaction(db: Queryable, by: { id: number }): Promise<LedgerTransaction | undefined> {
  const row = await maybeOne<TransactionRow>(
    db,
    `SELECT ${TRANSACTION_COLUMNS} FROM ledger_transactions t LEFT JOIN currencies c ON c.id = t.currency_id WHERE t.id = $1`,
    [by.id],
  );
  return row ? toTransaction(db, row) : undefined;
}

async function findByIdempotency(db: Queryable, key: IdempotencyKey): Promise<TransactionRow | undefined> {
  return maybeOne<TransactionRow>(
    db,
    `SELECT ${TRANSACTION_COLUMNS} FROM ledger_transactions t LEFT JOIN currencies c ON c.id = t.currency_id
     WHERE t.idempotency_scope = $1 AND t.idempotency_key = $2`,
    [key.scope, key.key],
  );
}

/** The transaction that used an idempotency key, if any. */
export async function findTransactionByIdempotency(db: Queryable, key: IdempotencyKey): Promise<LedgerTransaction | undefined> {
  const row = await findByIdempotency(db, key);
  return row ? toTransaction(db, row) : undefined;
}

type WalletBalances = Record<WalletAccountKind, bigint>;

const SAVEPOINT = 'ledger_posting';

/** What ledger_post raises (server/db/schema/1_function_ledger_post.sql): a balance too low, a key reused, a posting that cannot be right. */
const INSUFFICIENT = 'LG001';
const KEY_REUSED = 'LG002';
const BAD_POSTING = 'LG003';

function units(value: unknown, what: string, allowZero = true): bigint {
  if (typeof value !== 'bigint') throw new LedgerInputError('BAD_AMOUNT', `${what} must be a bigint of units, got ${typeof value}`);
  if (!allowZero && value === 0n) throw new LedgerInputError('BAD_AMOUNT', `${what} is zero`);
  return value;
}

/**
 * Posts one balanced transaction through ledger_post (ledger_post_many given a set of one: what it checks,
 * locks and answers), inside the caller's database transaction: `tx` is the handle `db.transaction(...)`
 * passes to its callback, never the Db. All or nothing: on any error nothing of it stays in `tx`, which the
 * caller may go on using (a savepoint). A replay returns the first transaction with `replayed: true`; its
 * refusals are {@link IdempotencyConflictError}, {@link InsufficientBalanceError} and {@link LedgerInputError}.
 * The locks it takes are held until the caller commits.
 */
export async function postTransaction(tx: Queryable, posting: Posting): Promise<PostingResult> {
  // A Db (a pool on PostgreSQL) would spread the statements over connections and lose the locks.
  if ('transaction' in tx) throw new Error('postTransaction runs inside db.transaction(): pass the transaction handle');
  if (!(posting.at instanceof Date) || Number.isNaN(posting.at.getTime())) throw new LedgerInputError('BAD_DATE', 'at must be a valid Date');
  const legs = posting.legs.map((leg) => ({ ref: leg.account, amount: units(leg.amount, 'a leg amount', false) }));
  const visible = posting.visible ?? null;
  if (visible) units(visible.amount, 'visible.amount');
  const key = posting.idempotency ?? null;
  await tx.query(`SAVEPOINT ${SAVEPOINT}`);
  let row: { out_id: number; out_replayed: boolean };
  try {
    row = await one<{ out_id: number; out_replayed: boolean }>(
      tx,
      'SELECT out_id, out_replayed FROM ledger_post($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)',
      [
        posting.kind,
        posting.at,
        legs.map((leg) => (isWalletAccount(leg.ref) ? leg.ref.walletId : null)),
        legs.map((leg) => (isWalletAccount(leg.ref) ? null : leg.ref.currencyId)),
        legs.map((leg) => leg.ref.kind),
        legs.map((leg) => formatFixed(leg.amount)),
        key?.scope ?? null,
        key?.key ?? null,
        visible?.walletId ?? null,
        visible?.type ?? null,
        visible?.actionType ?? null,
        visible?.status ?? null,
        visible ? formatFixed(visible.amount) : null,
        visible?.gameIdentifier ?? null,
        posting.relatedTransactionId ?? null,
      ],
    );
    await tx.query(`RELEASE SAVEPOINT ${SAVEPOINT}`);
  } catch (error) {
    try {
      await tx.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
      await tx.query(`RELEASE SAVEPOINT ${SAVEPOINT}`);
    } catch {
      // The connection is gone or the transaction already failed: the caller's rollback undoes it all.
    }
    throw await postingError(tx, error, key);
  }
  const transaction = await getTransaction(tx, { id: row.out_id });
  if (!transaction) throw new Error(`ledger transaction ${row.out_id} vanished`);
  return { transaction, replayed: row.out_replayed };
}

/** ledger_post's refusal as the ledger's error. */
async function postingError(tx: Queryable, error: unknown, key: IdempotencyKey | null): Promise<unknown> {
  const message = error instanceof Error ? error.message : String(error);
  switch (sqlState(error)) {
    case INSUFFICIENT: {
      const [walletId, kind, balance, change] = message.split(':');
      return new InsufficientBalanceError(Number(walletId), kind as WalletAccountKind, parseSignedAmount(balance ?? '0'), parseSignedAmount(change ?? '0'));
    }
    case KEY_REUSED: {
      const existing = key ? await findTransactionByIdempotency(tx, key) : undefined;
      return existing && key ? new IdempotencyConflictError(key, existing) : error;
    }
    case BAD_POSTING: {
      const colon = message.indexOf(':');
      return new LedgerInputError(message.slice(0, colon) as LedgerInputProblem, message.slice(colon + 1).trim());
    }
    default:
      return error;
  }
}


// ---------------------------------------------------------------------------------------------------
// Verification (npm run ledger:check)

export interface WalletBalanceMismatch {
  walletId: number;
  userId: number;
  currencyCode: string;
  kind: WalletAccountKind;
  cached: bigint;
  fromEntries: bigint;
  /** The wallet has no ledger account of this kind (the migration's triggers open them). */
  accountMissing: boolean;
}

export interface CurrencyTotals {
  currencyCode: string;
  /** Cached player balances, summed over the currency's wallets. */
  players: WalletBalances;
  /** System account balances from their entries. */
  system: Record<SystemAccountKind, bigint>;
}

export interface LedgerCheckReport {
  ok: boolean;
  counts: { transactions: number; entries: number; accounts: number; wallets: number };
  walletMismatches: WalletBalanceMismatch[];
  unbalancedTransactions: { transactionId: number; currencyCode: string; sum: bigint }[];
  transactionsWithTooFewEntries: { transactionId: number; entries: number }[];
  /** Visible records whose after - before is not the change of the wallet's available balance. */
  visibleMismatches: { transactionId: number; beforeBalance: bigint; afterBalance: bigint; availableChange: bigint }[];
  totals: CurrencyTotals[];
}

/**
 * Proves the ledger: every cached wallet balance equals the sum of its account's entries, every
 * transaction has two entries or more and sums to zero per currency, and every visible record's before
 * and after balances differ by its wallet's available change. Run it in one snapshot (the script uses a
 * REPEATABLE READ transaction) so that postings made meanwhile cannot show up half.
 */
export async function verifyLedger(db: Queryable): Promise<LedgerCheckReport> {
  const counts = await one<{ transactions: number; entries: number; accounts: number; wallets: number }>(
    db,
    `SELECT (SELECT count(*) FROM ledger_transactions) AS transactions, (SELECT count(*) FROM ledger_entries) AS entries,
       (SELECT count(*) FROM ledger_accounts) AS accounts, (SELECT count(*) FROM wallets) AS wallets`,
  );
  const walletRows = await db.query<{
    wallet_id: number;
    user_id: number;
    code: string;
    kind: WalletAccountKind;
    cached: string;
    total: string;
    missing: boolean;
  }>(
    `WITH sums AS (SELECT account_id, sum(amount) AS total FROM ledger_entries GROUP BY account_id),
     balances AS (
       SELECT w.id AS wallet_id, w.user_id, c.code, k.kind, a.id AS account_id,
         CASE k.kind WHEN 'available' THEN w.available WHEN 'pending' THEN w.pending WHEN 'held' THEN w.held ELSE w.bonus END AS cached,
         coalesce(s.total, 0) AS total
       FROM wallets w JOIN currencies c ON c.id = w.currency_id
       CROSS JOIN (VALUES ('available'), ('pending'), ('bonus'), ('held')) AS k(kind)
       LEFT JOIN ledger_accounts a ON a.wallet_id = w.id AND a.kind = k.kind
       LEFT JOIN sums s ON s.account_id = a.id
     )
     SELECT wallet_id, user_id, code, kind, cached, total, account_id IS NULL AS missing
     FROM balances WHERE account_id IS NULL OR cached <> total ORDER BY wallet_id, kind`,
  );
  const unbalanced = await db.query<{ transaction_id: number; code: string; total: string }>(
    `SELECT e.transaction_id, c.code, sum(e.amount) AS total
     FROM ledger_entries e JOIN currencies c ON c.id = e.currency_id
     GROUP BY e.transaction_id, c.code HAVING sum(e.amount) <> 0 ORDER BY e.transaction_id, c.code`,
  );
  const tooFew = await db.query<{ id: number; entries: number }>(
    `SELECT t.id, count(e.id) AS entries FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id
     GROUP BY t.id HAVING count(e.id) < 2 ORDER BY t.id`,
  );
  const visible = await db.query<{ id: number; before_balance: string; after_balance: string; change: string }>(
    `SELECT t.id, t.before_balance, t.after_balance,
       coalesce(sum(e.amount) FILTER (WHERE a.wallet_id = t.wallet_id AND a.kind = 'available'), 0) AS change
     FROM ledger_transactions t
     LEFT JOIN ledger_entries e ON e.transaction_id = t.id LEFT JOIN ledger_accounts a ON a.id = e.account_id
     WHERE t.wallet_id IS NOT NULL
     GROUP BY t.id, t.before_balance, t.after_balance
     HAVING t.after_balance - t.before_balance <> coalesce(sum(e.amount) FILTER (WHERE a.wallet_id = t.wallet_id AND a.kind = 'available'), 0)
     ORDER BY t.id`,
  );
  const playerTotals = await db.query<{ id: number; code: string; available: string; pending: string; bonus: string; held: string }>(
    `SELECT c.id, c.code, coalesce(sum(w.available), 0) AS available, coalesce(sum(w.pending), 0) AS pending,
       coalesce(sum(w.bonus), 0) AS bonus, coalesce(sum(w.held), 0) AS held
     FROM currencies c LEFT JOIN wallets w ON w.currency_id = c.id GROUP BY c.id, c.code, c.sort_order ORDER BY c.sort_order, c.id`,
  );
  const systemTotals = await db.query<{ currency_id: number; kind: SystemAccountKind; total: string }>(
    `SELECT a.currency_id, a.kind, coalesce(sum(e.amount), 0) AS total
     FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
     WHERE a.wallet_id IS NULL GROUP BY a.currency_id, a.kind`,
  );

  const walletMismatches = walletRows.map((row) => ({
    walletId: row.wallet_id,
    userId: row.user_id,
    currencyCode: row.code,
    kind: row.kind,
    cached: parseSignedAmount(row.cached),
    fromEntries: parseSignedAmount(row.total),
    accountMissing: row.missing,
  }));
  const unbalancedTransactions = unbalanced.map((row) => ({ transactionId: row.transaction_id, currencyCode: row.code, sum: parseSignedAmount(row.total) }));
  const transactionsWithTooFewEntries = tooFew.map((row) => ({ transactionId: row.id, entries: row.entries }));
  const visibleMismatches = visible.map((row) => ({
    transactionId: row.id,
    beforeBalance: parseSignedAmount(row.before_balance),
    afterBalance: parseSignedAmount(row.after_balance),
    availableChange: parseSignedAmount(row.change),
  }));
  const totals = playerTotals.map((row) => {
    const system = Object.fromEntries(SYSTEM_ACCOUNT_KINDS.map((kind) => [kind, 0n])) as Record<SystemAccountKind, bigint>;
    for (const s of systemTotals) if (s.currency_id === row.id) system[s.kind] = parseSignedAmount(s.total);
    return {
      currencyCode: row.code,
      players: { available: parseSignedAmount(row.available), pending: parseSignedAmount(row.pending), bonus: parseSignedAmount(row.bonus),
        held: parseSignedAmount(row.held),
      },
      system,
    };
  });
  return {
    ok: walletMismatches.length + unbalancedTransactions.length + transactionsWithTooFewEntries.length + visibleMismatches.length === 0,
    counts,
    walletMismatches,
    unbalancedTransactions,
    transactionsWithTooFewEntries,
    visibleMismatches,
    totals,
  };
}
