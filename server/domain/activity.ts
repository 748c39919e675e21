import { formatAmount, parseSignedAmount } from '../../src/money.ts';
import type { Queryable } from '../db/db.ts';
import { getSettings } from './common.ts';

/*
 * The player's money on its way (GET /payment/activity, and the event stream's `deposit` and `withdrawal`
 * events): deposits the chain has shown but not yet credited, withdrawals the provider has not settled,
 * and those that ended in the last day, so that the wallet can say how each one ended.
 */

export interface DepositActivity {
  txId: string;
  currencyCode: string;
  amount: string;
  confirmations: number;
  requiredConfirmations: number;
  status: 'pending' | 'credited' | 'belowMinimum';
  /** The part of a credited deposit held apart over a deposit limit; absent when none was. */
  heldAmount?: string;
  createdAt: string;
  updatedAt: string;
}

export interface WithdrawalActivity {
  spendRequestId: string;
  currencyCode: string;
  amount: string;
  fee: string;
  address: string;
  status: 'pending' | 'completed' | 'failed';
  createdAt: string;
  updatedAt: string;
}

/** How long an ended deposit or withdrawal is still listed. */
const RECENT_MS = 24 * 60 * 60 * 1000;
/** The most of each the list returns. */
const MAX_ROWS = 20;

interface DepositRow {
  provider_tx_id: string;
  code: string;
  amount: string;
  confirmations: number;
  status: 'pending' | 'credited' | 'below_minimum';
  held_amount: string;
  created_at: Date;
  updated_at: Date;
}

interface WithdrawalRow {
  spend_request_id: string;
  code: string;
  amount: string;
  fee: string;
  address: string;
  status: 'pending' | 'completed' | 'failed';
  created_at: Date;
  updated_at: Date;
}

const amount = (value: string) => formatAmount(parseSignedAmount(value));

function toDeposit(row: DepositRow, requiredConfirmations: number): DepositActivity {
  return {
    txId: row.provider_tx_id,
    currencyCode: row.code,
    amount: amount(row.amount),
    confirmations: row.confirmations,
    requiredConfirmations,
    status: row.status === 'below_minimum' ? 'belowMinimum' : row.status,
    ...(parseSignedAmount(row.held_amount) > 0n ? { heldAmount: amount(row.held_amount) } : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function toWithdrawal(row: WithdrawalRow): WithdrawalActivity {
  return {
    spendRequestId: row.spend_request_id,
    currencyCode: row.code,
    amount: amount(row.amount),
    fee: amount(row.fee),
    address: row.address,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const DEPOSIT_COLUMNS = `d.provider_tx_id, c.code, d.amount, d.confirmations, d.status, d.held_amount, d.created_at, d.updated_at
  FROM deposits d JOIN currencies c ON c.id = d.currency_id`;
// A request the provider has not accepted yet ('requested') is not the player's yet, and one it refused
// at once (failed without a spend request) was answered as refused and its funds returned: neither is
// listed nor sent on the stream.
const WITHDRAWAL_COLUMNS = `w.spend_request_id, c.code, w.amount, w.fee, w.address, w.status, w.created_at, w.updated_at
  FROM withdrawals w JOIN currencies c ON c.id = w.currency_id`;
const WITHDRAWAL_ACCEPTED = `w.status <> 'requested' AND w.spend_request_id IS NOT NULL`;

/** The player's deposits and withdrawals in flight or ended in the last day, newest first. */
export async function listActivity(
  db: Queryable,
  userId: number,
  now: Date,
  currencyCode?: string,
): Promise<{ deposits: DepositActivity[]; withdrawals: WithdrawalActivity[] }> {
  const since = new Date(now.getTime() - RECENT_MS);
  const { depositConfirmations } = await getSettings(db);
  const deposits = await db.query<DepositRow>(
    `SELECT ${DEPOSIT_COLUMNS}
     WHERE d.user_id = $1 AND ($2::text IS NULL OR c.code = $2) AND (d.status = 'pending' OR d.updated_at >= $3)
     ORDER BY d.created_at DESC, d.id DESC LIMIT ${MAX_ROWS}`,
    [userId, currencyCode ?? null, since],
  );
  const withdrawals = await db.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS}
     WHERE w.user_id = $1 AND ($2::text IS NULL OR c.code = $2) AND ${WITHDRAWAL_ACCEPTED}
       AND (w.status = 'pending' OR w.updated_at >= $3)
     ORDER BY w.created_at DESC, w.id DESC LIMIT ${MAX_ROWS}`,
    [userId, currencyCode ?? null, since],
  );
  return {
    deposits: deposits.map((row) => toDeposit(row, depositConfirmations)),
    withdrawals: withdrawals.map(toWithdrawal),
  };
}

/** One deposit of the player, as the event stream sends it; undefined when it is not theirs. */
export async function depositActivity(db: Queryable, userId: number, depositId: number): Promise<DepositActivity | undefined> {
  const [row] = await db.query<DepositRow>(`SELECT ${DEPOSIT_COLUMNS} WHERE d.id = $1 AND d.user_id = $2`, [depositId, userId]);
  if (!row) return undefined;
  const { depositConfirmations } = await getSettings(db);
  return toDeposit(row, depositConfirmations);
}

/** One withdrawal of the player the provider has accepted; undefined otherwise. */
export async function withdrawalActivity(db: Queryable, userId: number, withdrawalId: number): Promise<WithdrawalActivity | undefined> {
  const [row] = await db.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} WHERE w.id = $1 AND w.user_id = $2 AND ${WITHDRAWAL_ACCEPTED}`,
    [withdrawalId, userId],
  );
  return row && toWithdrawal(row);
}
