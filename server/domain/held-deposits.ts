import type { Db } from '../db/db.ts';

/**
 * Deposit money held over a deposit limit (docs/money.md): the rules are the database's, deposit_limit_room,
 * deposit_release_held and deposit_notification_apply (server/db/schema); this file calls the release.
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
