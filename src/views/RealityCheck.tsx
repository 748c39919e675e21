import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { realityCheckMachine } from '../machines/realityCheck.machine.ts';
import { Button } from './components/Button.tsx';
import { Dialog } from './components/Dialog.tsx';
import type { Translator } from '../i18n/index.ts';
import { useT } from './i18n-context.ts';
import { theme } from './theme.ts';
import { useFlow, useWiring } from './wiring.ts';

/*
 * The reality check (src/machines/realityCheck.machine.ts): mounted by the app for a logged-in player,
 * in a chunk of its own. Shows nothing until the session limit is reached; then a dialog says how long
 * the player has played, with Keep playing and Log out.
 */

const Body = styled('div')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(3)};
  p {
    margin: 0;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: ${theme.space(2)};
    margin-top: ${theme.space(2)};
  }
`;

/** A length of time in whole minutes, as the page and the reality check say it: "45 min", "2 h", "1 h 30 min". */
export function formatDuration(ms: number, t: Translator['t']): string {
  const total = Math.floor(ms / 60_000);
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  if (hours === 0) return t('responsibleGambling.duration.minutes', { minutes });
  if (minutes === 0) return t('responsibleGambling.duration.hours', { hours });
  return t('responsibleGambling.duration.hoursMinutes', { hours, minutes });
}

/** The check for a session that started at `sessionStartedAt` (ISO 8601). */
export function RealityCheckDialog({ sessionStartedAt, now }: { sessionStartedAt: string; now: string }) {
  const { t } = useT();
  const actor = useFlow(realityCheckMachine, { sessionStartedAt, now });
  const checking = useSelector(actor, (s) => s.matches('checking'));
  const { playedMs, limitMinutes } = useSelector(actor, (s) => s.context);
  if (!checking) return null;
  const playOn = () => actor.send({ type: 'CONTINUE' });
  return (
    <Dialog title={t('responsibleGambling.realityCheck.title')} closeLabel={t('common.close')} onClose={playOn}>
      <Body>
        <p>{t('responsibleGambling.realityCheck.played', { duration: formatDuration(playedMs, t) })}</p>
        <p>{t('responsibleGambling.realityCheck.limit', { duration: formatDuration((limitMinutes ?? 0) * 60_000, t) })}</p>
        <div className="row">
          <Button type="button" onClick={playOn}>
            {t('responsibleGambling.realityCheck.continue')}
          </Button>
          <Button type="button" variant="secondary" onClick={() => actor.send({ type: 'LOGOUT' })}>
            {t('responsibleGambling.realityCheck.logout')}
          </Button>
        </div>
      </Body>
    </Dialog>
  );
}

/** For the session the app holds: it started at the login (the user's lastLoginAt), else now. */
export default function RealityCheck() {
  const { app } = useWiring();
  const lastLoginAt = useSelector(app, (s) => s.context.user?.lastLoginAt ?? null);
  const [times] = useState(() => {
    const now = new Date().toISOString();
    return { now, sessionStartedAt: lastLoginAt !== null && !Number.isNaN(Date.parse(lastLoginAt)) ? lastLoginAt : now };
  });
  return <RealityCheckDialog sessionStartedAt={times.sessionStartedAt} now={times.now} />;
}
