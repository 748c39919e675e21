// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { formatAmount } from '../../src/format.ts';
import { walletsFixtures } from '../../src/flows/fixtures/wallets.ts';
import { selectedWallet, type walletsMachine } from '../../src/machines/wallets.machine.ts';
import BalancePill from '../../src/views/wallet/BalancePill.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type WalletsView = View<typeof walletsMachine>;
type WalletsSnapshot = SnapshotFrom<typeof walletsMachine>;

/*
 * The top bar's balance pill: the selected wallet's available amount, live; its menu picks another
 * wallet. Beside it the Deposit button opens the wallet dialog on its Deposit tab, whatever the pill shows.
 */

function seeDeposit(view: WalletsView) {
  const link = screen.getByRole('link', { name: view.t('balance.deposit') });
  const query = new URLSearchParams(link.getAttribute('href')!.split('?')[1]);
  expect([query.get('wallet'), query.get('tab')]).toEqual(['open', 'deposit']);
}

/** The pill at rest or busy selecting, named by the selected wallet's available balance, its menu closed. */
function seeBalance(view: WalletsView, snapshot: WalletsSnapshot, busy: boolean) {
  const selected = selectedWallet(snapshot.context.wallets)!;
  const amount = formatAmount(selected.available, selected.currencyCode, view.language);
  const pill = screen.getByRole('button', { name: view.t('balance.button', { amount }) });
  expect(pill.textContent).toBe(amount);
  expect(pill.getAttribute('aria-busy')).toBe(String(busy));
  expect(pill.getAttribute('aria-expanded')).toBe('false');
  expect(screen.queryByRole('menu')).toBeNull();
  seeDeposit(view);
}

describeModel('wallets', {
  fixtures: walletsFixtures,
  render: (view) => renderWithServices(<BalancePill />, { actors: view.actors, live: view.live }),
  events: {
    SELECT: async (view, event) => {
      await view.user.click(screen.getByRole('button', { expanded: false, name: /./ }));
      const menu = screen.getByRole('menu', { name: view.t('balance.menu') });
      const items = [...menu.querySelectorAll<HTMLElement>('[role="menuitemradio"]')];
      const wallets = (view.steps.at(-2)!.state.context as WalletsSnapshot['context']).wallets;
      // Every wallet is offered with its balances; the selected one is checked.
      expect(items.map((item) => [item.querySelector('.code')?.textContent, item.getAttribute('aria-checked')])).toEqual(
        wallets.map((wallet) => [wallet.currencyCode, String(wallet.id === selectedWallet(wallets)?.id)]),
      );
      const index = wallets.findIndex((wallet) => wallet.id === event.walletId);
      await view.user.click(items[index]!);
    },
    RETRY: (view) => view.user.click(screen.getByRole('button', { name: view.t('balance.unavailable') })),
    'LIVE.WALLETS': (view, event) => view.live.send(event),
    'LIVE.RECONNECTED': (view, event) => view.live.send(event),
  },
  states: {
    loading: (view) => {
      const pill = screen.getByRole('button', { name: view.t('balance.loading') });
      expect(pill.getAttribute('aria-busy')).toBe('true');
      expect((pill as HTMLButtonElement).disabled).toBe(true);
      seeDeposit(view);
    },
    failed: (view) => {
      expect(screen.getByRole('button', { name: view.t('balance.unavailable') })).toBeTruthy();
      expect(screen.queryByRole('menu')).toBeNull();
      seeDeposit(view);
    },
    'ready.idle': (view, snapshot) => seeBalance(view, snapshot, false),
    // A fresh list is on its way after a reconnection: the balance shown stays meanwhile.
    'ready.refreshing': (view, snapshot) => seeBalance(view, snapshot, false),
    'ready.selecting': (view, snapshot) => seeBalance(view, snapshot, true),
  },
});
