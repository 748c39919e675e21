// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { COINPAYMENTS, CREDITED, CREDITED_HELD } from '../../../src/flows/fixtures/deposit.ts';
import type { DepositActivity } from '../../../src/machines/live.ts';
import type { PaymentActivity } from '../../../src/machines/deposit.machine.ts';
import DepositTab from '../../../src/views/wallet/DepositTab.tsx';
import { renderWithServices } from './harness.tsx';

/** The deposit list's credited line: what was held apart over a deposit limit is said, in the player's language. */

function renderWith(deposits: DepositActivity[], language: 'en' | 'es' | 'pt' = 'en') {
  const loadPaymentProviders = fromPromise(async () => [COINPAYMENTS]);
  const loadPaymentActivity = fromPromise<PaymentActivity, { currencyCode: string }>(async () => ({ deposits, withdrawals: [] }));
  return renderWithServices(<DepositTab currencyCode="LTC" />, { actors: { loadPaymentProviders, loadPaymentActivity }, language });
}

async function statusLines(name: string): Promise<string[]> {
  const section = await screen.findByRole('region', { name });
  await within(section).findAllByRole('listitem');
  return within(section)
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.status')?.textContent ?? '');
}

describe('DepositTab credited deposits', () => {
  it('says how much of a deposit was held over the deposit limit, and nothing more of one credited whole', async () => {
    renderWith([CREDITED_HELD, CREDITED]);
    // The amount is written as the wallet writes money (a no-break space before the currency).
    expect(await statusLines('Your deposits')).toEqual([expect.stringMatching(/^Credited: 4\.9\sLTC held over your deposit limit$/), 'Credited']);
  });

  it('says it in Spanish and Portuguese', async () => {
    const es = renderWith([CREDITED_HELD], 'es');
    expect(await statusLines('Tus depósitos')).toEqual([expect.stringMatching(/^Acreditado: 4,9\sLTC retenido por encima de tu límite de depósito$/)]);
    es.unmount();
    renderWith([CREDITED_HELD], 'pt');
    expect(await statusLines('Os seus depósitos')).toEqual([expect.stringMatching(/^Creditado: 4,9\sLTC retido acima do seu limite de depósito$/)]);
  });
});
