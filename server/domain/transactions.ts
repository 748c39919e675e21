import { createHash } from 'node:crypto';
import { formatAmount, parseSignedAmount } from '../../src/money.ts';
import type { Queryable } from '../db/db.ts';
import { badRequest } from './errors.ts';
import { normalisePaging } from './common.ts';
import type { TransactionActionType, TransactionDto, TransactionStatus, TransactionType } from './ledger.ts';

/**
 * The player's transaction list (GET /user/get-transactions, SPEC §3): what the ledger recorded as
 * player-visible, plus the deposits under the minimum, which the ledger never shows to anyone.
 *
 * Every movement of the wallet's available balance is a row, so within a wallet each row's before
 * balance is the previous row's after balance and the rows add up to the balance. A movement that goes
 * through several statuses is posted as several ledger transactions, the later ones naming the pending
 * one in related_transaction_id: a deposit seen (pending, into the pending balance) then credited
 * (completed, into available); a withdrawal requested (pending: amount and fee from available to
 * pending) then paid out with its fee (completed, out of pending) or refunded (failed, back to available).
 * A pending row that a later row names shows that later row's status (the withdrawal completed or failed);
 * one that did not move the available balance (the deposit seen) is then left out, the movement showing
 * as its later postings. Completed transactions are never left out, so a bet stays beside the win or the
 * rollback that names it.
 *
 * A deposit under the minimum is recorded (deposits.status 'below_minimum'), never credited and never
 * refunded (SPEC §9): it shows as a `failed` deposit whose balances are the wallet's available balance
 * when it arrived, unchanged. Its transaction id is derived from the provider's transaction id, so it
 * is the same on every call.
 *
 * Filters apply to the row as shown (a deposit still pending matches status=pending until it is
 * credited). Newest first; ties keep the order the server recorded them in.
 */

export interface TransactionFilter {
  page?: number;
  limit?: number;
  /** Inclusive. */
  startDate?: string;
  /** Exclusive. */
  endDate?: string;
  currencyCode?: string;
  walletId?: number;
  type?: TransactionType;
  actionType?: TransactionActionType;
  status?: TransactionStatus;
}

export interface TransactionPage {
  rows: TransactionDto[];
  /** Rows matching the filters, over all pages. */
  count: number;
}

const DEFAULT_LIMIT = 24;

interface ListRow {
  total: number;
  source: 'ledger' | 'below_minimum' | null;
  public_id: string | null;
  provider: string | null;
  provider_tx_id: string | null;
  type: TransactionType | null;
  action_type: TransactionActionType | null;
  status: TransactionStatus | null;
  amount: string | null;
  before_balance: string | null;
  after_balance: string | null;
  currency_code: string | null;
  game_identifier: string | null;
  created_at: Date | null;
}

/** The schema checks each date's format; their order is a rule across the two. */
function parseRange(filter: TransactionFilter): { start: Date | null; end: Date | null } {
  const start = filter.startDate === undefined ? null : new Date(filter.startDate);
  const end = filter.endDate === undefined ? null : new Date(filter.endDate);
  const issues = [];
  if (start && Number.isNaN(start.getTime())) issues.push({ field: 'startDate', code: 'date' });
  if (end && Number.isNaN(end.getTime())) issues.push({ field: 'endDate', code: 'date' });
  if (issues.length) throw badRequest(issues);
  if (start && end && end < start) throw badRequest([{ field: 'endDate', code: 'dateRange' }]);
  return { start, end };
}

/**
 * A stable UUID for a deposit the ledger never recorded: SHA-256 of the provider and its transaction id,
 * shaped as a name-based UUID (version 5 bits, RFC 4122 variant).
 */
export function belowMinimumDepositId(provider: string, providerTxId: string): string {
  const hex = createHash('sha256').update(`deposit.below_minimum:${provider}:${providerTxId}`).digest('hex').slice(0, 32).split('');
  hex[12] = '5';
  hex[16] = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/** One page of the player's transactions, newest first, with the count over all pages. */
export async function listTransactions(db: Queryable, userId: number, filter: TransactionFilter = {}): Promise<TransactionPage> {
  const { start, end } = parseRange(filter);
  const { limit, offset } = normalisePaging({ page: filter.page ?? 1, limit: filter.limit ?? DEFAULT_LIMIT });

  const params: unknown[] = [userId];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  // The same conditions on both sources, written against each one's columns.
  const ledger = ['t.user_id = $1'];
  const deposits = ['d.user_id = $1', "d.status = 'below_minimum'"];
  if (start) {
    const p = param(start);
    ledger.push(`t.created_at >= ${p}`);
    deposits.push(`d.created_at >= ${p}`);
  }
  if (end) {
    const p = param(end);
    ledger.push(`t.created_at < ${p}`);
    deposits.push(`d.created_at < ${p}`);
  }
  if (filter.currencyCode !== undefined) {
    const p = param(filter.currencyCode);
    ledger.push(`c.code = ${p}`);
    deposits.push(`c.code = ${p}`);
  }
  if (filter.walletId !== undefined) {
    const p = param(filter.walletId);
    ledger.push(`t.wallet_id = ${p}`);
    deposits.push(`d.wallet_id = ${p}`);
  }
  if (filter.type !== undefined) ledger.push(`t.type = ${param(filter.type)}`);
  if (filter.actionType !== undefined) ledger.push(`t.action_type = ${param(filter.actionType)}`);
  if (filter.status !== undefined) ledger.push(`coalesce(settled.status, t.status) = ${param(filter.status)}`);
  // A deposit under the minimum is a failed deposit: it only matches filters that admit one.
  const belowMinimumShown =
    (filter.type ?? 'deposit') === 'deposit' && (filter.actionType ?? 'deposit') === 'deposit' && (filter.status ?? 'failed') === 'failed';

  const ledgerRows = `
    SELECT 'ledger' AS source, t.id, t.public_id::text AS public_id, NULL::text AS provider, NULL::text AS provider_tx_id,
      t.type, t.action_type, coalesce(settled.status, t.status) AS status, t.amount, t.before_balance, t.after_balance,
      c.code AS currency_code, t.game_identifier, t.created_at
    FROM ledger_transactions t JOIN currencies c ON c.id = t.currency_id
    LEFT JOIN LATERAL (
      SELECT later.status FROM ledger_transactions later
      WHERE t.status = 'pending' AND later.related_transaction_id = t.id AND later.user_id = t.user_id AND later.type = t.type
      ORDER BY later.id DESC LIMIT 1
    ) settled ON true
    WHERE ${ledger.join(' AND ')}
      AND NOT (settled.status IS NOT NULL AND t.before_balance = t.after_balance)`;
  // The wallet's available balance when the transfer arrived: the sum of its entries posted until then.
  const belowMinimumRows = `
    SELECT 'below_minimum' AS source, d.id, NULL::text AS public_id, d.provider, d.provider_tx_id,
      'deposit' AS type, 'deposit' AS action_type, 'failed' AS status, d.amount, balance.available AS before_balance,
      balance.available AS after_balance, c.code AS currency_code, NULL::text AS game_identifier, d.created_at
    FROM deposits d JOIN currencies c ON c.id = d.currency_id
    CROSS JOIN LATERAL (
      SELECT coalesce(sum(e.amount), 0) AS available
      FROM ledger_accounts a JOIN ledger_entries e ON e.account_id = a.id JOIN ledger_transactions lt ON lt.id = e.transaction_id
      WHERE a.wallet_id = d.wallet_id AND a.kind = 'available' AND lt.created_at <= d.created_at
    ) balance
    WHERE ${deposits.join(' AND ')}`;
  const union = belowMinimumShown ? `${ledgerRows} UNION ALL ${belowMinimumRows}` : ledgerRows;

  // A deposit under the minimum shows the balance of everything posted until its time, the same
  // millisecond included (the sum above): at equal times it is the newer row.
  const order = 'created_at DESC, source ASC, id DESC';
  const rows = await db.query<ListRow>(
    `WITH matching AS (${union}),
     page AS (SELECT * FROM matching ORDER BY ${order} LIMIT ${param(limit)} OFFSET ${param(offset)})
     SELECT (SELECT count(*) FROM matching) AS total, page.*
     FROM (SELECT 1) AS always LEFT JOIN page ON true
     ORDER BY ${order.replace(/(\w+) (DESC|ASC)/g, 'page.$1 $2')}`,
    params,
  );
  const count = Number(rows[0]?.total ?? 0);
  const page = rows.flatMap((row): TransactionDto[] => {
    if (row.source === null || !row.type || !row.action_type || !row.status || !row.created_at || !row.currency_code) return [];
    const transactionId = row.public_id ?? belowMinimumDepositId(row.provider ?? '', row.provider_tx_id ?? '');
    return [
      {
        transactionId,
        type: row.type,
        actionType: row.action_type,
        status: row.status,
        amount: formatAmount(parseSignedAmount(row.amount ?? '0')),
        beforeBalance: formatAmount(parseSignedAmount(row.before_balance ?? '0')),
        afterBalance: formatAmount(parseSignedAmount(row.after_balance ?? '0')),
        currencyCode: row.currency_code,
        gameIdentifier: row.game_identifier,
        createdAt: row.created_at.toISOString(),
      },
    ];
  });
  return { rows: page, count };
}

