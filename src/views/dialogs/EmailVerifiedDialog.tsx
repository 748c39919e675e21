import { useSelector } from '@xstate/react';
import { useT } from '../i18n-context.ts';
import { useFlow } from '../wiring.ts';
import { verifyEmailMachine } from '../../machines/verifyEmail.machine.ts';
import { Dialog } from '../components/Dialog.tsx';
import { Button } from '../components/Button.tsx';
import { Actions, Panel } from './parts.tsx';

export interface EmailVerifiedDialogProps {
  /** The token of the emailed link (`?token=`); '' when the link has none. */
  token: string;
  onClose: () => void;
  /** Opens the login dialog; without it "Log in" just closes this one. */
  onLogin?: () => void;
}

/**
 * The email verification link: "verifying…" while the token is checked, then the email-verified popup.
 * A failure shows nothing here: the machine says why in a toast and goes back to '/'.
 */
export default function EmailVerifiedDialog({ token, onClose, onLogin }: EmailVerifiedDialogProps) {
  const { t } = useT();
  const actor = useFlow(verifyEmailMachine, { token });
  const verifying = useSelector(actor, (s) => s.matches('verifying'));
  const verified = useSelector(actor, (s) => s.matches('verified'));

  if (verifying) {
    return (
      <Dialog title={t('auth.verifyEmail.title')} closeLabel={t('common.close')} onClose={onClose}>
        <Panel role="status" aria-busy="true">
          <p>{t('auth.verifyEmail.verifying')}</p>
        </Panel>
      </Dialog>
    );
  }
  if (!verified) return null;
  return (
    <Dialog title={t('auth.verifyEmail.successTitle')} closeLabel={t('common.close')} onClose={onClose}>
      <Panel role="status">
        <p>{t('auth.verifyEmail.successBody')}</p>
      </Panel>
      <Actions>
        <Button type="button" autoFocus onClick={onLogin ?? onClose}>
          {t('auth.login.submit')}
        </Button>
      </Actions>
    </Dialog>
  );
}
