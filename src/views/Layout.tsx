import { lazy, Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { Link, useLocation } from 'wouter';
import { styled } from 'goober';
import { LANGUAGES, isLanguage, type MessageKey } from '../i18n/index.ts';
import { useT } from './i18n-context.ts';
import { useWiring } from './wiring.ts';
import { Button } from './components/Button.tsx';
import { Icon, type IconName } from './components/Icons.tsx';
import { SHELL_ID, theme } from './theme.ts';

/*
 * The shell (DESIGN.md): on a desktop (≥ 1024 px) a sidebar with the navigation, collapsible to icons, and a
 * one-row top bar; on a phone a one-row top bar and a tab bar at the bottom, with the navigation in a
 * menu sheet. The top bar, the pages and the footer share one content width and one left edge.
 */

const { layout } = theme;
const SIDEBAR_STORAGE_KEY = 'casino.sidebar';

const Shell = styled('div')`
  min-height: 100vh;
  ${theme.breakpoint.desktop} {
    display: grid;
    grid-template-columns: ${layout.sidebar} minmax(0, 1fr);
    &[data-collapsed='true'] {
      grid-template-columns: ${layout.sidebarCollapsed} minmax(0, 1fr);
    }
  }
`;

// The tab bar covers the bottom of a phone's screen: the page ends above it.
const Column = styled('div')`
  min-width: 0;
  display: flex;
  flex-direction: column;
  min-height: 100vh;
  padding-bottom: calc(${layout.tabBar} + env(safe-area-inset-bottom, 0px));
  ${theme.breakpoint.desktop} {
    padding-bottom: 0;
  }
`;

/** One width and one edge for the top bar, the pages and the footer. */
export const Content = styled('div')`
  width: 100%;
  max-width: ${layout.contentWidth};
  margin: 0 auto;
  padding: 0 ${layout.gutter};
  ${theme.breakpoint.desktop} {
    padding: 0 ${layout.gutterDesktop};
  }
`;

const TopBar = styled('header')`
  position: sticky;
  top: 0;
  z-index: 20;
  height: ${layout.topBar};
  background: ${theme.color.surface};
  border-bottom: 1px solid ${theme.color.border};
  ${theme.breakpoint.desktop} {
    height: ${layout.topBarDesktop};
  }
`;

const TopBarRow = styled(Content)`
  height: 100%;
  display: flex;
  align-items: center;
  gap: ${theme.space(2)};
  white-space: nowrap;
  ${theme.breakpoint.desktop} {
    gap: ${theme.space(3)};
  }
`;

// On a phone the mark alone: the name stays for screen readers, the row keeps room for the buttons.
const Brand = styled(Link)`
  display: inline-flex;
  align-items: center;
  gap: ${theme.space(2)};
  min-height: 2.75rem;
  color: ${theme.color.text};
  font-weight: 800;
  font-size: 1.125rem;
  text-decoration: none;
  flex-shrink: 0;
  span {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
  }
  ${theme.breakpoint.tablet} {
    span {
      position: static;
      width: auto;
      height: auto;
      overflow: visible;
      clip: auto;
    }
  }
  &:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
    border-radius: ${theme.radius.small};
  }
`;

// 14rem when there is room; narrower (down to its word) when a player's balance and a longer language need it.
const SearchLink = styled(Link)`
  display: none;
  ${theme.breakpoint.desktop} {
    display: inline-flex;
    align-items: center;
    gap: ${theme.space(2)};
    min-height: 2.75rem;
    flex: 0 1 14rem;
    min-width: 8rem;
    overflow: hidden;
    padding: 0 ${theme.space(3)};
    border: 1px solid ${theme.color.border};
    border-radius: 999px;
    color: ${theme.color.textMuted};
    background: ${theme.color.background};
    text-decoration: none;
    &:hover {
      color: ${theme.color.text};
    }
    &:focus-visible {
      outline: 2px solid ${theme.color.focus};
      outline-offset: 2px;
    }
  }
`;

const Spacer = styled('div')`
  flex: 1;
`;

/** The wallet's place in the top bar: its width is kept, so the pill and the Deposit button land without a shift. */
const WalletPlace = styled('div')`
  display: flex;
  align-items: center;
  gap: ${theme.space(2)};
  &:empty {
    display: none;
  }
`;

// Room for the visitor's buttons or the player's bell and menu, kept while the session is restored.
const Actions = styled('div')`
  display: flex;
  align-items: center;
  justify-content: flex-end;
  gap: ${theme.space(2)};
  min-width: 6rem;
  button {
    white-space: nowrap;
  }
  ${theme.breakpoint.desktop} {
    min-width: 12rem;
  }
`;

const Compact = styled('div')`
  display: contents;
  button {
    padding: ${theme.space(2)} ${theme.space(3)};
  }
  ${theme.breakpoint.desktop} {
    button {
      padding: ${theme.space(2.5)} ${theme.space(4)};
    }
  }
`;

const LanguagePicker = styled('select')`
  font: inherit;
  color: ${theme.color.text};
  background: ${theme.color.background};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.medium};
  min-height: 2.75rem;
  padding: 0 ${theme.space(2)};
  &:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
  }
`;

const DesktopOnly = styled('div')`
  display: none;
  ${theme.breakpoint.desktop} {
    display: contents;
  }
`;

// The account button's word shows from a tablet up; on a phone the icon, named for screen readers.
export const IconButton = styled('button')`
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
  gap: ${theme.space(2)};
  padding: 0 ${theme.space(2)};
  cursor: pointer;
  &:hover {
    background: ${theme.color.surfaceRaised};
  }
  &:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
  }
  .label {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
  }
  ${theme.breakpoint.desktop} {
    .label {
      position: static;
      width: auto;
      height: auto;
      overflow: visible;
      clip: auto;
    }
  }
`;

const Sidebar = styled('aside')`
  display: none;
  ${theme.breakpoint.desktop} {
    display: flex;
    flex-direction: column;
    position: sticky;
    top: 0;
    height: 100vh;
    overflow-y: auto;
    background: ${theme.color.surface};
    border-right: 1px solid ${theme.color.border};
  }
`;

const SidebarHead = styled('div')`
  height: ${layout.topBarDesktop};
  display: flex;
  align-items: center;
  justify-content: flex-end;
  padding: 0 ${theme.space(3)};
  border-bottom: 1px solid ${theme.color.border};
  flex-shrink: 0;
`;

// A long name ('Recomienda a un amigo') takes a second line rather than run out of the sidebar.
// Collapsed to icons: the names stay for screen readers (and as tooltips).
const NavList = styled('ul')`
  list-style: none;
  margin: 0;
  padding: ${theme.space(2)};
  & + & {
    border-top: 1px solid ${theme.color.border};
  }
  a {
    display: flex;
    align-items: center;
    gap: ${theme.space(3)};
    min-height: 2.75rem;
    padding: ${theme.space(1)} ${theme.space(3)};
    border-radius: ${theme.radius.medium};
    color: ${theme.color.textMuted};
    text-decoration: none;
    line-height: 1.25;
  }
  a:hover {
    color: ${theme.color.text};
    background: ${theme.color.surfaceRaised};
  }
  a[aria-current='page'] {
    color: ${theme.color.text};
    background: ${theme.color.surfaceRaised};
    box-shadow: inset 3px 0 0 ${theme.color.accent};
  }
  a:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: -2px;
  }
  &[data-collapsed='true'] a {
    justify-content: center;
    padding: 0;
  }
  &[data-collapsed='true'] .label {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
  }
`;

// A page that is still loading keeps the footer below the fold: nothing jumps when it arrives.
const Main = styled('main')`
  flex: 1;
  min-height: calc(100vh - ${layout.topBar});
  ${theme.breakpoint.desktop} {
    min-height: calc(100vh - ${layout.topBarDesktop});
  }
  &:focus {
    outline: none;
  }
`;

const Footer = styled('footer')`
  border-top: 1px solid ${theme.color.border};
  padding: ${theme.space(6)} 0;
  nav {
    display: flex;
    flex-wrap: wrap;
    gap: ${theme.space(1)} ${theme.space(4)};
  }
  a {
    display: inline-flex;
    align-items: center;
    min-height: 2.75rem;
    color: ${theme.color.textMuted};
  }
  p {
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.small};
    margin: ${theme.space(2)} 0 0;
  }
`;

const TabBar = styled('nav')`
  position: fixed;
  left: 0;
  right: 0;
  bottom: 0;
  z-index: 20;
  height: calc(${layout.tabBar} + env(safe-area-inset-bottom, 0px));
  padding-bottom: env(safe-area-inset-bottom, 0px);
  background: ${theme.color.surface};
  border-top: 1px solid ${theme.color.border};
  display: grid;
  grid-template-columns: repeat(5, 1fr);
  a,
  button {
    font: inherit;
    font-size: 0.75rem;
    background: transparent;
    border: 0;
    color: ${theme.color.textMuted};
    text-decoration: none;
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: ${theme.space(0.5)};
    min-height: 2.75rem;
    cursor: pointer;
  }
  a[aria-current='page'],
  button[aria-expanded='true'] {
    color: ${theme.color.text};
  }
  a:focus-visible,
  button:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: -4px;
  }
  ${theme.breakpoint.desktop} {
    display: none;
  }
`;

const SheetBackdrop = styled('div')`
  position: fixed;
  inset: 0;
  z-index: 40;
  background: rgba(8, 4, 20, 0.75);
  ${theme.breakpoint.desktop} {
    display: none;
  }
`;

const Sheet = styled('div')`
  position: absolute;
  top: 0;
  left: 0;
  bottom: 0;
  width: min(20rem, 85vw);
  overflow-y: auto;
  background: ${theme.color.surface};
  border-right: 1px solid ${theme.color.border};
  display: flex;
  flex-direction: column;
  label {
    display: flex;
    flex-direction: column;
    gap: ${theme.space(1)};
    padding: ${theme.space(3)} ${theme.space(4)};
    color: ${theme.color.textMuted};
  }
`;

const SheetHead = styled('div')`
  height: ${layout.topBar};
  display: flex;
  align-items: center;
  justify-content: space-between;
  padding: 0 ${theme.space(2)} 0 ${theme.space(4)};
  border-bottom: 1px solid ${theme.color.border};
  font-weight: 700;
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

export type NavLink = [href: string, label: MessageKey, icon: IconName];

/** The sidebar's groups: the games, the player's areas, the content pages (DESIGN.md). */
const NAV_GROUPS: NavLink[][] = [
  [
    ['/', 'nav.lobby', 'lobby'],
    ['/casino', 'nav.casino', 'casino'],
    ['/live-casino', 'nav.liveCasino', 'live'],
    ['/sports', 'nav.sports', 'sports'],
    ['/games', 'nav.allGames', 'games'],
    ['/favourites', 'nav.favourites', 'heart'],
  ],
  [
    ['/bonus', 'nav.bonus', 'gift'],
    ['/refer-a-friend', 'nav.referAFriend', 'users'],
    ['/bet-history', 'nav.betHistory', 'history'],
    ['/responsible-gambling', 'nav.responsibleGambling', 'shield'],
  ],
  [
    ['/faq', 'nav.faq', 'page'],
    ['/fairness', 'nav.fairness', 'page'],
    ['/terms', 'nav.terms', 'page'],
    ['/privacy', 'nav.privacy', 'page'],
    ['/about', 'nav.about', 'page'],
    ['/support', 'nav.support', 'page'],
  ],
];

/** The wallet's place among the links: a dialog (DESIGN.md), opened over the page the player is on. */
export const WALLET_HREF = '/wallet/deposit';

/** The phone's tab bar, after its Menu button. */
const TABS: NavLink[] = [
  ['/casino', 'nav.casino', 'casino'],
  ['/search', 'nav.search', 'search'],
  ['/bet-history', 'nav.bets', 'history'],
  [WALLET_HREF, 'nav.wallet', 'wallet'],
];


/** Where a link goes from the page shown: the wallet opens over it, every other link is a page. */
export function useHref() {
  const [location] = useLocation();
  return (href: string) => (href === WALLET_HREF ? `${location}?wallet=open&tab=deposit` : href);
}

/** Whether a link leads to the page shown, or to the section it is in (the wallet's tabs, say). */
function useCurrent() {
  const [location] = useLocation();
  return (href: string) => (href === '/' ? location === '/' : location.startsWith(href.split('/').slice(0, 2).join('/')));
}

function storedCollapse(): boolean {
  try {
    return window.localStorage.getItem(SIDEBAR_STORAGE_KEY) === 'collapsed';
  } catch {
    return false;
  }
}

function NavLinks({ links, collapsed = false, onNavigate }: { links: NavLink[]; collapsed?: boolean; onNavigate?: () => void }) {
  const { t } = useT();
  const current = useCurrent();
  return (
    <NavList data-collapsed={collapsed}>
      {links.map(([href, label, icon]) => (
        <li key={href}>
          <Link href={href} aria-current={current(href) ? 'page' : undefined} title={collapsed ? t(label) : undefined} onClick={onNavigate}>
            <Icon name={icon} />
            <span className="label">{t(label)}</span>
          </Link>
        </li>
      ))}
    </NavList>
  );
}

function Language({ id }: { id?: string }) {
  const { t } = useT();
  const { app } = useWiring();
  const language = useSelector(app, (s) => s.context.language);
  return (
    <LanguagePicker
      id={id}
      value={language}
      aria-label={id ? undefined : t('nav.language')}
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
    </LanguagePicker>
  );
}

/**
 * The player's balance pill and Deposit button (src/views/wallet/BalancePill.tsx), loaded with the
 * player's session: a visitor's first load does not carry them.
 */
const BalancePill = lazy(() => import('./wallet/BalancePill.tsx'));

/** The player's bell and account menu (./PlayerActions.tsx), loaded with the session like the balance. */
const PlayerActions = lazy(() => import('./PlayerActions.tsx'));

function WalletSlots() {
  return (
    <WalletPlace>
      <Suspense fallback={null}>
        <BalancePill />
      </Suspense>
    </WalletPlace>
  );
}

/** The phone's navigation: every place of the sidebar, and the language, in a sheet over the page. */
function MenuSheet({ onClose }: { onClose: () => void }) {
  const { t } = useT();
  const sheet = useRef<HTMLDivElement>(null);
  const languageId = useId();
  useEffect(() => {
    sheet.current?.querySelector<HTMLElement>('a, button')?.focus();
  }, []);
  return (
    <SheetBackdrop onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <Sheet
        ref={sheet}
        role="dialog"
        aria-modal="true"
        aria-label={t('nav.menu')}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onClose();
          }
        }}
      >
        <SheetHead>
          {t('nav.menu')}
          <IconButton type="button" aria-label={t('nav.closeMenu')} onClick={onClose}>
            <Icon name="close" />
          </IconButton>
        </SheetHead>
        <nav aria-label={t('nav.primary')}>
          {NAV_GROUPS.map((links, index) => (
            <NavLinks key={index} links={links} onNavigate={onClose} />
          ))}
        </nav>
        <label htmlFor={languageId}>
          {t('nav.language')}
          <Language id={languageId} />
        </label>
      </Sheet>
    </SheetBackdrop>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const { t } = useT();
  const { app, navigate } = useWiring();
  const [location] = useLocation();
  const current = useCurrent();
  const hrefOf = useHref();
  const [menuOpen, setMenuOpen] = useState(false);
  const [collapsed, setCollapsed] = useState(storedCollapse);
  const player = useSelector(app, (s) => s.matches('player'));
  // While a saved session is being restored the header offers nothing, rather than a "Log in" that may
  // not apply; its place is kept, so nothing moves when the answer arrives.
  const booting = useSelector(app, (s) => s.matches('booting'));
  // A new session starts the bell afresh: nothing of the last player's count survives.
  const accessToken = useSelector(app, (s) => s.context.accessToken);
  const openDialog = (name: string) => navigate(`${location}?dialog=${name}`);
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeMenu = () => {
    setMenuOpen(false);
    menuButton.current?.focus();
  };
  const toggleSidebar = () => {
    const next = !collapsed;
    setCollapsed(next);
    try {
      window.localStorage.setItem(SIDEBAR_STORAGE_KEY, next ? 'collapsed' : 'expanded');
    } catch {
      // The choice holds for this visit.
    }
  };

  return (
    <Shell id={SHELL_ID} data-collapsed={collapsed}>
      <SkipLink href="#main">{t('app.skipToContent')}</SkipLink>
      <Sidebar>
        <SidebarHead>
          <IconButton type="button" aria-label={t(collapsed ? 'nav.expand' : 'nav.collapse')} aria-expanded={!collapsed} onClick={toggleSidebar}>
            <Icon name={collapsed ? 'chevronRight' : 'chevronLeft'} />
          </IconButton>
        </SidebarHead>
        <nav aria-label={t('nav.primary')}>
          {NAV_GROUPS.map((links, index) => (
            <NavLinks key={index} links={links} collapsed={collapsed} />
          ))}
        </nav>
      </Sidebar>
      <Column>
        <TopBar>
          <TopBarRow>
            <Brand href="/">
              <svg width="28" height="28" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
                <circle cx="32" cy="32" r="29" fill="none" stroke={theme.color.accent} strokeWidth="6" strokeDasharray="14 8" />
                <circle cx="32" cy="32" r="17" fill={theme.color.accentStrong} />
                <path d="M32 22 L41 32 L32 42 L23 32 Z" fill="#fff" />
              </svg>
              <span>{t('app.name')}</span>
            </Brand>
            <SearchLink href="/search">
              <Icon name="search" size={18} />
              {t('nav.search')}
            </SearchLink>
            <Spacer />
            {player ? <WalletSlots /> : null}
            <DesktopOnly>
              <Language />
            </DesktopOnly>
            <Actions>
              {player ? (
                <>
                <Suspense fallback={null}>
                  <PlayerActions accessToken={accessToken ?? ''} onOpenNotifications={() => openDialog('notifications')} />
                </Suspense>
                </>
              ) : booting ? null : (
                <Compact>
                  <Button type="button" variant="secondary" onClick={() => openDialog('login')}>
                    {t('nav.login')}
                  </Button>
                  <Button type="button" onClick={() => openDialog('register')}>
                    {t('nav.register')}
                  </Button>
                </Compact>
              )}
            </Actions>
          </TopBarRow>
        </TopBar>
        <Main id="main" tabIndex={-1}>
          <Content>{children}</Content>
        </Main>
        <Footer>
          <Content>
            <nav aria-label={t('nav.information')}>
              {NAV_GROUPS[2]!.map(([href, label]) => (
                <Link key={href} href={href}>
                  {t(label)}
                </Link>
              ))}
            </nav>
            <p>© {t('app.name')}</p>
          </Content>
        </Footer>
      </Column>
      <TabBar aria-label={t('nav.shortcuts')}>
        <button ref={menuButton} type="button" aria-expanded={menuOpen} aria-haspopup="dialog" onClick={() => setMenuOpen(true)}>
          <Icon name="menu" />
          {t('nav.menu')}
        </button>
        {TABS.map(([href, label, icon]) => (
          <Link key={href} href={hrefOf(href)} aria-current={current(href) ? 'page' : undefined}>
            <Icon name={icon} />
            {t(label)}
          </Link>
        ))}
      </TabBar>
      {menuOpen ? <MenuSheet onClose={closeMenu} /> : null}
    </Shell>
  );
}
