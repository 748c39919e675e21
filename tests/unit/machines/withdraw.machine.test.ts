import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, toPromise } from 'xstate';
import { createApiClient } from '../../../src/api/client.ts';
import { createApiActors } from '../../../src/machines/actors.ts';
import { COINPAYMENTS } from '../../../src/flows/fixtures/deposit.ts';
import { ACCEPTED, FAILED, PAYOUT_ADDRESS, PENDING, SENT } from '../../../src/flows/fixtures/withdraw.ts';
import type { PaymentActivity, PaymentProvider } from '../../../src/machines/deposit.machine.ts';
import type { Notice } from '../../../src/machines/effects.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import type { LiveEvent } from '../../../src/machines/live.ts';
import { belowMinimum, totalTaken, withdrawMachine, type WithdrawAnswer, type WithdrawRequest } from '../../../src/machines/withdraw.machine.ts';
import { deferred, flush, type Deferred } from './fixtures.ts';

/*
 * The withdraw machine's money rules and its Idempotency-Keys: the provider's minimum refused before
 * anything is sent, the total taken in exact units, one key per confirmation and the same key when the
 * request is sent again after no answer, and the settlement's toast.
 */

const HIGHER_MINIMUM: PaymentProvider = { ...COINPAYMENTS, id: 2, name: 'NOWPayments', key: 'nowpayments', minWithdraw: '0.5', withdrawFee: '0.0001' };

/** The machine with fakes; `activities` answers the activity loads in turn (the last one from then on). */
function run(options: { providers?: PaymentProvider[]; activities?: PaymentActivity[] } = {}) {
  const requests: { input: WithdrawRequest; answer: Deferred<WithdrawAnswer> }[] = [];
  const notices: Notice[] = [];
  let keys = 0;
  let loads = 0;
  let live: ((event: LiveEvent) => void) | null = null;
  const machine = withdrawMachine.provide({
    actors: {
      loadPaymentProviders: fromPromise<PaymentProvider[]>(async () => options.providers ?? [COINPAYMENTS]),
      loadPaymentActivity: fromPromise<PaymentActivity, { currencyCode: string }>(async () => {
        const answers = options.activities ?? [{ deposits: [], withdrawals: [] }];
        loads += 1;
        return answers[Math.min(loads, answers.length) - 1]!;
      }),
      newIdempotencyKey: fromPromise<string>(async () => `key-${(keys += 1)}`),
      requestWithdrawal: fromPromise<WithdrawAnswer, WithdrawRequest>(({ input }) => {
        const answer = deferred<WithdrawAnswer>();
        requests.push({ input, answer });
        return answer.promise;
      }),
      liveEvents: fromCallback(({ sendBack }) => {
        live = sendBack as (event: LiveEvent) => void;
      }),
    },
    actions: { notify: (_, params: Notice) => void notices.push(params) },
  });
  const actor = createActor(machine, { input: { currencyCode: 'LTC' } }).start();
  const fill = (amount: string) => {
    actor.send({ type: 'FIELD.CHANGE', field: 'amount', value: amount });
    actor.send({ type: 'FIELD.CHANGE', field: 'address', value: PAYOUT_ADDRESS });
  };
  return { actor, requests, notices, fill, live: (event: LiveEvent) => live!(event) };
}

describe('withdraw: amounts', () => {
  it('takes the amount plus the fee, in exact units', () => {
    expect(totalTaken('0.1', '0.000006')).toBe('0.100006');
    expect(totalTaken('0.00000001', '0.00000002')).toBe('0.00000003');
    expect(totalTaken('9999.99999999', '0.000006')).toBe('10000.00000599');
    expect(totalTaken('abc', '0.000006')).toBeNull();
  });

  it("compares with the chosen provider's minimum", () => {
    const providers = [COINPAYMENTS, HIGHER_MINIMUM];
    const at = (amount: string, providerId: number) => belowMinimum({ providers, providerId, values: { amount, address: '' } });
    expect(at('0.02', 1)).toBe(true);
    expect(at('0.03', 1)).toBe(false);
    expect(at('0.1', 1)).toBe(false);
    expect(at('0.1', 2)).toBe(true);
    expect(at('0.5', 2)).toBe(false);
    expect(at('not a number', 1)).toBe(false);
  });
});

describe('withdrawMachine', () => {
  it('refuses 0.02 with the SPEC §8 minimum message and sends nothing', async () => {
    const { actor, requests, fill } = run();
    await flush();
    fill('0.02');
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errorCode).toBe('MINIMUM_WITHDRAW_AMOUNT_LIMIT');
    expect(requests).toHaveLength(0);
    // Corrected, the message goes and the confirmation follows.
    actor.send({ type: 'FIELD.CHANGE', field: 'amount', value: '0.1' });
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('confirming');
  });

  it('shows the rules beside the fields on submit', async () => {
    const { actor } = run();
    await flush();
    actor.send({ type: 'FIELD.CHANGE', field: 'amount', value: '10000.1' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ amount: ['amount.max'], address: ['required'] });
    expect(actor.getSnapshot().value).toBe('editing');
  });

  it('sends the same key again after no answer, and a new key for a new confirmation', async () => {
    const { actor, requests, fill } = run();
    await flush();
    fill('0.1');
    actor.send({ type: 'SUBMIT' });
    actor.send({ type: 'CONFIRM' });
    await flush();
    expect(requests.map((request) => request.input)).toEqual([
      { amount: '0.1', address: PAYOUT_ADDRESS, currencyCode: 'LTC', paymentProviderId: 1, idempotencyKey: 'key-1' },
    ]);
    requests[0]!.answer.reject(new ApiFailure(0, null));
    await flush();
    expect(actor.getSnapshot().value).toBe('unanswered');
    actor.send({ type: 'RETRY' });
    await flush();
    expect(requests[1]!.input.idempotencyKey).toBe('key-1');
    requests[1]!.answer.reject(new ApiFailure(0, null));
    await flush();
    // Back to the form: the next confirmation is a new request with a key of its own.
    actor.send({ type: 'BACK' });
    actor.send({ type: 'SUBMIT' });
    actor.send({ type: 'CONFIRM' });
    await flush();
    expect(requests[2]!.input.idempotencyKey).toBe('key-2');
    requests[2]!.answer.resolve(ACCEPTED);
    await flush();
    expect(actor.getSnapshot().value).toBe('pending');
    expect(actor.getSnapshot().context.pending).toEqual({
      spendRequestId: ACCEPTED.spendRequestId,
      currencyCode: 'LTC',
      amount: '0.1',
      fee: '0.000006',
      address: PAYOUT_ADDRESS,
    });
  });

  it('keeps a refusal as its code and forgets the key', async () => {
    const { actor, requests, fill } = run();
    await flush();
    fill('0.1');
    actor.send({ type: 'SUBMIT' });
    actor.send({ type: 'CONFIRM' });
    await flush();
    requests[0]!.answer.reject(new ApiFailure(409, 'WITHDRAWAL_REQUEST_IN_PENDING'));
    await flush();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({ errorCode: 'WITHDRAWAL_REQUEST_IN_PENDING', idempotencyKey: null });
  });

  it.each(['MAXIMUM_WITHDRAW_AMOUNT_LIMIT', 'PAYMENT_PROVIDER_LIMITS_NOT_EXISTS'] as const)('shows the 422 %s the server answers', async (code) => {
    const { actor, requests, fill } = run();
    await flush();
    fill('0.1');
    actor.send({ type: 'SUBMIT' });
    actor.send({ type: 'CONFIRM' });
    await flush();
    requests[0]!.answer.reject(new ApiFailure(422, code));
    await flush();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({ errorCode: code, idempotencyKey: null });
  });

  it('shows the pending request until its settlement, then the form with a toast', async () => {
    const { actor, notices, live } = run({ activities: [{ deposits: [], withdrawals: [PENDING] }, { deposits: [], withdrawals: [FAILED] }] });
    await flush();
    expect(actor.getSnapshot().value).toBe('pending');
    live({ type: 'LIVE.WITHDRAWAL', withdrawal: { ...SENT, spendRequestId: 'sp_someone_else' } });
    live({ type: 'LIVE.WITHDRAWAL', withdrawal: PENDING });
    expect(actor.getSnapshot().value).toBe('pending');
    live({ type: 'LIVE.WITHDRAWAL', withdrawal: FAILED });
    expect(notices).toEqual([{ tone: 'error', message: 'wallet.withdraw.failedNotice' }]);
    // The activity is read again before the form comes back with the news.
    expect(actor.getSnapshot().value).toBe('checking');
    await flush();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({ settled: FAILED, pending: null });
  });

  it('says a sent withdrawal with a success toast', async () => {
    const { actor, notices, live } = run({ activities: [{ deposits: [], withdrawals: [PENDING] }, { deposits: [], withdrawals: [SENT] }] });
    await flush();
    live({ type: 'LIVE.WITHDRAWAL', withdrawal: SENT });
    await flush();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(notices).toEqual([{ tone: 'success', message: 'wallet.withdraw.sentNotice' }]);
  });

  it('reads the activity again after the stream came back', async () => {
    let loads = 0;
    const machine = withdrawMachine.provide({
      actors: {
        loadPaymentProviders: fromPromise<PaymentProvider[]>(async () => [COINPAYMENTS]),
        loadPaymentActivity: fromPromise<PaymentActivity, { currencyCode: string }>(async () => {
          loads += 1;
          return { deposits: [], withdrawals: loads === 1 ? [] : [PENDING] };
        }),
        liveEvents: fromCallback(({ sendBack }) => {
          setTimeout(() => sendBack({ type: 'LIVE.RECONNECTED' }), 10);
        }),
      },
    });
    const actor = createActor(machine, { input: { currencyCode: 'LTC' } }).start();
    actor.send({ type: 'FIELD.CHANGE', field: 'amount', value: '0.1' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    await flush();
    expect(loads).toBe(2);
    expect(actor.getSnapshot().value).toBe('pending');
  });

  it('says so when no provider pays out in the currency', async () => {
    const { actor } = run({ providers: [{ ...COINPAYMENTS, withdrawAllowed: false }, { ...HIGHER_MINIMUM, currencies: ['BTC'] }] });
    await flush();
    expect(actor.getSnapshot().value).toBe('unavailable');
  });
});

describe('requestWithdrawal (the API actor)', () => {
  function api(body: unknown) {
    const requests: Request[] = [];
    const client = createApiClient({
      baseUrl: 'http://casino.test/api/v1',
      getToken: () => 'tok-1',
      onUnauthorized: () => undefined,
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = input instanceof Request ? input : new Request(input, init);
        requests.push(request);
        return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
      },
    });
    return { actors: createApiActors(client, { readToken: () => 'tok-1' }), requests };
  }
  const input: WithdrawRequest = { amount: '0.1', address: PAYOUT_ADDRESS, currencyCode: 'LTC', paymentProviderId: 1, idempotencyKey: 'key-1' };
  const send = (actors: ReturnType<typeof api>['actors']) => {
    const actor = createActor(actors.requestWithdrawal, { input });
    const done = toPromise(actor);
    actor.start();
    return done;
  };

  it('posts the body with the Idempotency-Key header', async () => {
    const { actors, requests } = api({ data: ACCEPTED, errors: [] });
    await expect(send(actors)).resolves.toEqual(ACCEPTED);
    expect(requests[0]!.url).toBe('http://casino.test/api/v1/payment/coin-payments/withdraw');
    expect(requests[0]!.headers.get('Idempotency-Key')).toBe('key-1');
    expect(await requests[0]!.json()).toEqual({ amount: '0.1', address: PAYOUT_ADDRESS, currencyCode: 'LTC', paymentProviderId: 1 });
  });

  it('reads a success without a spendRequestId as the internal error (SPEC §8)', async () => {
    const { spendRequestId: _id, ...withoutId } = ACCEPTED;
    for (const data of [withoutId, { ...ACCEPTED, spendRequestId: '' }]) {
      const { actors } = api({ data, errors: [] });
      await expect(send(actors)).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
    }
  });
});
