import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { useT } from '../i18n-context.ts';
import type { ProfileSectionProps } from '../screens/ProfileScreen.tsx';
import { theme } from '../theme.ts';
import { useWiring } from '../wiring.ts';

/* The profile's basic information (SPEC §3): the player's details. */

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

export function BasicInformation(_: ProfileSectionProps) {
  const { t } = useT();
  const { app } = useWiring();
  const user = useSelector(app, (s) => s.context.user);
  if (!user) return null;
  return (
    <>
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
    </>
  );
}
