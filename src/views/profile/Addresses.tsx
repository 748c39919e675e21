import { useT } from '../i18n-context.ts';
import type { ProfileSectionProps } from '../screens/ProfileScreen.tsx';

/* The player's addresses (SPEC §3 Address). */

export function Addresses(_: ProfileSectionProps) {
  const { t } = useT();
  return <p>{t('profile.addresses.empty')}</p>;
}
