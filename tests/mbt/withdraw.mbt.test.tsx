// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { errorMessageKey, ruleMessageKey } from '../../src/api/errors.ts';
import { formatAmount } from '../../src/format.ts';
import { withdrawFixtures } from '../../src/flows/fixtures/withdraw.ts';
import type { Notice } from '../../src/machines/effects.ts';
import type { WithdrawalActivity } from '../../src/machines/live.ts';
import { selectedProvider, totalTaken, type WithdrawAnswer, type withdrawMachine, type WithdrawRequest } from '../../src/machines/withdraw.machine.ts';
import WithdrawTab from '../../src/views/wallet/WithdrawTab.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { changesAValue, fillsInOrder } from './filters.ts';
import { describeModel, type View } from './run.tsx';
import { setField, spaced } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type WithdrawView = View<typeof withdrawMachine>;
type WithdrawSnapshot = SnapshotFrom<typeof withdrawMachine>;

/*
 * The wallet's Withdraw tab: the form with its rules, minimum and fee; the confirmation with the total;
 * the request sent with the confirmation's Idempotency-Key (and the same key when sent again after no
 * answer); the pending request until the live updates say how it ended, with a toast.
 */

/** The requests each path's view sent, in order, and how many keys it asked for. */
const sent = new WeakMap<WithdrawView, WithdrawRequest[]>();
const keysAsked = new WeakMap<WithdrawView, number>();

/** The key the latest confirmation made (the output of the path's last newIdempotencyKey). */
function latestKey(view: WithdrawView): unknown {
  const made = view.steps.filter((step) => step.kind.kind === 'done' && step.kind.src === 'newIdempotencyKey').at(-1);
  return (made?.event as { output?: unknown } | undefined)?.output;
}

/** The toasts the path has shown so far: one per settlement of the pending request. */
function expectedNotices(view: WithdrawView): Notice[] {
  return view.steps.flatMap((step, index): Notice[] => {
    const before = view.steps[index - 1]?.state;
    if (step.event.type !== 'LIVE.WITHDRAWAL' || !before?.matches('pending') || step.state.matches('pending')) return [];
    const { withdrawal } = step.event as { type: 'LIVE.WITHDRAWAL'; withdrawal: WithdrawalActivity };
    return [withdrawal.status === 'completed' ? { tone: 'success', message: 'wallet.withdraw.sentNotice' } : { tone: 'error', message: 'wallet.withdraw.failedNotice' }];
  });
}

/**
 * In every state: a key was made for each confirmation and only then (never for a request sent again), a
 * request was sent each time the flow entered `submitting` (never without a confirmation, so never for
 * an amount refused before sending), and a toast said how each settlement ended.
 */
function seeEffects(view: WithdrawView) {
  expect(keysAsked.get(view) ?? 0).toBe(view.steps.filter((step) => step.event.type === 'CONFIRM').length);
  const sendings = view.steps.filter((step, index) => step.state.matches('submitting') && !view.steps[index - 1]?.state.matches('submitting'));
  expect(sent.get(view)!.length).toBe(sendings.length);
  expect(view.harness.notices).toEqual(expectedNotices(view));
}

type StateCheck = (view: WithdrawView, snapshot: WithdrawSnapshot) => void | Promise<void>;
const withEffects = (states: Record<string, StateCheck>): Record<string, StateCheck> =>
  Object.fromEntries(Object.entries(states).map(([name, check]) => [name, (view: WithdrawView, snapshot: WithdrawSnapshot) => {
    seeEffects(view);
    return check(view, snapshot);
  }]));

const money = (view: WithdrawView, amount: string) => formatAmount(amount, 'LTC', view.language);

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

/** The summary list (confirmation or pending request) as label → value pairs. */
function summary(name: string): [string, string][] {
  const list = screen.getByLabelText(name);
  const terms = [...list.querySelectorAll('dt')].map((term) => term.textContent ?? '');
  const values = [...list.querySelectorAll('dd')].map((value) => value.textContent ?? '');
  return terms.map((term, index) => [term, values[index] ?? '']);
}

function seeForm(view: WithdrawView, snapshot: WithdrawSnapshot) {
  const { context } = snapshot;
  for (const [field, key] of [
    ['amount', 'wallet.withdraw.amount'],
    ['address', 'wallet.withdraw.address'],
  ] as const) {
    expect((screen.getByLabelText(view.t(key)) as HTMLInputElement).value).toBe(context.values[field]);
    for (const code of context.fieldErrors[field] ?? []) expect(screen.getAllByText(view.t(ruleMessageKey(code)!)).length).toBeGreaterThan(0);
  }
  const provider = selectedProvider(context)!;
  expect(screen.getByText(spaced(`${view.t('wallet.withdraw.minimum', { amount: money(view, provider.minWithdraw) })} · ${view.t('wallet.withdraw.fee', { amount: money(view, provider.withdrawFee) })}`))).toBeTruthy();
  expect(screen.queryByLabelText(view.t('wallet.paymentProvider')) !== null).toBe(context.providers.length > 1);
  // The form's own message (the fields' lists are alerts too).
  const alert = screen.queryAllByRole('alert').find((element) => element.tagName === 'P');
  if (context.errorCode) expect(alert?.textContent).toBe(view.t(errorMessageKey(context.errorCode, 'default')));
  else expect(alert).toBeUndefined();
  // A bonus being wagered: what to do about it, and the way to the active bonus.
  const help = screen.queryByText(view.t('wallet.withdraw.cashoutHelp'));
  const toBonus = screen.queryByRole('link', { name: view.t('wallet.withdraw.seeActiveBonus') });
  expect(help !== null).toBe(context.errorCode === 'CASHOUT_NOT_ALLOWED');
  expect(toBonus?.getAttribute('href') ?? null).toBe(context.errorCode === 'CASHOUT_NOT_ALLOWED' ? '/bonus?tab=active' : null);
  const news = screen.queryByRole('status');
  if (context.settled) {
    const amount = money(view, context.settled.amount);
    expect(news?.textContent).toBe(
      context.settled.status === 'completed'
        ? view.t('wallet.withdraw.sent', { amount })
        : view.t('wallet.withdraw.failed', { amount, total: money(view, totalTaken(context.settled.amount, context.settled.fee)!) }),
    );
  } else expect(news).toBeNull();
  expect(buttonNamed(view.t('wallet.withdraw.submit'))).not.toBeNull();
}

function seeConfirmation(view: WithdrawView, snapshot: WithdrawSnapshot, mode: 'ready' | 'busy' | 'unanswered') {
  const { context } = snapshot;
  const fee = selectedProvider(context)!.withdrawFee;
  expect(summary(view.t('wallet.withdraw.review'))).toEqual([
    [view.t('wallet.withdraw.amount'), money(view, context.values.amount)],
    [view.t('wallet.withdraw.feeLabel'), money(view, fee)],
    [view.t('wallet.withdraw.totalLabel'), money(view, totalTaken(context.values.amount, fee)!)],
    [view.t('wallet.withdraw.address'), context.values.address.trim()],
  ]);
  if (mode === 'unanswered') {
    expect(screen.getByRole('alert').textContent).toBe(view.t('wallet.withdraw.unanswered'));
    expect(buttonNamed(view.t('wallet.withdraw.sendAgain'))).not.toBeNull();
  } else {
    const confirm = buttonNamed(mode === 'busy' ? view.t('common.submitting') : view.t('wallet.withdraw.confirm'))!;
    expect(confirm.disabled).toBe(mode === 'busy');
    // A confirmation the browser could not make a key for says so; nothing was sent.
    if (mode === 'ready' && context.keyRefused) expect(screen.getByRole('alert').textContent).toBe(view.t('wallet.withdraw.keyRefused'));
    else expect(screen.queryByRole('alert')).toBeNull();
  }
  expect(screen.queryByLabelText(view.t('wallet.withdraw.amount'))).toBeNull();
}

describeModel('withdraw', {
  fixtures: withdrawFixtures,
  filterEvents: (snapshot, event) => {
    const context = snapshot.context as WithdrawSnapshot['context'];
    if (!changesAValue(snapshot, event) || !fillsInOrder(withdrawFixtures.events['FIELD.CHANGE'])(snapshot, event)) return false;
    // The provider is picked before typing, and a settlement comes once.
    if (event.type === 'PROVIDER') return context.providers.length > 1 && context.providerId !== 2 && context.values.amount === '';
    if (event.type === 'FIELD.CHANGE') return context.settled === null || context.values.amount === '';
    return true;
  },
  render: (view) => {
    const requests: WithdrawRequest[] = [];
    sent.set(view, requests);
    const requestWithdrawal = fromPromise<WithdrawAnswer, WithdrawRequest>(({ input, signal }) => {
      requests.push(input);
      return view.call('requestWithdrawal', input, signal);
    });
    return renderWithServices(<WithdrawTab currencyCode="LTC" />, {
      actors: { ...view.actors, requestWithdrawal },
      live: view.live,
      newIdempotencyKey: () => {
        keysAsked.set(view, (keysAsked.get(view) ?? 0) + 1);
        return view.call('newIdempotencyKey');
      },
    });
  },
  events: {
    'FIELD.CHANGE': (view, event) => setField(view.user, view.t(event.field === 'amount' ? 'wallet.withdraw.amount' : 'wallet.withdraw.address'), event.value),
    PROVIDER: (view, event) => view.user.selectOptions(screen.getByLabelText(view.t('wallet.paymentProvider')), String(event.providerId)),
    SUBMIT: (view) => view.user.click(buttonNamed(view.t('wallet.withdraw.submit'))!),
    BACK: (view) => view.user.click(buttonNamed(view.t('wallet.withdraw.back'))!),
    CONFIRM: (view) => view.user.click(buttonNamed(view.t('wallet.withdraw.confirm'))!),
    RETRY: (view) => view.user.click((buttonNamed(view.t('common.retry')) ?? buttonNamed(view.t('wallet.withdraw.sendAgain')))!),
    'LIVE.WITHDRAWAL': (view, event) => view.live.send(event),
    'LIVE.RECONNECTED': (view, event) => view.live.send(event),
  },
  states: withEffects({
    loading: () => expect(screen.getByRole('status').getAttribute('aria-busy')).toBe('true'),
    checking: (view) => expect(screen.getByRole('status').textContent).toBe(view.t('states.loading')),
    failed: (view, snapshot) => {
      expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(snapshot.context.errorCode, 'default')));
      expect(buttonNamed(view.t('common.retry'))).not.toBeNull();
    },
    editing: seeForm,
    confirming: (view, snapshot) => seeConfirmation(view, snapshot, 'ready'),
    keying: (view, snapshot) => seeConfirmation(view, snapshot, 'busy'),
    submitting: (view, snapshot) => {
      seeConfirmation(view, snapshot, 'busy');
      // The request sent is the one confirmed, with the key its confirmation made: the same key when it
      // is sent again after no answer, a new one after a new confirmation.
      const { context } = snapshot;
      const requests = sent.get(view)!;
      const entries = view.steps.flatMap((step, index) => (step.state.matches('submitting') && !view.steps[index - 1]?.state.matches('submitting') ? [index] : []));
      if (entries.length > 1) {
        const since = view.steps.slice(entries.at(-2)! + 1);
        if (!since.some((step) => step.event.type === 'CONFIRM')) {
          // Sent again without a new confirmation: the same key, and no new one made.
          expect(requests.at(-1)!.idempotencyKey).toBe(requests.at(-2)!.idempotencyKey);
          expect(since.filter((step) => step.kind.kind === 'done' && step.kind.src === 'newIdempotencyKey')).toEqual([]);
        }
      }
      expect(requests.at(-1)).toEqual({
        amount: context.values.amount,
        address: context.values.address.trim(),
        currencyCode: 'LTC',
        paymentProviderId: context.providerId,
        idempotencyKey: latestKey(view),
      });
    },
    unavailable: (view, snapshot) => {
      const { settled } = snapshot.context;
      const news = screen.queryByRole('status');
      if (settled) expect(news?.textContent).toBe(view.t(settled.status === 'completed' ? 'wallet.withdraw.sent' : 'wallet.withdraw.failed', {
        amount: money(view, settled.amount),
        total: money(view, totalTaken(settled.amount, settled.fee)!),
      }));
      else expect(news).toBeNull();
      expect(screen.getByText(view.t('wallet.withdraw.unavailable', { currency: 'LTC' }))).toBeTruthy();
      expect(screen.queryByLabelText(view.t('wallet.withdraw.amount'))).toBeNull();
      expect(buttonNamed(view.t('wallet.withdraw.submit'))).toBeNull();
    },
    unanswered: (view, snapshot) => seeConfirmation(view, snapshot, 'unanswered'),
    pending: (view, snapshot) => {
      const pending = snapshot.context.pending!;
      expect(screen.getByRole('status').textContent).toBe(view.t('wallet.withdraw.pendingBody'));
      expect(summary(view.t('wallet.withdraw.pendingTitle'))).toEqual([
        [view.t('wallet.withdraw.amount'), money(view, pending.amount)],
        [view.t('wallet.withdraw.feeLabel'), money(view, pending.fee)],
        [view.t('wallet.withdraw.address'), pending.address],
        [view.t('wallet.withdraw.status'), view.t('wallet.withdraw.statusPending')],
      ]);
      expect(within(document.body).queryByLabelText(view.t('wallet.withdraw.amount'))).toBeNull();
    },
  }),
});
