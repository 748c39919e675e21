import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { ADDRESS, COINPAYMENTS, CREDITED, HALFWAY, SEEN, TOO_SMALL } from '../../../src/flows/fixtures/deposit.ts';
import { depositMachine, mergeDeposits, type DepositAddress, type DepositRequest, type PaymentActivity, type PaymentProvider } from '../../../src/machines/deposit.machine.ts';
import type { Notice } from '../../../src/machines/effects.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import type { DepositActivity } from '../../../src/machines/live.ts';
import { deferred, type Deferred } from './fixtures.ts';

/*
 * The deposit machine's list of deposits on their way: what a load brings merged with what the live
 * updates brought meanwhile, a reconnect starting a load over, and the credited toast given once.
 */

const activity = (deposits: DepositActivity[]): PaymentActivity => ({ deposits, withdrawals: [] });
const later = (deposit: DepositActivity, minutes: number, txId: string): DepositActivity => ({
  ...deposit,
  txId,
  createdAt: new Date(Date.parse(deposit.createdAt) + minutes * 60_000).toISOString(),
});

function run() {
  const loads: Deferred<PaymentActivity>[] = [];
  const notices: Notice[] = [];
  const machine = depositMachine.provide({
    actors: {
      loadPaymentProviders: fromPromise<PaymentProvider[]>(async () => [COINPAYMENTS]),
      loadPaymentActivity: fromPromise<PaymentActivity, { currencyCode: string }>(() => {
        const load = deferred<PaymentActivity>();
        loads.push(load);
        return load.promise;
      }),
      requestDepositAddress: fromPromise<DepositAddress, DepositRequest>(async () => ADDRESS),
      copyText: fromPromise<void, { text: string }>(async () => undefined),
      liveEvents: fromCallback(() => undefined),
    },
    actions: { notify: (_, params: Notice) => void notices.push(params) },
  });
  const actor = createActor(machine, { input: { currencyCode: 'LTC' } }).start();
  return { actor, loads, notices };
}

describe('mergeDeposits', () => {
  it('keeps the further along of two copies, the loaded one when even', () => {
    expect(mergeDeposits([CREDITED], [HALFWAY])).toEqual([CREDITED]);
    expect(mergeDeposits([SEEN], [HALFWAY])).toEqual([HALFWAY]);
    const sameProgress = { ...HALFWAY, updatedAt: '2025-02-01T18:04:00.000Z' };
    expect(mergeDeposits([HALFWAY], [sameProgress])).toEqual([sameProgress]);
    expect(mergeDeposits([{ ...TOO_SMALL, txId: HALFWAY.txId }], [HALFWAY])[0]!.status).toBe('belowMinimum');
  });

  it('keeps a known deposit the answer missed, newest first', () => {
    const newer = later(SEEN, 5, 'a1'.repeat(32));
    const older = later(SEEN, -5, 'a2'.repeat(32));
    expect(mergeDeposits([newer], [HALFWAY, older])).toEqual([newer, HALFWAY, older]);
    expect(mergeDeposits([], [HALFWAY, older])).toEqual([HALFWAY, older]);
  });
});

describe('depositMachine: the deposits on their way', () => {
  it('keeps a deposit that moved while the list loaded', async () => {
    const { actor, loads, notices } = run();
    expect(loads).toHaveLength(1);
    actor.send({ type: 'LIVE.DEPOSIT', deposit: CREDITED });
    expect(notices).toEqual([{ tone: 'success', message: 'messages.depositCredited' }]);
    // The answer was read before the deposit was credited.
    loads[0]!.resolve(activity([HALFWAY]));
    await waitFor(actor, (s) => s.matches({ activity: 'shown' }));
    expect(actor.getSnapshot().context.deposits).toEqual([CREDITED]);
    // A repeat of the credit is no second toast.
    actor.send({ type: 'LIVE.DEPOSIT', deposit: CREDITED });
    expect(notices).toHaveLength(1);
  });

  it('starts the load over when the stream comes back while it is under way, and uses the new answer', async () => {
    const { actor, loads } = run();
    actor.send({ type: 'LIVE.RECONNECTED' });
    expect(loads).toHaveLength(2);
    loads[0]!.resolve(activity([]));
    loads[1]!.resolve(activity([HALFWAY]));
    await waitFor(actor, (s) => s.matches({ activity: 'shown' }));
    expect(actor.getSnapshot().context.deposits).toEqual([HALFWAY]);
  });

  it('loads again after a reconnect once shown, and says why a load failed', async () => {
    const { actor, loads } = run();
    loads[0]!.reject(new ApiFailure(500, 'INTERNAL_SERVER_ERROR'));
    await waitFor(actor, (s) => s.matches({ activity: 'unavailable' }));
    expect(actor.getSnapshot().context.activityErrorCode).toBe('INTERNAL_SERVER_ERROR');
    actor.send({ type: 'LIVE.RECONNECTED' });
    expect(loads).toHaveLength(2);
    loads[1]!.resolve(activity([SEEN]));
    await waitFor(actor, (s) => s.matches({ activity: 'shown' }));
    expect(actor.getSnapshot().context).toMatchObject({ deposits: [SEEN], activityErrorCode: null });
    actor.send({ type: 'LIVE.RECONNECTED' });
    expect(loads).toHaveLength(3);
  });

  it('leaves out the deposits of another currency', async () => {
    const { actor, loads } = run();
    loads[0]!.resolve(activity([]));
    await waitFor(actor, (s) => s.matches({ activity: 'shown' }));
    actor.send({ type: 'LIVE.DEPOSIT', deposit: { ...SEEN, currencyCode: 'BTC' } });
    expect(actor.getSnapshot().context.deposits).toEqual([]);
  });
});

describe('depositMachine: a refused request', () => {
  it.each(['MAXIMUM_DEPOSIT_AMOUNT_LIMIT', 'PAYMENT_PROVIDER_LIMITS_NOT_EXISTS', 'MINIMUM_DEPOSIT_AMOUNT_LIMIT'] as const)(
    'shows the 422 %s and lets the player change the amount',
    async (code) => {
      const machine = depositMachine.provide({
        actors: {
          loadPaymentProviders: fromPromise<PaymentProvider[]>(async () => [COINPAYMENTS]),
          loadPaymentActivity: fromPromise<PaymentActivity, { currencyCode: string }>(async () => activity([])),
          requestDepositAddress: fromPromise<DepositAddress, DepositRequest>(async () => {
            throw new ApiFailure(422, code);
          }),
          copyText: fromPromise<void, { text: string }>(async () => undefined),
          liveEvents: fromCallback(() => undefined),
        },
      });
      const actor = createActor(machine, { input: { currencyCode: 'LTC' } }).start();
      await waitFor(actor, (s) => s.matches({ form: 'editing' }));
      actor.send({ type: 'FIELD.CHANGE', field: 'amount', value: '0.5' });
      actor.send({ type: 'SUBMIT' });
      await waitFor(actor, (s) => s.matches({ form: 'editing' }) && s.context.errorCode !== null);
      expect(actor.getSnapshot().context.errorCode).toBe(code);
      actor.send({ type: 'FIELD.CHANGE', field: 'amount', value: '0.4' });
      expect(actor.getSnapshot().context.errorCode).toBeNull();
    },
  );
});
