import { assign, setup } from 'xstate';
import type { components, operations } from '../api/schema.d.ts';
import { MAX_TRANSFER_AMOUNT } from '../money.ts';
import { amountIssue } from '../rules/amount.ts';
import { notProvided, type ErrorCode, type Notice } from './effects.ts';
import { toFailure } from './failure.ts';
import { formFlow } from './form.ts';
import { liveEventsNotProvided, type DepositActivity } from './live.ts';

/*
 * The wallet's Deposit tab (SPEC §3, §5; DESIGN.md wallet). Two things go on side by side:
 *
 * - form: the payment providers load (GET /payment); the player enters an amount (SPEC §5 rules beside
 *   it), picks a provider when there is more than one, and asks for the address
 *   (POST /payment/coin-payments/deposit). The address shows with its network, the minimum deposit and
 *   the confirmations it takes; COPY puts it on the clipboard (a named effect) and says whether it
 *   could. A refusal (the deposit limit, SPEC §8) shows its message and the form stays as it was.
 * - activity: the deposits on their way load (GET /payment/activity) and follow the live updates: a
 *   deposit seen, each confirmation, credited (with a toast), or found below the minimum. After the
 *   stream came back from a drop they load again (a load under way starts over: it may have been
 *   answered before what the drop hid); what loads is merged with what the updates brought meanwhile,
 *   the further along of the two kept. A failed load says why (SPEC §8) and offers to try again.
 */

export type PaymentProvider = components['schemas']['PaymentProvider'];
export type DepositRequest = operations['paymentDeposit']['requestBody']['content']['application/json'];
export type DepositAddress = operations['paymentDeposit']['responses'][200]['content']['application/json']['data'];
export interface PaymentActivity {
  deposits: DepositActivity[];
  withdrawals: components['schemas']['WithdrawalActivity'][];
}

export const DEPOSIT_FIELDS = ['amount'] as const;
export type DepositField = (typeof DEPOSIT_FIELDS)[number];

export interface DepositInput {
  currencyCode: string;
}

export interface DepositContext {
  currencyCode: string;
  /** The providers that take deposits of this currency. */
  providers: PaymentProvider[];
  providerId: number | null;
  values: Record<DepositField, string>;
  fieldErrors: Partial<Record<DepositField, readonly string[]>>;
  errorCode: ErrorCode | null;
  address: DepositAddress | null;
  /** How the last copy went; null before one, or after the address changed. */
  copied: 'done' | 'failed' | null;
  /** Deposits on their way or just ended, newest first. */
  deposits: DepositActivity[];
  /** Why the deposits could not be loaded (null: no code, a network failure). */
  activityErrorCode: ErrorCode | null;
}

export type DepositEvent =
  | { type: 'FIELD.CHANGE'; field: DepositField; value: string }
  | { type: 'PROVIDER'; providerId: number }
  | { type: 'SUBMIT' }
  | { type: 'RETRY' }
  | { type: 'COPY' }
  | { type: 'CHANGE_AMOUNT' }
  | { type: 'RELOAD_DEPOSITS' }
  | { type: 'LIVE.DEPOSIT'; deposit: DepositActivity }
  | { type: 'LIVE.RECONNECTED' };

const form = formFlow<DepositField, DepositContext, DepositEvent>({
  fields: DEPOSIT_FIELDS,
  check: ({ values }) => {
    const issue = amountIssue(values.amount, { maxUnits: MAX_TRANSFER_AMOUNT });
    return issue ? { amount: [issue] } : {};
  },
});

/** How far a deposit has come: an ended one (credited, below the minimum) is further than any pending. */
function progress(deposit: DepositActivity): number {
  return deposit.status === 'pending' ? deposit.confirmations : Number.POSITIVE_INFINITY;
}

/**
 * The deposits loaded, merged with those already known: a deposit never goes back, so of the two copies
 * of one the further along stays (the loaded one when even: the server's word), and a known one the
 * answer missed (it moved after the answer was read) stays too. Newest first.
 */
export function mergeDeposits(known: readonly DepositActivity[], loaded: readonly DepositActivity[]): DepositActivity[] {
  const merged = loaded.map((deposit) => {
    const mine = known.find((candidate) => candidate.txId === deposit.txId);
    return mine && progress(mine) > progress(deposit) ? mine : deposit;
  });
  const missed = known.filter((deposit) => !loaded.some((candidate) => candidate.txId === deposit.txId));
  return [...missed, ...merged].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

/** The deposits with `deposit` added, or put in the place of the one with its txId. */
function withDeposit(deposits: readonly DepositActivity[], deposit: DepositActivity): DepositActivity[] {
  return deposits.some((known) => known.txId === deposit.txId)
    ? deposits.map((known) => (known.txId === deposit.txId ? deposit : known))
    : [deposit, ...deposits];
}

export const depositMachine = setup({
  types: {
    context: {} as DepositContext,
    events: {} as DepositEvent,
    input: {} as DepositInput,
  },
  actors: {
    /** GET /payment */
    loadPaymentProviders: notProvided<PaymentProvider[]>('loadPaymentProviders'),
    /** GET /payment/activity?currencyCode= */
    loadPaymentActivity: notProvided<PaymentActivity, { currencyCode: string }>('loadPaymentActivity'),
    /** POST /payment/coin-payments/deposit */
    requestDepositAddress: notProvided<DepositAddress, DepositRequest>('requestDepositAddress'),
    /** Puts the text on the clipboard; fails when the browser refuses. */
    copyText: notProvided<void, { text: string }>('copyText'),
    liveEvents: liveEventsNotProvided,
  },
  actions: {
    ...form.actions,
    notify: (_, _params: Notice) => {},
    storeProviders: assign(({ context }, params: { providers: PaymentProvider[] }) => {
      const providers = params.providers.filter((provider) => provider.depositAllowed && provider.currencies.includes(context.currencyCode));
      return { providers, providerId: providers[0]?.id ?? null, errorCode: null };
    }),
    storeLoadFailure: assign((_, params: { code: ErrorCode | null }) => ({ errorCode: params.code })),
    chooseProvider: assign((_, params: { providerId: number }) => ({ providerId: params.providerId })),
    storeAddress: assign((_, params: { address: DepositAddress }) => ({ address: params.address, copied: null })),
    storeCopied: assign((_, params: { copied: 'done' | 'failed' }) => ({ copied: params.copied })),
    storeDeposits: assign(({ context }, params: { deposits: DepositActivity[] }) => ({
      deposits: mergeDeposits(context.deposits, params.deposits),
      activityErrorCode: null,
    })),
    storeActivityFailure: assign((_, params: { code: ErrorCode | null }) => ({ activityErrorCode: params.code })),
    storeDeposit: assign(({ context }, params: { deposit: DepositActivity }) => ({ deposits: withDeposit(context.deposits, params.deposit) })),
  },
  guards: {
    ...form.guards,
    otherCurrency: ({ context }, params: { deposit: DepositActivity }) => params.deposit.currencyCode !== context.currencyCode,
    /** A deposit credited now (not a repeat of one already shown credited). */
    creditedNow: ({ context }, params: { deposit: DepositActivity }) =>
      params.deposit.status === 'credited' &&
      context.deposits.find((known) => known.txId === params.deposit.txId)?.status !== 'credited',
  },
}).createMachine({
  id: 'deposit',
  type: 'parallel',
  context: ({ input }) => ({
    currencyCode: input.currencyCode,
    providers: [],
    providerId: null,
    values: { amount: '' },
    fieldErrors: {},
    errorCode: null,
    address: null,
    copied: null,
    deposits: [],
    activityErrorCode: null,
  }),
  // Subscribed from the start: a deposit that moves while the list loads is not missed.
  invoke: { src: 'liveEvents' },
  on: {
    'LIVE.DEPOSIT': [
      { guard: { type: 'otherCurrency', params: ({ event }) => ({ deposit: event.deposit }) } },
      {
        guard: { type: 'creditedNow', params: ({ event }) => ({ deposit: event.deposit }) },
        actions: [
          { type: 'storeDeposit', params: ({ event }) => ({ deposit: event.deposit }) },
          { type: 'notify', params: { tone: 'success', message: 'messages.depositCredited' } },
        ],
      },
      { actions: { type: 'storeDeposit', params: ({ event }) => ({ deposit: event.deposit }) } },
    ],
  },
  states: {
    form: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadPaymentProviders',
            onDone: { target: 'editing', actions: { type: 'storeProviders', params: ({ event }) => ({ providers: event.output }) } },
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
            SUBMIT: [{ guard: 'formInvalid', actions: 'showFieldErrors' }, { target: 'requesting' }],
          },
        },
        requesting: {
          entry: 'clearFailure',
          invoke: {
            src: 'requestDepositAddress',
            input: ({ context }) => ({
              amount: context.values.amount,
              currencyCode: context.currencyCode,
              ...(context.providerId === null ? {} : { paymentProviderId: context.providerId }),
            }),
            onDone: { target: 'address', actions: { type: 'storeAddress', params: ({ event }) => ({ address: event.output }) } },
            onError: { target: 'editing', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        address: {
          on: {
            COPY: 'copying',
            CHANGE_AMOUNT: 'editing',
          },
        },
        copying: {
          invoke: {
            src: 'copyText',
            input: ({ context }) => ({ text: context.address?.address ?? '' }),
            onDone: { target: 'address', actions: { type: 'storeCopied', params: { copied: 'done' } } },
            onError: { target: 'address', actions: { type: 'storeCopied', params: { copied: 'failed' } } },
          },
        },
      },
    },
    activity: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadPaymentActivity',
            input: ({ context }) => ({ currencyCode: context.currencyCode }),
            onDone: { target: 'shown', actions: { type: 'storeDeposits', params: ({ event }) => ({ deposits: event.output.deposits }) } },
            onError: { target: 'unavailable', actions: { type: 'storeActivityFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) } },
          },
          on: { 'LIVE.RECONNECTED': { target: 'loading', reenter: true } },
        },
        shown: {
          on: { 'LIVE.RECONNECTED': 'loading' },
        },
        unavailable: {
          on: { RELOAD_DEPOSITS: 'loading', 'LIVE.RECONNECTED': 'loading' },
        },
      },
    },
  },
});
