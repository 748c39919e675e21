import { formatAmount } from '../../src/money.ts';
import type { Queryable } from '../db/db.ts';

/*
 * The notifications the server writes for a player (GET /common/user-notification), in the same
 * transaction as what they tell of: a withdrawal paid out or failed, a document reviewed (a credited
 * deposit's is written by deposit_notification_apply, server/db/schema). The event stream announces each one as it commits (server/db/schema/1_function_announce_row.sql). They are
 * written in English: the platform keeps no language per player (the interface language is the device's).
 */

export async function notifyPlayer(db: Queryable, userId: number, title: string, message: string, at: Date): Promise<void> {
  await db.query('INSERT INTO user_notifications (user_id, title, message, created_at) VALUES ($1, $2, $3, $4)', [userId, title, message, at]);
}

const money = (units: bigint, currencyCode: string) => `${formatAmount(units)} ${currencyCode}`;

export function withdrawalCompletedNotice(amount: bigint, currencyCode: string, address: string): [string, string] {
  return ['Withdrawal sent', `Your withdrawal of ${money(amount, currencyCode)} to ${address} has been sent.`];
}

export function withdrawalFailedNotice(amount: bigint, fee: bigint, currencyCode: string): [string, string] {
  return [
    'Withdrawal failed',
    `Your withdrawal of ${money(amount, currencyCode)} could not be sent. ${money(amount + fee, currencyCode)} (amount and fee) is back in your wallet.`,
  ];
}

export function documentReviewedNotice(label: string, status: 'Approved' | 'Rejected'): [string, string] {
  return status === 'Approved'
    ? ['Document approved', `Your document "${label}" has been approved.`]
    : ['Document rejected', `Your document "${label}" was rejected. Please upload it again.`];
}
