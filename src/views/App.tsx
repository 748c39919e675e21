import { createElement, lazy, StrictMode, Suspense, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { setup as setupGoober, glob } from 'goober';
import { useSelector } from '@xstate/react';
import { Route, Switch, useLocation, useSearch } from 'wouter';
import { createTranslator, loadDictionary, loadScreensDictionaries, type Language, type Translator } from '../i18n/index.ts';
import { TranslatorContext, useT } from './i18n-context.ts';
import { createBrowserWiring, RESET_FLOWS_EVENT, TOAST_EVENT, toastRequested, WiringContext, type Wiring } from './wiring.ts';
import { Layout } from './Layout.tsx';
import { EmptyState } from './components/Screen.tsx';
import Lobby from './games/Lobby.tsx';
import { theme } from './theme.ts';

/** A lazily loaded screen or dialog comes with the screens part of the dictionaries (src/i18n/index.ts). */
function withScreensDictionary<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadScreensDictionaries()]).then(([module]) => module);
}

// Every screen but the lobby is a chunk of its own, loaded when its route is visited.
const Screens = withScreensDictionary(() => import('./screens/Screens.tsx'));
// The grids of games and the game page: chunks of their own (the lobby is in the first load).
const Grids = lazy(withScreensDictionary(() => import('./games/GamesScreen.tsx').then((m) => ({ default: m.GridRoute }))));
const GRID_PATHS = /^\/(casino|live-casino|sports|games|search|category\/[^/]+|provider\/[^/]+)\/?$/;
const Play = lazy(withScreensDictionary(() => import('./games/GamePage.tsx')));
const Favourites = lazy(withScreensDictionary(() => import('./games/GamesScreen.tsx').then((m) => ({ default: m.FavouritesScreen }))));
const BonusScreen = lazy(withScreensDictionary(() => import('./screens/BonusScreen.tsx')));
const WalletRedirect = lazy(() => Screens().then((m) => ({ default: m.WalletRedirect })));
const BetHistoryScreen = lazy(withScreensDictionary(() => import('./screens/BetHistoryScreen.tsx')));
const ProfileScreen = lazy(withScreensDictionary(() => import('./screens/ProfileScreen.tsx')));
const ResponsibleGamblingScreen = lazy(() => Screens().then((m) => ({ default: m.ResponsibleGamblingScreen })));
const ReferAFriendScreen = lazy(withScreensDictionary(() => import('./screens/ReferralScreen.tsx')));
const PageScreen = lazy(withScreensDictionary(() => import('./screens/PageScreen.tsx')));
const FairnessScreen = lazy(withScreensDictionary(() => import('./screens/FairnessScreen.tsx')));
const DialogHost = lazy(withScreensDictionary(() => import('./dialogs/DialogHost.tsx')));
// The toast area (SPEC §9) and its library: mounted with the first toast.
const Toasts = lazy(() => import('./Toasts.tsx'));
// The reviewers' flow charts: their own chunk (with ELK loaded after it), never in the player's bundle.
const FlowsScreen = lazy(() => import('./flows/FlowsScreen.tsx'));

function Loading() {
  const { t } = useT();
  return <EmptyState>{t('states.loading')}</EmptyState>;
}

function Routes() {
  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        <Route path="/">
          <Lobby />
        </Route>
        {/* Every grid of games: which one, the lazily loaded screen reads from the path. */}
        <Route path={GRID_PATHS}>
          <Grids />
        </Route>
        <Route path="/favourites">
          <Favourites />
        </Route>
        <Route path="/play/:sessionId?">{(params) => <Play sessionId={params.sessionId} />}</Route>
        <Route path="/bonus">
          <BonusScreen />
        </Route>
        <Route path="/wallet">
          <WalletRedirect tab="deposit" />
        </Route>
        <Route path="/wallet/deposit">
          <WalletRedirect tab="deposit" />
        </Route>
        <Route path="/wallet/withdraw">
          <WalletRedirect tab="withdraw" />
        </Route>
        <Route path="/wallet/transactions">
          <WalletRedirect tab="transactions" />
        </Route>
        <Route path="/bet-history">
          <BetHistoryScreen />
        </Route>
        <Route path="/profile">
          <ProfileScreen />
        </Route>
        <Route path="/responsible-gambling">
          <ResponsibleGamblingScreen />
        </Route>
        <Route path="/refer-a-friend">
          <ReferAFriendScreen />
        </Route>
        <Route path="/faq">
          <PageScreen slug="faq" />
        </Route>
        <Route path="/terms">
          <PageScreen slug="terms" />
        </Route>
        <Route path="/privacy">
          <PageScreen slug="privacy" />
        </Route>
        <Route path="/about">
          <PageScreen slug="about" />
        </Route>
        <Route path="/support">
          <PageScreen slug="support" />
        </Route>
        <Route path="/fairness">
          <FairnessScreen />
        </Route>
        {/* Email links land here: the dialogs read their token from the address. */}
        <Route path="/verify-email">
          <Lobby />
        </Route>
        <Route path="/reset-password">
          <Lobby />
        </Route>
        <Route path="/flows">
          <FlowsScreen />
        </Route>
        <Route>
          <Lobby />
        </Route>
      </Switch>
    </Suspense>
  );
}

/** Dialogs open from the address (`?dialog=login`, `/verify-email?token=`), so links and Back work. */
function Dialogs() {
  const [location] = useLocation();
  const search = useSearch();
  const dialog = new URLSearchParams(search).get('dialog');
  // The verification flow returns to '/' as it succeeds: its popup stays until the player closes it.
  const [verifyToken, setVerifyToken] = useState<string | null>(null);
  const linkToken = location === '/verify-email' ? (new URLSearchParams(search).get('token') ?? '') : null;
  if (linkToken !== null && linkToken !== verifyToken) setVerifyToken(linkToken);
  const wallet = new URLSearchParams(search).get('wallet') === 'open';
  const open = dialog !== null || wallet || verifyToken !== null || location === '/reset-password';
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <DialogHost verifyToken={verifyToken} onVerifyClosed={() => setVerifyToken(null)} />
    </Suspense>
  );
}

/**
 * The translator of the chosen language. The entry loaded the first language's dictionary; another one is
 * loaded when the player picks it, and the interface keeps the current language until it has arrived
 * (a failed load leaves it as it was: picking the language again tries again).
 */
function useTranslator(language: Language): Translator {
  const [translator, setTranslator] = useState(() => createTranslator(language));
  useEffect(() => {
    if (translator.language === language) return;
    let current = true;
    loadDictionary(language).then(
      () => current && setTranslator(createTranslator(language)),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [language, translator.language]);
  return translator;
}

/** The toast area: mounted once the first toast is asked for, which then shows in it. */
function ToastArea() {
  const [wanted, setWanted] = useState(toastRequested);
  useEffect(() => {
    if (wanted) return;
    const want = () => setWanted(true);
    window.addEventListener(TOAST_EVENT, want);
    // A toast asked for between the first render and this subscription.
    if (toastRequested()) want();
    return () => window.removeEventListener(TOAST_EVENT, want);
  }, [wanted]);
  return wanted ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}

function Root() {
  const [wiring] = useState(createBrowserWiring);
  return <Translated wiring={wiring} />;
}

function Translated({ wiring }: { wiring: Wiring }) {
  const language = useSelector(wiring.app, (s) => s.context.language);
  const translator = useTranslator(language);
  // resetFlows (logout, session expiry): every flow below starts again, so nothing of the session survives.
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const restart = () => setGeneration((n) => n + 1);
    window.addEventListener(RESET_FLOWS_EVENT, restart);
    return () => window.removeEventListener(RESET_FLOWS_EVENT, restart);
  }, []);
  return (
    <WiringContext.Provider value={wiring}>
      <TranslatorContext.Provider value={translator}>
        <Layout>
          <Routes key={generation} />
        </Layout>
        <Dialogs key={generation} />
        <ToastArea />
      </TranslatorContext.Provider>
    </WiringContext.Provider>
  );
}

export function mountApp(element: HTMLElement): void {
  setupGoober(createElement);
  // goober's glob adds global rules as a side effect of the tagged call.
  // eslint-disable-next-line @typescript-eslint/no-unused-expressions
  glob`
    body { background: ${theme.color.background}; color: ${theme.color.text}; font-family: ${theme.font.body}; }
    *, *::before, *::after { box-sizing: border-box; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    :focus-visible { outline: 2px solid ${theme.color.focus}; outline-offset: 2px; }
  `;
  createRoot(element).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  );
}

