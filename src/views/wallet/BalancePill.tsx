import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useSelector } from '@xstate/react';
import { useSearch } from 'wouter';
import { styled } from 'goober';
import { formatAmount } from '../../format.ts';
import { tryParseAmount } from '../../money.ts';
import { selectedWallet, walletsMachine } from '../../machines/wallets.machine.ts';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { useFlow, useWiring } from '../wiring.ts';
import { depositOver } from '../address.ts';

/*
 * The top bar's balance pill (DESIGN.md): the selected wallet's available amount and currency, kept
 * current by the session's live updates; it opens the list of the player's wallets (available and
 * pending per currency) to pick another. Beside it, from a tablet up, the Deposit button opens the
 * wallet dialog on its Deposit tab.
 */

const Place = styled('div')`
  position: relative;
  display: flex;
  align-items: center;
  gap: ${theme.space(2)};
`;

const Pill = styled('button')`
  font: inherit;
  font-variant-numeric: tabular-nums;
  display: inline-flex;
  align-items: center;
  gap: ${theme.space(2)};
  min-height: 2.75rem;
  max-width: 11rem;
  padding: 0 ${theme.space(3)};
  border-radius: 999px;
  border: 1px solid ${theme.color.border};
  background: ${theme.color.background};
  color: ${theme.color.text};
  cursor: pointer;
  white-space: nowrap;
  &:hover {
    background: ${theme.color.surfaceRaised};
  }
  &:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
  }
  &[aria-busy='true'] {
    color: ${theme.color.textMuted};
  }
  .amount {
    overflow: hidden;
    text-overflow: ellipsis;
  }
  ${theme.breakpoint.desktop} {
    max-width: 16rem;
  }
`;

const Skeleton = styled('span')`
  display: inline-block;
  width: 5.5rem;
  height: 1rem;
  border-radius: ${theme.radius.small};
  background: ${theme.color.surfaceRaised};
`;

const DepositLink = styled('a')`
  display: none;
  align-items: center;
  min-height: 2.75rem;
  padding: 0 ${theme.space(4)};
  border-radius: ${theme.radius.medium};
  background: ${theme.color.accentStrong};
  color: ${theme.color.accentText};
  font-weight: 600;
  text-decoration: none;
  white-space: nowrap;
  &:hover {
    background: ${theme.color.accent};
  }
  &:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
  }
  ${theme.breakpoint.tablet} {
    display: inline-flex;
  }
`;

const Menu = styled('div')`
  position: absolute;
  top: calc(100% + ${theme.space(2)});
  right: 0;
  min-width: 15rem;
  max-width: calc(100vw - 2rem);
  padding: ${theme.space(2)};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.medium};
  box-shadow: 0 12px 40px rgba(0, 0, 0, 0.5);
  z-index: 30;
  button {
    font: inherit;
    font-variant-numeric: tabular-nums;
    width: 100%;
    display: grid;
    grid-template-columns: 1fr auto;
    gap: ${theme.space(1)} ${theme.space(3)};
    text-align: left;
    min-height: 2.75rem;
    padding: ${theme.space(2)} ${theme.space(3)};
    border: 0;
    border-radius: ${theme.radius.small};
    background: transparent;
    color: ${theme.color.text};
    cursor: pointer;
    &:hover,
    &:focus-visible {
      background: ${theme.color.surfaceRaised};
      outline: none;
    }
    &[aria-checked='true'] {
      box-shadow: inset 3px 0 0 ${theme.color.accent};
    }
    .code {
      font-weight: 600;
    }
    .available {
      text-align: right;
    }
    .pending {
      grid-column: 1 / -1;
      color: ${theme.color.textMuted};
      font-size: ${theme.font.size.small};
    }
  }
`;

export default function BalancePill() {
  const { t, language } = useT();
  const { navigate } = useWiring();
  const actor = useFlow(walletsMachine);
  const wallets = useSelector(actor, (s) => s.context.wallets);
  const status = useSelector(actor, (s) => (s.matches('loading') ? 'loading' : s.matches('failed') ? 'failed' : 'ready'));
  const busy = useSelector(actor, (s) => s.matches({ ready: 'selecting' }));
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const search = useSearch();
  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? []);

  useEffect(() => {
    if (!open) return;
    (items().find((item) => item.getAttribute('aria-checked') === 'true') ?? items()[0])?.focus();
    const outside = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  const depositHref = depositOver({ path: window.location.pathname, search });
  const deposit = (
    <DepositLink
      href={depositHref}
      onClick={(event) => {
        event.preventDefault();
        navigate(depositHref);
      }}
    >
      {t('balance.deposit')}
    </DepositLink>
  );

  if (status === 'loading') {
    return (
      <Place>
        <Pill type="button" aria-busy="true" aria-label={t('balance.loading')} disabled>
          <Skeleton />
        </Pill>
        {deposit}
      </Place>
    );
  }
  if (status === 'failed') {
    return (
      <Place>
        <Pill type="button" onClick={() => actor.send({ type: 'RETRY' })}>
          {t('balance.unavailable')}
        </Pill>
        {deposit}
      </Place>
    );
  }

  const selected = selectedWallet(wallets);
  const shown = selected ? formatAmount(selected.available, selected.currencyCode, language) : '';
  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = items();
    const index = all.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      all[(index + step + all.length) % all.length]?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <Place>
      <Pill
        ref={button}
        type="button"
        aria-label={t('balance.button', { amount: shown })}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-busy={busy}
        onClick={() => setOpen(!open)}
      >
        <span className="amount">{shown}</span>
      </Pill>
      {deposit}
      {open ? (
        <Menu ref={menu} id={menuId} role="menu" aria-label={t('balance.menu')} onKeyDown={onKeyDown}>
          {wallets.map((wallet) => (
            <button
              key={wallet.id}
              type="button"
              role="menuitemradio"
              aria-checked={wallet.id === selected?.id}
              onClick={() => {
                actor.send({ type: 'SELECT', walletId: wallet.id });
                close(true);
              }}
            >
              <span className="code">{wallet.currencyCode}</span>
              <span className="available">{formatAmount(wallet.available, '', language)}</span>
              {(tryParseAmount(wallet.pending) ?? 0n) > 0n ? (
                <span className="pending">{t('balance.pending', { amount: formatAmount(wallet.pending, wallet.currencyCode, language) })}</span>
              ) : null}
            </button>
          ))}
        </Menu>
      ) : null}
    </Place>
  );
}
