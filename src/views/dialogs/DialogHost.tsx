import { lazy, Suspense } from 'react';
import { useSelector } from '@xstate/react';
import { useLocation, useSearch } from 'wouter';
import { useWiring } from '../wiring.ts';

const LoginDialog = lazy(() => import('./LoginDialog.tsx'));
const RegisterDialog = lazy(() => import('./RegisterDialog.tsx'));
const ForgotPasswordDialog = lazy(() => import('./ForgotPasswordDialog.tsx'));
const ResetPasswordDialog = lazy(() => import('./ResetPasswordDialog.tsx'));
const EmailVerifiedDialog = lazy(() => import('./EmailVerifiedDialog.tsx'));
const NotificationsDialog = lazy(() => import('./NotificationsDialog.tsx'));

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
  }
  return <Suspense fallback={null}>{content}</Suspense>;
}
