// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { Wallet } from '../../../src/machines/wallets.machine.ts';
import WalletDialog from '../../../src/views/wallet/WalletDialog.tsx';
import { renderWithServices } from './harness.tsx';

/** The wallet dialog's balances: available and bonus always, and a deposit held over a deposit limit when there is one. */

const ltc = (held: string): Wallet => ({ id: 1, currencyId: 1, currencyCode: 'LTC', available: '1.1', pending: '0', bonus: '0', held, selected: true });

function renderWith(wallet: Wallet, language: 'en' | 'es' | 'pt' = 'en') {
  const loadWallets = fromPromise<Wallet[]>(async () => [wallet]);
  return renderWithServices(<WalletDialog tab="transactions" onTab={vi.fn()} onClose={vi.fn()} />, { actors: { loadWallets }, language });
}

describe('WalletDialog balances', () => {
  it('shows the held balance and what it means beside available and bonus', async () => {
    renderWith(ltc('4.9'));
    const balances = await screen.findByLabelText('Balance');
    expect(within(balances).getByText('Held')).toBeTruthy();
    expect(within(balances).getByText(/4\.9/)).toBeTruthy();
    expect(screen.getByText(/Deposited over your deposit limit/)).toBeTruthy();
  });

  it('shows no held line when nothing is held', async () => {
    renderWith(ltc('0'));
    await screen.findByLabelText('Balance');
    expect(screen.queryByText('Held')).toBeNull();
    expect(screen.queryByText(/Deposited over your deposit limit/)).toBeNull();
  });

  it('names it in Spanish and Portuguese', async () => {
    const es = renderWith(ltc('4.9'), 'es');
    expect(await screen.findByText('Retenido')).toBeTruthy();
    es.unmount();
    renderWith(ltc('4.9'), 'pt');
    expect(await screen.findByText('Retido')).toBeTruthy();
  });
});
