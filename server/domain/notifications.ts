import { formatAmount } from '../../src/money.ts';
import type { Queryable } from '../db/db.ts';

/*
 * The notifications the server writes for a player (GET /common/user-notification), in the same
 * transaction as what they tell of: a credited deposit, a withdrawal paid out or failed, a document
 * reviewed. The event stream announces each one as it commits (migration 0011_live_events.sql). They are
 * written in English: the platform keeps no language per player (the interface language is the device's).
 */

export async function notifyPlayer(db: Queryable, userId: number, title: string, message: string, at: Date): Promise<void> {
  await db.query('INSERT INTO user_notifications (user_id, title, message, created_at) VALUES ($1, $2, $3, $4)', [userId, title, message, at]);
}

const money = (units: bigint, currencyCode: string) => `${formatAmount(units)} ${currencyCode}`;

/** `held`: the part held apart over a deposit limit (server/domain/held-deposits.ts), not playable yet. */
export function depositCreditedNotice(amount: bigint, currencyCode: string, held = 0n): [string, string] {
  if (held === 0n) return ['Deposit credited', `Your deposit of ${money(amount, currencyCode)} has been credited to your wallet.`];
  const playable = amount - held;
  return [
    'Deposit credited',
    `Your deposit of ${money(amount, currencyCode)} has been credited to your wallet: ` +
      (playable > 0n ? `${money(playable, currencyCode)} to your balance, ` : '') +
      `${money(held, currencyCode)} held apart over your deposit limit, released as the limit allows (you may withdraw it at any time).`,
  ];
}

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
