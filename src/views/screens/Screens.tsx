import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { useT } from '../i18n-context.ts';
import { useWiring } from '../wiring.ts';
import { PlayerOnly } from '../PlayerOnly.tsx';
import { Screen } from '../components/Screen.tsx';
import { theme } from '../theme.ts';
import type { WalletTab } from '../wallet/tabs.ts';

/*
 * The screens whose flows arrive with later work: each has its real layout and its empty state now, so
 * routes, links and the back button work from the start.
 */

/** The wallet's old addresses (/wallet/deposit, ...): the wallet is a dialog over the lobby now (DESIGN.md). */
export function WalletRedirect({ tab }: { tab: WalletTab }) {
  const { navigate } = useWiring();
  useEffect(() => navigate(`/?wallet=open&tab=${tab}`, { replace: true }), [navigate, tab]);
  return null;
}

const Details = styled('dl')`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: ${theme.space(2)} ${theme.space(4)};
  dt {
    color: ${theme.color.textMuted};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

function ProfileDetails() {
  const { t } = useT();
  const { app } = useWiring();
  const user = useSelector(app, (s) => s.context.user);
  if (!user) return null;
  return (
    <>
      <details open>
        <summary>{t('profile.basicInformation.title')}</summary>
        <p>{t('profile.basicInformation.intro')}</p>
        <Details>
          <dt>{t('profile.basicInformation.email')}</dt>
          <dd>
            {user.email} ({user.emailVerified ? t('profile.basicInformation.emailVerified') : t('profile.basicInformation.emailNotVerified')})
          </dd>
          <dt>{t('profile.basicInformation.username')}</dt>
          <dd>{user.username}</dd>
        </Details>
        {user.profileComplete ? null : <p>{t('profile.basicInformation.incomplete')}</p>}
      </details>
    </>
  );
}

export function ProfileScreen() {
  const { t } = useT();
  return (
    <PlayerOnly title={t('profile.title')}>
      <Screen title={t('profile.title')}>
        <ProfileDetails />
      </Screen>
    </PlayerOnly>
  );
}

// The responsible-gambling page (its own file) and the app's reality check come with this chunk, so the app's
// first load names no chunk more for them (src/views/App.tsx and src/views/PlayerActions.tsx load it).
export { default as ResponsibleGamblingScreen, RealityCheck } from './ResponsibleGamblingScreen.tsx';
