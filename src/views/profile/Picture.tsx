import { useSelector } from '@xstate/react';
import { useT } from '../i18n-context.ts';
import type { ProfileSectionProps } from '../screens/ProfileScreen.tsx';
import { useWiring } from '../wiring.ts';

/* The profile picture (SPEC §3, §5): the current one. */

export function Picture(_: ProfileSectionProps) {
  const { t } = useT();
  const { app } = useWiring();
  const user = useSelector(app, (s) => s.context.user);
  if (!user) return null;
  return (
    <>
      {user.profileImageUrl ? <img src={user.profileImageUrl} alt={t('profile.picture.alt', { name: user.username })} width={96} height={96} /> : null}
      <p>{t('profile.picture.hint')}</p>
    </>
  );
}
