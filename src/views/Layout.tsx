import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { Link, useLocation, useSearch } from 'wouter';
import { styled } from 'goober';
import { LANGUAGES, isLanguage, type MessageKey } from '../i18n/index.ts';
import { useT } from './i18n-context.ts';
import { useServices } from './services.ts';
import { useFlow } from './wiring.ts';
import { unreadNotificationsMachine } from '../machines/unreadNotifications.machine.ts';
import { Button } from './components/Form.tsx';
import { theme } from './theme.ts';

const Header = styled('header')`
  position: sticky;
  top: 0;
  z-index: 10;
  background: ${theme.color.surface};
  border-bottom: 1px solid ${theme.color.border};
  display: flex;
  align-items: center;
  gap: ${theme.space(3)};
  padding: ${theme.space(2)} ${theme.space(4)};
  flex-wrap: wrap;
`;

const Brand = styled(Link)`
  color: ${theme.color.text};
  font-weight: 800;
  font-size: ${theme.font.size.large};
  text-decoration: none;
  margin-right: auto;
`;

const Nav = styled('nav')<{ open: boolean }>`
  order: 3;
  width: 100%;
  display: ${(p) => (p.open ? 'block' : 'none')};
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-direction: column;
    gap: ${theme.space(1)};
  }
  a {
    display: block;
    color: ${theme.color.textMuted};
    text-decoration: none;
    padding: ${theme.space(2)} ${theme.space(3)};
    border-radius: ${theme.radius.medium};
  }
  a[aria-current='page'] {
    color: ${theme.color.text};
    background: ${theme.color.surfaceRaised};
  }
  a:focus-visible {
    outline: 2px solid ${theme.color.focus};
  }
  ${theme.breakpoint.desktop} {
    display: block;
    order: 0;
    width: auto;
    ul {
      flex-direction: row;
      flex-wrap: wrap;
    }
  }
`;

const MenuButton = styled('button')`
  font: inherit;
  background: transparent;
  color: ${theme.color.text};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.medium};
  padding: ${theme.space(2)} ${theme.space(3)};
  min-height: 2.75rem;
  ${theme.breakpoint.desktop} {
    display: none;
  }
`;

const Actions = styled('div')`
  display: flex;
  align-items: center;
  gap: ${theme.space(2)};
  select {
    font: inherit;
    color: ${theme.color.text};
    background: ${theme.color.background};
    border: 1px solid ${theme.color.border};
    border-radius: ${theme.radius.small};
    min-height: 2.75rem;
  }
`;

const BellButton = styled('button')`
  position: relative;
  font: inherit;
  background: transparent;
  color: ${theme.color.text};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.medium};
  min-width: 2.75rem;
  min-height: 2.75rem;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  cursor: pointer;
  &:hover {
    background: ${theme.color.surfaceRaised};
  }
  &:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
  }
`;

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

const Main = styled('main')`
  min-height: 70vh;
`;

const Footer = styled('footer')`
  border-top: 1px solid ${theme.color.border};
  padding: ${theme.space(6)} ${theme.space(4)};
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space(4)};
  a {
    color: ${theme.color.textMuted};
  }
`;

const SkipLink = styled('a')`
  position: absolute;
  left: -9999px;
  &:focus {
    left: ${theme.space(2)};
    top: ${theme.space(2)};
    z-index: 100;
    background: ${theme.color.accentStrong};
    color: ${theme.color.text};
    padding: ${theme.space(2)};
  }
`;

const MAIN_LINKS: [string, MessageKey][] = [
  ['/', 'nav.lobby'],
  ['/casino', 'nav.casino'],
  ['/live-casino', 'nav.liveCasino'],
  ['/sports', 'nav.sports'],
  ['/games', 'nav.allGames'],
  ['/favourites', 'nav.favourites'],
  ['/bonus', 'nav.bonus'],
  ['/wallet/deposit', 'nav.wallet'],
  ['/bet-history', 'nav.betHistory'],
  ['/profile', 'nav.profile'],
  ['/responsible-gambling', 'nav.responsibleGambling'],
  ['/refer-a-friend', 'nav.referAFriend'],
];

const FOOTER_LINKS: [string, MessageKey][] = [
  ['/faq', 'nav.faq'],
  ['/terms', 'nav.terms'],
  ['/privacy', 'nav.privacy'],
  ['/about', 'nav.about'],
  ['/support', 'nav.support'],
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
    <BellButton type="button" aria-label={label} aria-haspopup="dialog" onClick={onOpen}>
      <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true" focusable="false">
        <path d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" strokeLinecap="round" strokeLinejoin="round" />
        <path d="M13.73 21a2 2 0 0 1-3.46 0" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {unread > 0 ? (
        <Badge aria-hidden="true">
          {unread > BADGE_MAX ? `${BADGE_MAX}+` : count}
        </Badge>
      ) : null}
    </BellButton>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const { t } = useT();
  const { app, navigate } = useServices();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const player = useSelector(app, (s) => s.matches('player'));
  // While a saved session is being restored the header offers nothing, rather than a "Log in" that may
  // not apply; while logging out, "Log out" is busy.
  const booting = useSelector(app, (s) => s.matches('booting'));
  const loggingOut = useSelector(app, (s) => s.matches({ player: 'loggingOut' }));
  // A new session starts the bell afresh: nothing of the last player's count survives.
  const accessToken = useSelector(app, (s) => s.context.accessToken);
  const language = useSelector(app, (s) => s.context.language);
  const openDialog = (name: string) => navigate(`${location}?dialog=${name}`);
  const current = (href: string) => (href === '/' ? location === '/' : location.startsWith(href.split('/').slice(0, 2).join('/')));
  return (
    <>
      <SkipLink href="#main">{t('app.skipToContent')}</SkipLink>
      <Header>
        <Brand href="/">{t('app.name')}</Brand>
        <MenuButton type="button" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
          {t('nav.menu')}
        </MenuButton>
        <Nav id="main-nav" open={menuOpen} aria-label={t('nav.menu')}>
          <ul>
            {MAIN_LINKS.map(([href, label]) => (
              <li key={href}>
                <Link href={href} aria-current={current(href) ? 'page' : undefined} onClick={() => setMenuOpen(false)}>
                  {t(label)}
                </Link>
              </li>
            ))}
          </ul>
        </Nav>
        <Actions>
          <label>
            <span className="visually-hidden">{t('nav.language')}</span>
            <select
              value={language}
              aria-label={t('nav.language')}
              onChange={(event) => {
                const value = event.target.value;
                if (isLanguage(value)) app.send({ type: 'LANGUAGE.CHANGE', language: value });
              }}
            >
              {LANGUAGES.map((code) => (
                <option key={code} value={code}>
                  {t(`languages.${code}`)}
                </option>
              ))}
            </select>
          </label>
          {player ? (
            <>
              <NotificationsButton key={accessToken ?? ''} onOpen={() => openDialog('notifications')} />
              <Button
                type="button"
                variant="secondary"
                disabled={loggingOut}
                aria-busy={loggingOut}
                onClick={() => app.send({ type: 'LOGOUT' })}
              >
                {t('nav.logout')}
              </Button>
            </>
          ) : booting ? null : (
            <>
              <Button type="button" variant="secondary" onClick={() => openDialog('login')}>
                {t('nav.login')}
              </Button>
              <Button type="button" onClick={() => openDialog('register')}>
                {t('nav.register')}
              </Button>
            </>
          )}
        </Actions>
      </Header>
      <Main id="main" tabIndex={-1}>
        {children}
      </Main>
      <Footer>
        {FOOTER_LINKS.map(([href, label]) => (
          <Link key={href} href={href}>
            {t(label)}
          </Link>
        ))}
      </Footer>
    </>
  );
}
