import { formatAmount, parseSignedAmount } from '../../src/money.ts';
import { LIMIT_PERIODS } from '../../src/rules/limits.ts';
import type { Db, Queryable } from '../db/db.ts';
import { postTransaction, transfer, walletAccount } from './ledger.ts';
import { currentLimit, LIMIT_PERIOD_MS } from './limits.ts';

/**
 * Deposit limits applied when a deposit is credited (the address request checks them too, but coins
 * sent to the wallet's fixed address arrive whatever was asked).
 *
 * Rule: a confirmed deposit is split. The part that fits in every deposit limit window in force (rolling
 * day, week and month, counted as the address request counts them) becomes available; the rest goes to
 * the wallet's `held` balance. Held money is not playable and does not count as deposited until it is
 * released. It is released, oldest first, as far as the windows allow, at each later credit and at each
 * read of the wallets or of the limits; a released amount counts as deposited at the time of its release.
 * A release is a row of the player's transaction list (a `depositRelease`), as every movement of available is.
 * A withdrawal may take available and held money (held last), so a player can always take held money
 * out; the held part goes straight from held to pending, never through available. It records what it
 * took from held (withdrawals.held_amount), and a withdrawal that fails or is refused gives that part
 * back to held and only the rest to available (withdrawals.ts). Deposit limits are kept in LIMITS_CURRENCY; other currencies are never held.
 */

/** Deposit limits are kept in LTC (server/http/responsible-gambling.ts); other currencies are not converted. */
export const LIMITS_CURRENCY = 'LTC';

/** What the deposit limits count in the window since `since`, in units: credits less their held part, and releases. */
export async function depositedSince(db: Queryable, userId: number, currencyId: number, since: Date): Promise<bigint> {
  const row = await db.query<{ total: string }>(
    `SELECT (SELECT coalesce(sum(amount - held_amount), 0) FROM deposits
               WHERE user_id = $1 AND currency_id = $2 AND status = 'credited' AND credited_at > $3)
          + (SELECT coalesce(sum(amount), 0) FROM deposit_releases WHERE user_id = $1 AND currency_id = $2 AND released_at > $3) AS total`,
    [userId, currencyId, since],
  );
  return parseSignedAmount(row[0]?.total ?? '0');
}

/**
 * How much more the player may deposit now in `currencyCode` before a deposit limit window is full;
 * null when no deposit limit applies.
 */
export async function depositRoom(db: Queryable, userId: number, currencyId: number, currencyCode: string, now: Date): Promise<bigint | null> {
  if (currencyCode !== LIMITS_CURRENCY) return null;
  let room: bigint | null = null;
  for (const period of LIMIT_PERIODS) {
    const limit = await currentLimit(db, userId, 'deposit', period, now);
    if (limit === null) continue;
    const deposited = await depositedSince(db, userId, currencyId, new Date(now.getTime() - LIMIT_PERIOD_MS[period]));
    const left = limit > deposited ? limit - deposited : 0n;
    room = room === null || left < room ? left : room;
  }
  return room;
}

/** Serialises one player's deposit-limit reckoning (credits and releases) until the transaction ends. */
export async function lockDepositLimits(tx: Queryable, userId: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`deposit-limits:${userId}`]);
}

/**
 * Inside a transaction holding lockDepositLimits: moves from held to available, in each of the player's
 * wallets with held money, what the deposit limits now allow, and records the releases.
 */
export async function releaseHeldInTransaction(tx: Queryable, userId: number, now: Date): Promise<void> {
  const wallets = await tx.query<{ id: number; currency_id: number; code: string; held: string }>(
    `SELECT w.id, w.currency_id, c.code, w.held FROM wallets w JOIN currencies c ON c.id = w.currency_id
     WHERE w.user_id = $1 AND w.held > 0 ORDER BY w.id FOR UPDATE OF w`,
    [userId],
  );
  for (const wallet of wallets) {
    const held = parseSignedAmount(wallet.held);
    const room = await depositRoom(tx, userId, wallet.currency_id, wallet.code, now);
    const release = room === null || room > held ? held : room;
    if (release <= 0n) continue;
    // A movement of available, so a row of the player's list (a completed depositRelease).
    const posted = await postTransaction(tx, {
      kind: 'deposit.release',
      at: now,
      legs: transfer(walletAccount(wallet.id, 'held'), walletAccount(wallet.id, 'available'), release),
      visible: { walletId: wallet.id, type: 'deposit', actionType: 'depositRelease', status: 'completed', amount: release },
    });
    await tx.query(
      'INSERT INTO deposit_releases (wallet_id, user_id, currency_id, amount, transaction_id, released_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [wallet.id, userId, wallet.currency_id, formatAmount(release), posted.transaction.id, now],
    );
  }
}

/** Releases what fits of the player's held money (see the rule above), in one transaction; nothing to do costs one read. */
export async function releaseHeldDeposits(db: Db, userId: number, now: Date): Promise<void> {
  const any = await db.query('SELECT 1 FROM wallets WHERE user_id = $1 AND held > 0 LIMIT 1', [userId]);
  if (any.length === 0) return;
  await db.transaction(async (tx) => {
    await lockDepositLimits(tx, userId);
    await releaseHeldInTransaction(tx, userId, now);
  });
}
