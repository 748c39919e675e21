import { formatAmount, parseSignedAmount } from '../../src/money.ts';
import type { Db, Queryable } from '../db/db.ts';
import { DomainError } from './errors.ts';

interface WalletRow {
  [key: string]: unknown;
  id: number;
  currency_id: number;
  code: string;
  available: string;
  pending: string;
  bonus: string;
  held: string;
  selected: boolean;
}

export async function listWallets(db: Queryable, userId: number) {
  const rows = await db.query<WalletRow>(
    `SELECT w.id, w.currency_id, c.code, w.available, w.pending, w.bonus, w.held, w.selected
     FROM wallets w JOIN currencies c ON c.id = w.currency_id
     WHERE w.user_id = $1 ORDER BY c.sort_order, c.id`,
    [userId],
  );
  return rows.map((row) => ({
    id: row.id,
    currencyId: row.currency_id,
    currencyCode: row.code,
    available: formatAmount(parseSignedAmount(row.available)),
    pending: formatAmount(parseSignedAmount(row.pending)),
    // Bonus money is held apart from available (server/domain/ledger.ts): the player sees both.
    bonus: formatAmount(parseSignedAmount(row.bonus)),
    // Deposit money over a deposit limit, not playable until released (server/domain/held-deposits.ts).
    held: formatAmount(parseSignedAmount(row.held)),
    selected: row.selected,
  }));
}

/** Makes one of the player's wallets the selected one; another player's wallet is reported as missing. */
export async function selectWallet(db: Db, userId: number, walletId: number) {
  return db.transaction(async (tx) => {
    // All of the player's wallets, locked in one order: concurrent selections queue instead of deadlocking.
    const wallets = await tx.query<{ id: number }>('SELECT id FROM wallets WHERE user_id = $1 ORDER BY id FOR UPDATE', [userId]);
    if (!wallets.some((wallet) => wallet.id === walletId)) throw new DomainError('NOT_FOUND');
    // Unique indexes are checked row by row: clear the old choice before setting the new one.
    await tx.query('UPDATE wallets SET selected = false WHERE user_id = $1 AND selected AND id <> $2', [userId, walletId]);
    await tx.query('UPDATE wallets SET selected = true WHERE id = $1', [walletId]);
    return listWallets(tx, userId);
  });
}

export interface WalletBalances {
  walletId: number;
  userId: number;
  currencyId: number;
  currencyCode: string;
  /** Cached balances in units; server/domain/ledger.ts alone changes them, with their ledger entries. */
  available: bigint;
  pending: bigint;
  bonus: bigint;
}

/** A player's wallet in one currency (by code), with its cached balances in units; undefined when none. */
export async function findWallet(db: Queryable, userId: number, currencyCode: string): Promise<WalletBalances | undefined> {
  const rows = await db.query<{ id: number; user_id: number; currency_id: number; code: string; available: string; pending: string; bonus: string }>(
    `SELECT w.id, w.user_id, w.currency_id, c.code, w.available, w.pending, w.bonus
     FROM wallets w JOIN currencies c ON c.id = w.currency_id WHERE w.user_id = $1 AND c.code = $2`,
    [userId, currencyCode],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    walletId: row.id,
    userId: row.user_id,
    currencyId: row.currency_id,
    currencyCode: row.code,
    available: parseSignedAmount(row.available),
    pending: parseSignedAmount(row.pending),
    bonus: parseSignedAmount(row.bonus),
  };
}
