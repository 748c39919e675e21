import { useEffect, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useWiring } from './wiring.ts';
import { useT } from './i18n-context.ts';
import { Screen, EmptyState } from './components/Screen.tsx';
import { Button } from './components/Button.tsx';

/**
 * Wallet, profile, bonuses and the other player areas (SPEC §6): a visitor is asked to log in
 * ("Please login first") and the login dialog opens.
 */
export function PlayerOnly({ title, children }: { title: string; children: ReactNode }) {
  const { app, navigate } = useWiring();
  const { t } = useT();
  const status = useSelector(app, (s) => (s.matches('booting') ? 'booting' : s.matches('visitor') ? 'visitor' : 'player'));
  useEffect(() => {
    if (status === 'visitor') navigate(`${window.location.pathname}?dialog=login`, { replace: true });
  }, [status, navigate]);
  if (status === 'player') return <>{children}</>;
  return (
    <Screen title={title}>
      <EmptyState>
        {status === 'booting' ? (
          t('states.loading')
        ) : (
          <>
            <p>{t('messages.pleaseLogin')}</p>
            <Button type="button" onClick={() => navigate(`${window.location.pathname}?dialog=login`)}>
              {t('nav.login')}
            </Button>
          </>
        )}
      </EmptyState>
    </Screen>
  );
}
