// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { errorMessageKey, ruleMessageKey } from '../../src/api/errors.ts';
import { formatAmount } from '../../src/format.ts';
import { depositFixtures } from '../../src/flows/fixtures/deposit.ts';
import type { depositMachine } from '../../src/machines/deposit.machine.ts';
import DepositTab from '../../src/views/wallet/DepositTab.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { changesAValue, fillsInOrder } from './filters.ts';
import { describeModel, type View } from './run.tsx';
import { setField, spaced } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type DepositView = View<typeof depositMachine>;
type DepositSnapshot = SnapshotFrom<typeof depositMachine>;
type DepositContext = DepositSnapshot['context'];

/*
 * The wallet's Deposit tab: the form (amount, provider when there are two), the address with its QR
 * code, Copy and details, and beside it the player's deposits on their way, which the live updates move
 * from seen to credited (with a toast) or mark below the minimum.
 */

const money = (view: DepositView, amount: string) => formatAmount(amount, 'LTC', view.language);

function buttonNamed(name: string): HTMLButtonElement | null {
  return screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | null;
}

function seeForm(view: DepositView, snapshot: DepositSnapshot, busy: boolean) {
  const { context } = snapshot;
  const amount = screen.getByLabelText(view.t('wallet.deposit.amount')) as HTMLInputElement;
  expect(amount.value).toBe(context.values.amount);
  const messages = (context.fieldErrors.amount ?? []).map((code) => view.t(ruleMessageKey(code)!));
  for (const message of messages) expect(screen.getByText(message)).toBeTruthy();
  const provider = screen.queryByLabelText(view.t('wallet.paymentProvider')) as HTMLSelectElement | null;
  if (context.providers.length > 1) expect(provider?.value).toBe(String(context.providerId));
  else expect(provider).toBeNull();
  const submit = buttonNamed(busy ? view.t('common.submitting') : view.t('wallet.deposit.submit'));
  expect(submit, 'the submit button').not.toBeNull();
  expect(submit!.disabled).toBe(busy);
  const alert = screen.queryAllByRole('alert').find((element) => element.tagName === 'P');
  if (context.errorCode) expect(alert?.textContent).toBe(view.t(errorMessageKey(context.errorCode, 'default')));
  else expect(alert).toBeUndefined();
  expect(screen.queryByTestId('deposit-address')).toBeNull();
}

async function seeAddress(view: DepositView, snapshot: DepositSnapshot, busy: boolean) {
  const { address, copied } = snapshot.context;
  expect(screen.getByTestId('deposit-address').textContent).toBe(address!.address);
  // The QR code comes with a chunk of its own.
  await waitFor(() => expect(screen.getByRole('img', { name: view.t('wallet.deposit.qr') })).toBeTruthy());
  expect(buttonNamed(view.t('wallet.deposit.copy'))!.getAttribute('aria-busy')).toBe(String(busy));
  expect(screen.getByText(spaced(view.t('wallet.deposit.minimum', { amount: money(view, address!.minDeposit) })))).toBeTruthy();
  expect(screen.getByText(view.t('wallet.deposit.confirmations', { count: '6' }))).toBeTruthy();
  expect(screen.getByText(`${view.t('wallet.deposit.network')}: ${address!.network}`)).toBeTruthy();
  expect(screen.queryByText(view.t('wallet.deposit.copied')) !== null).toBe(copied === 'done');
  expect(screen.queryByText(view.t('wallet.deposit.copyFailed')) !== null).toBe(copied === 'failed');
  expect(screen.queryByLabelText(view.t('wallet.deposit.amount'))).toBeNull();
}

/** The deposits section: every deposit of the context in order, each with its status or progress. */
function seeDeposits(view: DepositView, context: DepositContext) {
  const section = screen.getByRole('region', { name: view.t('wallet.deposit.inFlight') });
  if (context.deposits.length === 0) {
    expect(within(section).getByText(view.t('wallet.deposit.noneInFlight'))).toBeTruthy();
    return;
  }
  const items = within(section).getAllByRole('listitem');
  expect(
    items.map((item) => [item.querySelector('strong')?.textContent, item.querySelector('.status')?.textContent, item.querySelector('progress')?.getAttribute('value') ?? null]),
  ).toEqual(
    context.deposits.map((deposit) => [
      money(view, deposit.amount),
      deposit.status === 'credited'
        ? deposit.heldAmount
          ? view.t('wallet.deposit.creditedHeld', { held: money(view, deposit.heldAmount) })
          : view.t('wallet.deposit.credited')
        : deposit.status === 'belowMinimum'
          ? view.t('wallet.deposit.belowMinimum')
          : view.t('wallet.deposit.progress', { count: String(deposit.confirmations), required: '6' }),
      deposit.status === 'pending' ? String(deposit.confirmations) : null,
    ]),
  );
}

const liveDeposits = depositFixtures.events['LIVE.DEPOSIT'];

describeModel('deposit', {
  fixtures: depositFixtures,
  filterEvents: (snapshot, event) => {
    const state = snapshot.value as { form: string; activity: string };
    const context = snapshot.context as DepositContext;
    if (!changesAValue(snapshot, event) || !fillsInOrder(depositFixtures.events['FIELD.CHANGE'])(snapshot, event)) return false;
    // Live updates arrive before the player starts on the form (the list shown), and the player picks a
    // provider before typing: the model stays finite, and every state and transition is still reached.
    const untouched = state.form === 'editing' && context.values.amount === '' && context.errorCode === null;
    // The stream coming back while the first load is under way starts it over.
    if (event.type === 'LIVE.RECONNECTED' && state.activity === 'loading') return untouched && context.deposits.length === 0 && context.providers.length === 1;
    if (event.type.startsWith('LIVE.') && (!untouched || state.activity === 'loading')) return false;
    if (event.type === 'PROVIDER') return untouched && context.providers.length > 1 && context.providerId !== 2;
    if (event.type === 'FIELD.CHANGE' && state.activity === 'loading') return false;
    if (event.type === 'LIVE.DEPOSIT') {
      const { deposit } = event as { deposit: DepositContext['deposits'][number] } & typeof event;
      const index = liveDeposits.findIndex((example) => example.deposit === deposit);
      // Each update once, in the order the chain makes them.
      if (context.deposits.some((known) => known.txId === deposit.txId && known.updatedAt === deposit.updatedAt && known.status === deposit.status)) return false;
      if (index === 1) return context.deposits.some((known) => known.status === 'pending' && known.confirmations === 3);
      return index !== 3 || context.deposits.length > 0;
    }
    if (event.type === 'LIVE.RECONNECTED') return context.deposits.length === 1;
    return true;
  },
  render: (view) =>
    renderWithServices(<DepositTab currencyCode="LTC" />, {
      actors: view.actors,
      live: view.live,
      copyText: (text) => view.call('copyText', { text }),
    }),
  events: {
    'FIELD.CHANGE': (view, event) => setField(view.user, view.t('wallet.deposit.amount'), event.value),
    PROVIDER: (view, event) => view.user.selectOptions(screen.getByLabelText(view.t('wallet.paymentProvider')), String(event.providerId)),
    SUBMIT: (view) => view.user.click(buttonNamed(view.t('wallet.deposit.submit'))!),
    RETRY: (view) => view.user.click(buttonNamed(view.t('common.retry'))!),
    COPY: (view) => view.user.click(buttonNamed(view.t('wallet.deposit.copy'))!),
    CHANGE_AMOUNT: (view) => view.user.click(buttonNamed(view.t('wallet.deposit.changeAmount'))!),
    RELOAD_DEPOSITS: (view) => view.user.click(within(screen.getByRole('region', { name: view.t('wallet.deposit.inFlight') })).getByRole('button', { name: view.t('common.retry') })),
    'LIVE.DEPOSIT': (view, event) => view.live.send(event),
    'LIVE.RECONNECTED': (view, event) => view.live.send(event),
  },
  states: {
    'form.loading': (view) => {
      expect(screen.getAllByRole('status').some((status) => status.textContent === view.t('states.loading'))).toBe(true);
      expect(screen.queryByLabelText(view.t('wallet.deposit.amount'))).toBeNull();
    },
    'form.failed': (view, snapshot) => {
      expect(screen.getAllByRole('alert').some((alert) => alert.textContent === view.t(errorMessageKey(snapshot.context.errorCode, 'default')))).toBe(true);
      expect(screen.queryByLabelText(view.t('wallet.deposit.amount'))).toBeNull();
    },
    'form.editing': (view, snapshot) => {
      seeForm(view, snapshot, false);
      // A credited deposit says so in a toast, once.
      const credited = view.steps.filter((step) => step.event.type === 'LIVE.DEPOSIT' && (step.event as unknown as { deposit: { status: string } }).deposit.status === 'credited').length;
      expect(view.harness.notices.filter((notice) => 'message' in notice && notice.message === 'messages.depositCredited')).toHaveLength(credited);
    },
    'form.requesting': (view, snapshot) => seeForm(view, snapshot, true),
    'form.address': (view, snapshot) => seeAddress(view, snapshot, false),
    'form.copying': (view, snapshot) => seeAddress(view, snapshot, true),
    'activity.loading': (view) => {
      const section = screen.getByRole('region', { name: view.t('wallet.deposit.inFlight') });
      expect(within(section).getByRole('status').getAttribute('aria-busy')).toBe('true');
    },
    'activity.shown': (view, snapshot) => seeDeposits(view, snapshot.context),
    'activity.unavailable': (view, snapshot) => {
      const section = screen.getByRole('region', { name: view.t('wallet.deposit.inFlight') });
      const why = `${view.t('wallet.deposit.unavailable')} ${view.t(errorMessageKey(snapshot.context.activityErrorCode, 'default'))}`;
      expect(within(within(section).getByRole('alert')).getByText(why)).toBeTruthy();
      expect(within(section).getByRole('button', { name: view.t('common.retry') })).toBeTruthy();
    },
  },
});
