import type { Translator } from '../i18n/index.ts';

/** A length of time in whole minutes, as the pages say it: "45 min", "2 h", "1 h 30 min". */
export function formatDuration(ms: number, t: Translator['t']): string {
  const total = Math.floor(ms / 60_000);
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  if (hours === 0) return t('responsibleGambling.duration.minutes', { minutes });
  if (minutes === 0) return t('responsibleGambling.duration.hours', { hours });
  return t('responsibleGambling.duration.hoursMinutes', { hours, minutes });
}
