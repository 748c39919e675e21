import type { Db } from '../db/db.ts';

/**
 * Deposit limits applied when a deposit is credited (the address request checks them too, but coins sent
 * to the wallet's fixed address arrive whatever was asked): the part of a confirmed deposit over a deposit
 * limit window (rolling day, week and month) goes to the wallet's `held` balance (withdrawable, not
 * playable, not counted as deposited), and is released, oldest first, as the windows allow, at each later
 * credit and at each read of the wallets or of the limits, each release a row of the player's transaction
 * list (a `depositRelease`). The rules are the database's: deposit_limit_room, deposit_release_held and
 * deposit_notification_apply (server/db/schema). A withdrawal may take held money too (withdrawals.ts).
 */

/**
 * The responsible-gambling limits (deposit, bet and loss) are kept in LTC, the currency of the player's first
 * wallet (server/http/responsible-gambling.ts shows them in it); other currencies are not converted.
 */
export const LIMITS_CURRENCY = 'LTC';

/** Releases what fits of the player's held money (deposit_release_held), in one statement. */
export async function releaseHeldDeposits(db: Db, userId: number, now: Date): Promise<void> {
  await db.query('SELECT deposit_release_held($1, $2, $3)', [userId, LIMITS_CURRENCY, now], { prepared: 'deposit_release_held' });
}
