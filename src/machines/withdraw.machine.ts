import { assign, setup } from 'xstate';
import type { operations } from '../api/schema.d.ts';
import { formatAmount, MAX_TRANSFER_AMOUNT, parseAmount, tryParseAmount } from '../money.ts';
import { amountIssue } from '../rules/amount.ts';
import type { PaymentActivity, PaymentProvider } from './deposit.machine.ts';
import { notProvided, type ErrorCode } from './effects.ts';
import { toFailure } from './failure.ts';
import { formFlow } from './form.ts';
import { liveEventsNotProvided, type WithdrawalActivity } from './live.ts';

/*
 * The wallet's Withdraw tab (SPEC §3, §4 "a pending request exists after submit", §5, §8). The payment
 * providers and the activity load first: a withdrawal already pending shows instead of the form (one at
 * a time per wallet). Otherwise the form: amount and address with the SPEC §5 rules beside each field,
 * the provider when more than one pays out, and the minimum and fee shown. SUBMIT on a valid form shows
 * the confirmation (amount, fee, the total taken, address); CONFIRM sends the request with the
 * Idempotency-Key the confirmation carries, so that sending it again after no answer (RETRY) can never
 * pay twice; a refusal goes back to the form with its SPEC §8 message. The pending request stays until the
 * live updates say it was sent or failed (the funds are then back), and the form returns with that news.
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
  pending: PendingWithdrawal | null;
  /** How the last pending request ended, for the form to say. */
  settled: WithdrawalActivity | null;
}

export type WithdrawEvent =
  | { type: 'FIELD.CHANGE'; field: WithdrawField; value: string }
  | { type: 'PROVIDER'; providerId: number }
  | { type: 'SUBMIT' }
  | { type: 'BACK' }
  | { type: 'CONFIRM'; idempotencyKey: string }
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
    liveEvents: liveEventsNotProvided,
  },
  actions: {
    ...form.actions,
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
    chooseProvider: assign((_, params: { providerId: number }) => ({ providerId: params.providerId })),
    storeKey: assign((_, params: { idempotencyKey: string }) => ({ idempotencyKey: params.idempotencyKey })),
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
    hasPending: (_, params: { activity: PaymentActivity }) => params.activity.withdrawals.some((withdrawal) => withdrawal.status === 'pending'),
    /** The pending request, settled. */
    settlesPending: ({ context }, params: { withdrawal: WithdrawalActivity }) =>
      params.withdrawal.spendRequestId === context.pending?.spendRequestId && params.withdrawal.status !== 'pending',
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
          { target: 'editing', actions: { type: 'storeActivity', params: ({ event }) => ({ activity: event.output }) } },
        ],
        onError: { target: 'failed', actions: { type: 'storeLoadFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) } },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    editing: {
      on: {
        'FIELD.CHANGE': {
          actions: ['clearFailure', { type: 'changeField', params: ({ event }) => ({ field: event.field, value: event.value }) }],
        },
        PROVIDER: { actions: { type: 'chooseProvider', params: ({ event }) => ({ providerId: event.providerId }) } },
        SUBMIT: [{ guard: 'formInvalid', actions: 'showFieldErrors' }, { target: 'confirming', actions: 'clearFailure' }],
      },
    },
    confirming: {
      on: {
        BACK: 'editing',
        CONFIRM: { target: 'submitting', actions: { type: 'storeKey', params: ({ event }) => ({ idempotencyKey: event.idempotencyKey }) } },
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
        'LIVE.WITHDRAWAL': {
          guard: { type: 'settlesPending', params: ({ event }) => ({ withdrawal: event.withdrawal }) },
          target: 'editing',
          actions: { type: 'storeSettled', params: ({ event }) => ({ withdrawal: event.withdrawal }) },
        },
        // Missed events are possible while the stream was down: ask again.
        'LIVE.RECONNECTED': 'checking',
      },
    },
  },
});
