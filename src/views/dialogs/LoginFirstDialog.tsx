import type { MessageKey } from '../../i18n/index.ts';
import { Dialog } from '../components/Dialog.tsx';
import { Button } from '../components/Button.tsx';
import { useT } from '../i18n-context.ts';
import { Actions, Panel } from './parts.tsx';

/**
 * A player-only dialog opened by a visitor (the wallet from a shared link): SPEC §6 "Please login first",
 * and the way to do it. The address keeps the dialog asked for, so it shows once logged in.
 */
export default function LoginFirstDialog({ title, onClose, onLogin }: { title: MessageKey; onClose: () => void; onLogin: () => void }) {
  const { t } = useT();
  return (
    <Dialog title={t(title)} closeLabel={t('common.close')} onClose={onClose}>
      <Panel role="status">
        <p>{t('messages.pleaseLogin')}</p>
      </Panel>
      <Actions>
        <Button type="button" onClick={onLogin}>
          {t('nav.login')}
        </Button>
      </Actions>
    </Dialog>
  );
}
