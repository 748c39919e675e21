import { assign, setup } from 'xstate';
import type { operations } from '../api/schema.d.ts';
import { formatAmount, MAX_TRANSFER_AMOUNT, parseAmount, tryParseAmount } from '../money.ts';
import { amountIssue } from '../rules/amount.ts';
import type { PaymentActivity, PaymentProvider } from './deposit.machine.ts';
import { notProvided, type ErrorCode, type Notice } from './effects.ts';
import { toFailure } from './failure.ts';
import { formFlow } from './form.ts';
import { liveEventsNotProvided, type WithdrawalActivity } from './live.ts';

/*
 * The wallet's Withdraw tab (SPEC §3, §4 "a pending request exists after submit", §5, §8). The payment
 * providers and the activity load first: a withdrawal already pending shows instead of the form (one at
 * a time per wallet), and a currency no provider pays out in says so instead of the form. Otherwise the
 * form: amount and address with the SPEC §5 rules beside each field, the provider when more than one
 * pays out, and the provider's minimum and fee shown (an amount under the minimum is refused with the
 * SPEC §8 message before anything is sent). SUBMIT on a valid form shows the confirmation (amount, fee,
 * the total taken, address); CONFIRM makes a new Idempotency-Key (the app's `newIdempotencyKey`) and
 * sends the request with it, so that sending it again after no answer (RETRY) can never pay twice; a
 * refusal goes back to the form with its SPEC §8 message. The pending request stays until the live
 * updates say it was sent or failed (the funds are then back): a toast and the form say so. After the
 * stream came back from a drop, the activity is read again.
 */

export type WithdrawRequest = operations['paymentWithdraw']['requestBody']['content']['application/json'] & { idempotencyKey: string };
export type WithdrawAnswer = operations['paymentWithdraw']['responses'][200]['content']['application/json']['data'];

export const WITHDRAW_FIELDS = ['amount', 'address'] as const;
export type WithdrawField = (typeof WITHDRAW_FIELDS)[number];

/** The request shown while it is pending: what the player asked for, as the server took it. */
export type PendingWithdrawal = Pick<WithdrawalActivity, 'spendRequestId' | 'currencyCode' | 'amount' | 'fee' | 'address'>;

export interface WithdrawInput {
  currencyCode: string;
}

export interface WithdrawContext {
  currencyCode: string;
  providers: PaymentProvider[];
  providerId: number | null;
  values: Record<WithdrawField, string>;
  fieldErrors: Partial<Record<WithdrawField, readonly string[]>>;
  errorCode: ErrorCode | null;
  /** The key of the confirmed request, kept while it may be sent again; null before a confirmation. */
  idempotencyKey: string | null;
  /** The browser could not make a key for the confirmed request (nothing was sent). */
  keyRefused: boolean;
  pending: PendingWithdrawal | null;
  /** How the last pending request ended, for the form to say. */
  settled: WithdrawalActivity | null;
}

export type WithdrawEvent =
  | { type: 'FIELD.CHANGE'; field: WithdrawField; value: string }
  | { type: 'PROVIDER'; providerId: number }
  | { type: 'SUBMIT' }
  | { type: 'BACK' }
  | { type: 'CONFIRM' }
  | { type: 'RETRY' }
  | { type: 'LIVE.WITHDRAWAL'; withdrawal: WithdrawalActivity }
  | { type: 'LIVE.RECONNECTED' };

const form = formFlow<WithdrawField, WithdrawContext, WithdrawEvent>({
  fields: WITHDRAW_FIELDS,
  check: ({ values }) => {
    const codes: Partial<Record<WithdrawField, string[]>> = {};
    const amount = amountIssue(values.amount, { maxUnits: MAX_TRANSFER_AMOUNT });
    if (amount) codes.amount = [amount];
    if (values.address.trim() === '') codes.address = ['required'];
    return codes;
  },
});

/** The provider the form pays out with. */
export function selectedProvider(context: Pick<WithdrawContext, 'providers' | 'providerId'>): PaymentProvider | null {
  return context.providers.find((provider) => provider.id === context.providerId) ?? null;
}

/** What the withdrawal takes from the balance: amount plus fee, as a decimal string; null for an amount that is not one. */
/** True when the amount is a valid one under the chosen provider's minimum. */
export function belowMinimum(context: Pick<WithdrawContext, 'providers' | 'providerId' | 'values'>): boolean {
  const provider = selectedProvider(context);
  const units = tryParseAmount(context.values.amount);
  return provider !== null && units !== null && units < parseAmount(provider.minWithdraw);
}

export function totalTaken(amount: string, fee: string): string | null {
  const units = tryParseAmount(amount);
  return units === null ? null : formatAmount(units + parseAmount(fee));
}

export const withdrawMachine = setup({
  types: {
    context: {} as WithdrawContext,
    events: {} as WithdrawEvent,
    input: {} as WithdrawInput,
  },
  actors: {
    /** GET /payment */
    loadPaymentProviders: notProvided<PaymentProvider[]>('loadPaymentProviders'),
    /** GET /payment/activity?currencyCode= */
    loadPaymentActivity: notProvided<PaymentActivity, { currencyCode: string }>('loadPaymentActivity'),
    /** POST /payment/coin-payments/withdraw with the Idempotency-Key header. */
    requestWithdrawal: notProvided<WithdrawAnswer, WithdrawRequest>('requestWithdrawal'),
    /** A new random Idempotency-Key, for one confirmed request. */
    newIdempotencyKey: notProvided<string>('newIdempotencyKey'),
    liveEvents: liveEventsNotProvided,
  },
  actions: {
    ...form.actions,
    notify: (_, _params: Notice) => {},
    storeProviders: assign(({ context }, params: { providers: PaymentProvider[] }) => {
      const providers = params.providers.filter((provider) => provider.withdrawAllowed && provider.currencies.includes(context.currencyCode));
      return { providers, providerId: providers[0]?.id ?? null, errorCode: null };
    }),
    storeLoadFailure: assign((_, params: { code: ErrorCode | null }) => ({ errorCode: params.code })),
    storeActivity: assign((_, params: { activity: PaymentActivity }) => {
      const pending = params.activity.withdrawals.find((withdrawal) => withdrawal.status === 'pending');
      return {
        pending: pending ? { spendRequestId: pending.spendRequestId, currencyCode: pending.currencyCode, amount: pending.amount, fee: pending.fee, address: pending.address } : null,
      };
    }),
    /** SPEC §8: the amount is under the provider's minimum; nothing is sent. */
    refuseBelowMinimum: assign({ errorCode: 'MINIMUM_WITHDRAW_AMOUNT_LIMIT' as ErrorCode, fieldErrors: { amount: [], address: [] } }),
    chooseProvider: assign((_, params: { providerId: number }) => ({ providerId: params.providerId })),
    storeKey: assign((_, params: { idempotencyKey: string }) => ({ idempotencyKey: params.idempotencyKey, keyRefused: false })),
    storeKeyRefused: assign({ keyRefused: true }),
    forgetKeyRefused: assign({ keyRefused: false }),
    forgetKey: assign({ idempotencyKey: null }),
    storePending: assign((_, params: { answer: WithdrawAnswer }) => {
      const { spendRequestId, currencyCode, amount, fee, address } = params.answer;
      return { pending: { spendRequestId, currencyCode, amount, fee, address }, idempotencyKey: null, settled: null };
    }),
    storeSettled: assign((_, params: { withdrawal: WithdrawalActivity }) => ({
      pending: null,
      settled: params.withdrawal,
      values: { amount: '', address: '' },
      fieldErrors: {},
      errorCode: null,
    })),
  },
  guards: {
    ...form.guards,
    noProvider: ({ context }) => context.providers.length === 0,
    belowMinimum: ({ context }) => belowMinimum(context),
    hasPending: (_, params: { activity: PaymentActivity }) => params.activity.withdrawals.some((withdrawal) => withdrawal.status === 'pending'),
    /** The pending request, settled. */
    /** The live update settles the pending request, the way `status` says. */
    settlesPending: ({ context }, params: { withdrawal: WithdrawalActivity; status: 'completed' | 'failed' }) =>
      params.withdrawal.spendRequestId === context.pending?.spendRequestId && params.withdrawal.status === params.status,
    noAnswer: (_, params: { error: unknown }) => toFailure(params.error).status === 0,
  },
}).createMachine({
  id: 'withdraw',
  context: ({ input }) => ({
    currencyCode: input.currencyCode,
    providers: [],
    providerId: null,
    values: { amount: '', address: '' },
    fieldErrors: {},
    errorCode: null,
    idempotencyKey: null,
    keyRefused: false,
    pending: null,
    settled: null,
  }),
  // Subscribed from the start: a settlement that comes while the activity loads is not missed.
  invoke: { src: 'liveEvents' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadPaymentProviders',
        onDone: { target: 'checking', actions: { type: 'storeProviders', params: ({ event }) => ({ providers: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeLoadFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) } },
      },
    },
    /** Is a request pending already? */
    checking: {
      invoke: {
        src: 'loadPaymentActivity',
        input: ({ context }) => ({ currencyCode: context.currencyCode }),
        onDone: [
          {
            guard: { type: 'hasPending', params: ({ event }) => ({ activity: event.output }) },
            target: 'pending',
            actions: { type: 'storeActivity', params: ({ event }) => ({ activity: event.output }) },
          },
          { guard: 'noProvider', target: 'unavailable', actions: { type: 'storeActivity', params: ({ event }) => ({ activity: event.output }) } },
          { target: 'editing', actions: { type: 'storeActivity', params: ({ event }) => ({ activity: event.output }) } },
        ],
        onError: { target: 'failed', actions: { type: 'storeLoadFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) } },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    /** No provider pays out in this currency. */
    unavailable: {},
    editing: {
      on: {
        'FIELD.CHANGE': {
          actions: ['clearFailure', { type: 'changeField', params: ({ event }) => ({ field: event.field, value: event.value }) }],
        },
        PROVIDER: { actions: { type: 'chooseProvider', params: ({ event }) => ({ providerId: event.providerId }) } },
        SUBMIT: [
          { guard: 'formInvalid', actions: 'showFieldErrors' },
          { guard: 'belowMinimum', actions: 'refuseBelowMinimum' },
          { target: 'confirming', actions: 'clearFailure' },
        ],
        // A request may have been made elsewhere while the stream was down: ask again (the form is kept).
        'LIVE.RECONNECTED': 'checking',
      },
    },
    confirming: {
      on: {
        BACK: { target: 'editing', actions: 'forgetKeyRefused' },
        CONFIRM: 'keying',
      },
    },
    /** The confirmed request gets a key of its own, which every sending of it carries. */
    keying: {
      invoke: {
        src: 'newIdempotencyKey',
        onDone: { target: 'submitting', actions: { type: 'storeKey', params: ({ event }) => ({ idempotencyKey: event.output }) } },
        onError: { target: 'confirming', actions: 'storeKeyRefused' },
      },
    },
    submitting: {
      entry: 'clearFailure',
      invoke: {
        src: 'requestWithdrawal',
        input: ({ context }) => ({
          amount: context.values.amount,
          address: context.values.address.trim(),
          currencyCode: context.currencyCode,
          ...(context.providerId === null ? {} : { paymentProviderId: context.providerId }),
          idempotencyKey: context.idempotencyKey ?? '',
        }),
        onDone: { target: 'pending', actions: { type: 'storePending', params: ({ event }) => ({ answer: event.output }) } },
        onError: [
          // No answer: it may have gone through. The same request, with the same key, can be sent again.
          {
            guard: { type: 'noAnswer', params: ({ event }) => ({ error: event.error }) },
            target: 'unanswered',
            actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) },
          },
          { target: 'editing', actions: ['forgetKey', { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) }] },
        ],
      },
    },
    unanswered: {
      on: {
        RETRY: 'submitting',
        BACK: { target: 'editing', actions: 'forgetKey' },
      },
    },
    pending: {
      on: {
        // Settled: a toast says how, and the activity is read again for the form (or another pending request).
        'LIVE.WITHDRAWAL': [
          {
            guard: { type: 'settlesPending', params: ({ event }) => ({ withdrawal: event.withdrawal, status: 'completed' as const }) },
            target: 'checking',
            actions: [
              { type: 'storeSettled', params: ({ event }) => ({ withdrawal: event.withdrawal }) },
              { type: 'notify', params: { tone: 'success', message: 'wallet.withdraw.sentNotice' } },
            ],
          },
          {
            guard: { type: 'settlesPending', params: ({ event }) => ({ withdrawal: event.withdrawal, status: 'failed' as const }) },
            target: 'checking',
            actions: [
              { type: 'storeSettled', params: ({ event }) => ({ withdrawal: event.withdrawal }) },
              { type: 'notify', params: { tone: 'error', message: 'wallet.withdraw.failedNotice' } },
            ],
          },
        ],
        // Missed events are possible while the stream was down: ask again.
        'LIVE.RECONNECTED': 'checking',
      },
    },
  },
});
