import { lazy, Suspense, useState } from 'react';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { errorMessageKey } from '../../api/errors.ts';
import { formatAmount } from '../../format.ts';
import { tryParseAmount } from '../../money.ts';
import { selectedWallet, walletsMachine } from '../../machines/wallets.machine.ts';
import { Dialog } from '../components/Dialog.tsx';
import { SelectField } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { useFlow } from '../wiring.ts';
import { WALLET_TABS, type WalletTab } from './tabs.ts';

const DepositTab = lazy(() => import('./DepositTab.tsx'));
const WithdrawTab = lazy(() => import('./WithdrawTab.tsx'));
const TransactionsTab = lazy(() => import('./TransactionsTab.tsx'));


/*
 * The wallet (DESIGN.md): one dialog opened from the address (`?wallet=open&tab=deposit|withdraw|
 * transactions`), its tabs at the top, then the currency the tabs act on (the player's wallets; the
 * selected one first chosen), then the tab's own flow. Switching tabs changes the address, so the back
 * button and a shared link land on the same tab.
 */

const TabList = styled('div')`
  display: grid;
  grid-template-columns: repeat(3, 1fr);
  gap: ${theme.space(1)};
  padding: ${theme.space(1)};
  margin-bottom: ${theme.space(4)};
  background: ${theme.color.background};
  border-radius: ${theme.radius.medium};
  button {
    font: inherit;
    min-height: 2.75rem;
    padding: 0 ${theme.space(2)};
    border: 0;
    border-radius: ${theme.radius.small};
    background: transparent;
    color: ${theme.color.textMuted};
    cursor: pointer;
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
    font-size: ${theme.font.size.small};
    ${theme.breakpoint.tablet} {
      font-size: ${theme.font.size.body};
    }
    &[aria-selected='true'] {
      background: ${theme.color.accentStrong};
      color: ${theme.color.accentText};
      font-weight: 600;
    }
    &:focus-visible {
      outline: 2px solid ${theme.color.focus};
      outline-offset: 1px;
    }
  }
`;

/* The wallet's money: what can be bet or withdrawn, and beside it the bonus money still being wagered and any deposit held over a deposit limit. */
const Balances = styled('div')`
  margin-bottom: ${theme.space(4)};
  dl {
    display: flex;
    flex-wrap: wrap;
    gap: ${theme.space(2)};
    margin: 0;
  }
  dl div {
    flex: 1 1 8rem;
    min-width: 0;
    padding: ${theme.space(2)} ${theme.space(3)};
    border-radius: ${theme.radius.medium};
    background: ${theme.color.background};
  }
  dt {
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.small};
  }
  dd {
    margin: 0;
    font-weight: 700;
    font-variant-numeric: tabular-nums;
    overflow-wrap: anywhere;
  }
  p {
    margin: ${theme.space(2)} 0 0;
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.small};
  }
`;

const Loading = styled('p')`
  min-height: 12rem;
  margin: 0;
  color: ${theme.color.textMuted};
`;

export interface WalletDialogProps {
  tab: WalletTab;
  onTab: (tab: WalletTab) => void;
  onClose: () => void;
}

export default function WalletDialog({ tab, onTab, onClose }: WalletDialogProps) {
  const { t, language } = useT();
  const wallets = useFlow(walletsMachine);
  const list = useSelector(wallets, (s) => s.context.wallets);
  const status = useSelector(wallets, (s) => (s.matches('loading') ? 'loading' : s.matches('failed') ? 'failed' : 'ready'));
  const errorCode = useSelector(wallets, (s) => s.context.errorCode);
  const [picked, setPicked] = useState<string | null>(null);
  const currencyCode = picked ?? selectedWallet(list)?.currencyCode ?? null;
  const tabId = (name: WalletTab) => `wallet-tab-${name}`;

  const onTabKey = (event: React.KeyboardEvent<HTMLButtonElement>) => {
    const index = WALLET_TABS.indexOf(tab);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = WALLET_TABS[(index + step + WALLET_TABS.length) % WALLET_TABS.length]!;
    onTab(next);
    document.getElementById(tabId(next))?.focus();
  };

  let content;
  if (status === 'loading' || currencyCode === null) {
    content = (
      <Loading role="status" aria-busy={status === 'loading'}>
        {status === 'loading' ? t('states.loading') : t('wallet.empty')}
      </Loading>
    );
  } else if (status === 'failed') {
    content = (
      <div role="alert">
        <p>{t(errorMessageKey(errorCode, 'default'))}</p>
        <Button type="button" onClick={() => wallets.send({ type: 'RETRY' })}>
          {t('common.retry')}
        </Button>
      </div>
    );
  } else {
    const shown = list.find((wallet) => wallet.currencyCode === currencyCode);
    const hasBonus = (tryParseAmount(shown?.bonus ?? '0') ?? 0n) > 0n;
    const hasHeld = (tryParseAmount(shown?.held ?? '0') ?? 0n) > 0n;
    content = (
      <>
        {list.length > 1 ? (
          <SelectField label={t('wallet.currency')} value={currencyCode} onChange={(event) => setPicked(event.target.value)}>
            {list.map((wallet) => (
              <option key={wallet.id} value={wallet.currencyCode}>
                {wallet.currencyCode}
              </option>
            ))}
          </SelectField>
        ) : null}
        {shown ? (
          <Balances>
            <dl aria-label={t('wallet.balance')}>
              <div>
                <dt>{t('wallet.available')}</dt>
                <dd>{formatAmount(shown.available, shown.currencyCode, language)}</dd>
              </div>
              <div>
                <dt>{t('wallet.bonus')}</dt>
                <dd>{formatAmount(shown.bonus, shown.currencyCode, language)}</dd>
              </div>
              {hasHeld ? (
                <div>
                  <dt>{t('wallet.held')}</dt>
                  <dd>{formatAmount(shown.held, shown.currencyCode, language)}</dd>
                </div>
              ) : null}
            </dl>
            {hasBonus ? <p>{t('wallet.bonusHint')}</p> : null}
            {hasHeld ? <p>{t('wallet.heldHint')}</p> : null}
          </Balances>
        ) : null}
        <div role="tabpanel" id={`wallet-panel-${tab}`} aria-labelledby={tabId(tab)}>
          <Suspense fallback={<Loading role="status" aria-busy="true">{t('states.loading')}</Loading>}>
            {tab === 'deposit' ? (
              <DepositTab key={currencyCode} currencyCode={currencyCode} />
            ) : tab === 'withdraw' ? (
              <WithdrawTab key={currencyCode} currencyCode={currencyCode} />
            ) : (
              <TransactionsTab key={currencyCode} currencyCode={currencyCode} />
            )}
          </Suspense>
        </div>
      </>
    );
  }

  return (
    <Dialog title={t('wallet.title')} closeLabel={t('common.close')} onClose={onClose} size={tab === 'transactions' ? 'large' : 'wide'}>
      <TabList role="tablist" aria-label={t('wallet.title')}>
        {WALLET_TABS.map((name) => (
          <button
            key={name}
            id={tabId(name)}
            type="button"
            role="tab"
            aria-selected={tab === name}
            aria-controls={tab === name ? `wallet-panel-${name}` : undefined}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => onTab(name)}
            onKeyDown={onTabKey}
          >
            {t(`wallet.tabs.${name}`)}
          </button>
        ))}
      </TabList>
      {content}
    </Dialog>
  );
}
