import { lazy, Suspense } from 'react';
import { useSelector } from '@xstate/react';
import { useLocation, useSearch } from 'wouter';
import { useWiring } from '../wiring.ts';
import { isWalletTab } from '../wallet/tabs.ts';

const LoginDialog = lazy(() => import('./LoginDialog.tsx'));
const RegisterDialog = lazy(() => import('./RegisterDialog.tsx'));
const ForgotPasswordDialog = lazy(() => import('./ForgotPasswordDialog.tsx'));
const ResetPasswordDialog = lazy(() => import('./ResetPasswordDialog.tsx'));
const EmailVerifiedDialog = lazy(() => import('./EmailVerifiedDialog.tsx'));
const NotificationsDialog = lazy(() => import('./NotificationsDialog.tsx'));
const WalletDialog = lazy(() => import('../wallet/WalletDialog.tsx'));
const LoginFirstDialog = lazy(() => import('./LoginFirstDialog.tsx'));
const SessionLimitDialog = lazy(() => import('./SessionLimitDialog.tsx'));

export type DialogName = 'login' | 'register' | 'forgot-password' | 'notifications';

/** Shows the dialog the address names; closing it takes the dialog out of the address. */
export default function DialogHost({ verifyToken, onVerifyClosed }: { verifyToken: string | null; onVerifyClosed: () => void }) {
  const [location] = useLocation();
  const params = new URLSearchParams(useSearch());
  const { app, navigate } = useWiring();
  const session = useSelector(app, (s) => (s.matches('booting') ? 'booting' : s.matches('player') ? 'player' : 'visitor'));
  const dialog = params.get('dialog');
  const token = params.get('token') ?? '';
  const without = (name: string) => {
    const rest = new URLSearchParams(params);
    rest.delete(name);
    const query = rest.toString();
    return query ? `${location}?${query}` : location;
  };
  const close = () => navigate(without('dialog'));
  // The login dialog closes itself on success; in front of a player-only dialog, that one shows instead.
  const closeUnlessLoggedIn = () => {
    if (!app.getSnapshot().matches('player')) close();
  };
  const switchTo = (name: DialogName) => {
    const next = new URLSearchParams(params);
    next.set('dialog', name);
    navigate(`${location}?${next.toString()}`, { replace: true });
  };
  let content = null;
  if (verifyToken !== null) {
    const leave = (to: string) => {
      onVerifyClosed();
      navigate(to);
    };
    content = <EmailVerifiedDialog key={verifyToken} token={verifyToken} onClose={() => leave('/')} onLogin={() => leave('/?dialog=login')} />;
  } else if (location === '/reset-password') {
    content = <ResetPasswordDialog token={token} onClose={() => navigate('/')} />;
  } else if (dialog === 'login') {
    content = <LoginDialog onClose={close} switchTo={switchTo} />;
  } else if (dialog === 'register') {
    content = <RegisterDialog onClose={close} switchTo={switchTo} />;
  } else if (dialog === 'forgot-password') {
    content = <ForgotPasswordDialog onClose={close} switchTo={switchTo} />;
  } else if (dialog === 'notifications') {
    // Player only: a visitor logs in first, here, and then sees the notifications the link asked for.
    if (session === 'player') content = <NotificationsDialog onClose={close} />;
    else if (session === 'visitor') content = <LoginDialog onClose={closeUnlessLoggedIn} switchTo={switchTo} />;
  } else if (dialog === 'session-limit') {
    // The reality check at the session limit, for the player the app has just logged out.
    const played = params.get('played') ?? '';
    const playedMinutes = /^\d{1,6}$/.test(played) ? Number(played) : null;
    const closeAll = () => {
      const rest = new URLSearchParams(params);
      rest.delete('played');
      rest.delete('dialog');
      const query = rest.toString();
      return query ? `${location}?${query}` : location;
    };
    const login = () => {
      const next = new URLSearchParams(params);
      next.delete('played');
      next.set('dialog', 'login');
      navigate(`${location}?${next.toString()}`, { replace: true });
    };
    if (session === 'visitor') content = <SessionLimitDialog playedMinutes={playedMinutes} onClose={() => navigate(closeAll())} onLogin={login} />;
  } else if (params.get('wallet') === 'open') {
    // DESIGN.md: the wallet is a dialog of the address (?wallet=open&tab=deposit|withdraw|transactions).
    const requested = params.get('tab');
    const tab = isWalletTab(requested) ? requested : 'deposit';
    const closeWallet = () => {
      const rest = new URLSearchParams(params);
      rest.delete('wallet');
      rest.delete('tab');
      const query = rest.toString();
      navigate(query ? `${location}?${query}` : location);
    };
    const showTab = (name: string) => {
      const next = new URLSearchParams(params);
      next.set('tab', name);
      navigate(`${location}?${next.toString()}`, { replace: true });
    };
    // SPEC §6: the wallet needs a player ("Please login first"); logged in, the wallet shows.
    if (session === 'player') content = <WalletDialog tab={tab} onTab={showTab} onClose={closeWallet} />;
    else if (session === 'visitor') content = <LoginFirstDialog title="wallet.title" onClose={closeWallet} onLogin={() => switchTo('login')} />;
  }
  return <Suspense fallback={null}>{content}</Suspense>;
}
