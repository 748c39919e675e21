import { Dialog } from '../components/Dialog.tsx';
import { Button } from '../components/Button.tsx';
import { formatDuration } from '../duration.ts';
import { useT } from '../i18n-context.ts';
import { Actions, Panel } from './parts.tsx';

/**
 * The reality check at the session limit (src/machines/realityCheck.machine.ts): the server has ended the
 * session, the app has logged the player out, and this says how long they played, with Log in again (a new
 * session) and Close. `playedMinutes` is null when the address does not say.
 */
export default function SessionLimitDialog({
  playedMinutes,
  onClose,
  onLogin,
}: {
  playedMinutes: number | null;
  onClose: () => void;
  onLogin: () => void;
}) {
  const { t } = useT();
  return (
    <Dialog title={t('responsibleGambling.realityCheck.title')} closeLabel={t('common.close')} onClose={onClose}>
      <Panel role="status">
        {playedMinutes === null ? null : (
          <p>{t('responsibleGambling.realityCheck.played', { duration: formatDuration(playedMinutes * 60_000, t) })}</p>
        )}
        <p>{t('responsibleGambling.realityCheck.ended')}</p>
        <p>{t('responsibleGambling.realityCheck.hint')}</p>
      </Panel>
      <Actions>
        <Button type="button" autoFocus onClick={onLogin}>
          {t('responsibleGambling.realityCheck.login')}
        </Button>
        <Button type="button" variant="secondary" onClick={onClose}>
          {t('common.close')}
        </Button>
      </Actions>
    </Dialog>
  );
}
