import { lazy, Suspense, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useSelector } from '@xstate/react';
import { Link, useSearch } from 'wouter';
import { styled } from 'goober';
import { unreadNotificationsMachine } from '../machines/unreadNotifications.machine.ts';
import { useT } from './i18n-context.ts';
import { useFlow, useWiring } from './wiring.ts';
import { Icon } from './components/Icons.tsx';
import { IconButton, useHref, WALLET_HREF, type NavLink } from './Layout.tsx';
import { theme } from './theme.ts';

/*
 * The player's part of the top bar (Layout.tsx): the notification bell with its badge and the account
 * menu. A chunk of its own, loaded with the session: a visitor's first load does not carry it.
 */

const Badge = styled('span')`
  position: absolute;
  top: -${theme.space(1.5)};
  right: -${theme.space(1.5)};
  min-width: 1.25rem;
  height: 1.25rem;
  padding: 0 ${theme.space(1)};
  border-radius: 999px;
  background: ${theme.color.danger};
  color: ${theme.color.background};
  font-size: 0.75rem;
  font-weight: 700;
  line-height: 1.25rem;
  text-align: center;
`;

const MenuPanel = styled('div')`
  position: absolute;
  top: calc(100% + ${theme.space(2)});
  right: 0;
  min-width: 14rem;
  z-index: 30;
  background: ${theme.color.surfaceRaised};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.medium};
  box-shadow: 0 12px 40px rgba(0, 0, 0, 0.5);
  padding: ${theme.space(2)};
  white-space: normal;
  p {
    margin: 0;
    padding: ${theme.space(2)} ${theme.space(3)} ${theme.space(3)};
    border-bottom: 1px solid ${theme.color.border};
    margin-bottom: ${theme.space(2)};
    overflow-wrap: anywhere;
  }
  p small {
    display: block;
    color: ${theme.color.textMuted};
  }
  [role='menuitem'] {
    font: inherit;
    width: 100%;
    display: flex;
    align-items: center;
    gap: ${theme.space(3)};
    min-height: 2.75rem;
    padding: 0 ${theme.space(3)};
    border: 0;
    border-radius: ${theme.radius.small};
    background: transparent;
    color: ${theme.color.text};
    text-decoration: none;
    cursor: pointer;
  }
  [role='menuitem']:hover,
  [role='menuitem']:focus-visible {
    background: ${theme.color.surface};
    outline: 2px solid ${theme.color.focus};
    outline-offset: -2px;
  }
`;

/** The account menu's places, before Log out. */
const ACCOUNT_LINKS: NavLink[] = [
  ['/profile', 'nav.profile', 'user'],
  [WALLET_HREF, 'nav.wallet', 'wallet'],
  ['/bet-history', 'nav.betHistory', 'history'],
];

/** The most the badge spells out; more reads "99+". */
const BADGE_MAX = 99;

/**
 * The header's bell: the player's unread count as a badge and in the button's name. The count is read
 * again when the notifications dialog closes, since opening it marks what it shows as read.
 */
function NotificationsButton({ onOpen }: { onOpen: () => void }) {
  const { t, language } = useT();
  const actor = useFlow(unreadNotificationsMachine);
  const unread = useSelector(actor, (s) => s.context.unreadCount) ?? 0;
  const open = new URLSearchParams(useSearch()).get('dialog') === 'notifications';
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) actor.send({ type: 'REFRESH' });
    wasOpen.current = open;
  }, [open, actor]);
  // The grouping of src/format.ts's formatNumber without importing it: that module would bring the date
  // library into every visitor's first load (the interface languages are valid Intl locales as they are).
  const count = unread.toLocaleString(language);
  const label =
    unread === 0 ? t('nav.notifications') : t(unread === 1 ? 'notifications.buttonOne' : 'notifications.button', { count });
  return (
    <IconButton type="button" aria-label={label} aria-haspopup="dialog" onClick={onOpen}>
      <Icon name="bell" />
      {unread > 0 ? <Badge aria-hidden="true">{unread > BADGE_MAX ? `${BADGE_MAX}+` : count}</Badge> : null}
    </IconButton>
  );
}

/** The player's menu: who is signed in, their places (Profile, Wallet, Bet history) and Log out. */
function AccountMenu() {
  const { t } = useT();
  const { app } = useWiring();
  const hrefOf = useHref();
  const user = useSelector(app, (s) => s.context.user);
  const loggingOut = useSelector(app, (s) => s.matches({ player: 'loggingOut' }));
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const items = () => Array.from(panel.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const outside = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

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
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      (event.key === 'Home' ? all[0] : all[all.length - 1])?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <div style={{ position: 'relative' }}>
      <IconButton
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-busy={loggingOut}
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <Icon name="user" />
        <span className="label">{t('nav.account')}</span>
      </IconButton>
      {open ? (
        <MenuPanel ref={panel} id={menuId} role="menu" aria-label={t('nav.account')} onKeyDown={onKeyDown}>
          {user ? (
            <p role="none">
              {user.username}
              <small>{user.email}</small>
            </p>
          ) : null}
          {ACCOUNT_LINKS.map(([href, label, icon]) => (
            <Link key={href} href={hrefOf(href)} role="menuitem" tabIndex={-1} onClick={() => close(false)}>
              <Icon name={icon} />
              {t(label)}
            </Link>
          ))}
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            disabled={loggingOut}
            aria-busy={loggingOut}
            onClick={() => {
              app.send({ type: 'LOGOUT' });
              close(true);
            }}
          >
            <Icon name="close" />
            {t('nav.logout')}
          </button>
        </MenuPanel>
      ) : null}
    </div>
  );
}


/**
 * The reality check's timer (./RealityCheck.tsx): loaded with the session, like this chunk, so a visitor's
 * first load does not carry it. It comes in the screens' chunk with the responsible-gambling page, which
 * holds its machine (no chunk more for the first load to name). At the limit the app logs out and the
 * dialog host shows the session-limit dialog.
 */
const RealityCheck = lazy(() => import('./screens/Screens.tsx').then((module) => ({ default: module.RealityCheck })));

export default function PlayerActions({ accessToken, onOpenNotifications }: { accessToken: string; onOpenNotifications: () => void }) {
  return (
    <>
      <NotificationsButton key={accessToken} onOpen={onOpenNotifications} />
      <AccountMenu />
      {/* One check per session. */}
      <Suspense fallback={null}>
        <RealityCheck key={accessToken} />
      </Suspense>
    </>
  );
}
