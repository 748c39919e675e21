import { describe, expect, it } from 'vitest';
import { ALL_PAID, ALL_PENDING, LIMIT_REACHED, NONE_YET, TWO_TO_CLAIM } from '../../../src/flows/fixtures/referral.ts';
import { FUNDED_WALLETS } from '../../../src/flows/fixtures/wallets.ts';
import { claimBlocker, type ReferralStatus } from '../../../src/machines/referral.machine.ts';

/*
 * Why the referral claim cannot be made: only qualified friends are paid for, so friends who signed up
 * and still have to qualify are named as the reason, not taken for friends already rewarded.
 */

const LIMIT = 10;
const blocker = (referral: ReferralStatus, wallets = FUNDED_WALLETS) => claimBlocker({ referral, wallets, currencyId: wallets[0]?.currencyId ?? null }, LIMIT);

describe('claimBlocker', () => {
  it('names the reason there is nothing to claim', () => {
    expect(blocker(TWO_TO_CLAIM)).toBeNull();
    expect(blocker(TWO_TO_CLAIM, [])).toBe('noWallet');
    expect(blocker(NONE_YET)).toBe('noFriendsYet');
    expect(blocker(ALL_PENDING)).toBe('friendsPending');
    expect(blocker(ALL_PAID)).toBe('allPaid');
    expect(blocker(LIMIT_REACHED)).toBe('limitReached');
  });

  it('says friends are pending when every qualified one was paid for and others still have to qualify', () => {
    expect(blocker({ ...ALL_PAID, referredCount: 5, pendingCount: 2 })).toBe('friendsPending');
    // At the limit, pending friends will never be paid for.
    expect(blocker({ ...LIMIT_REACHED, referredCount: 14, pendingCount: 2 })).toBe('limitReached');
  });
});
