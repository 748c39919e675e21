import { useSelector } from '@xstate/react';
import { errorMessageKey } from '../../api/errors.ts';
import { passwordTicks, resetPasswordMachine } from '../../machines/resetPassword.machine.ts';
import { useT } from '../i18n-context.ts';
import { useFlow } from '../wiring.ts';
import { Dialog } from '../components/Dialog.tsx';
import { FormError } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { Actions, Form, formBindings, Intro, Panel, PasswordField, PasswordRules } from './parts.tsx';

export interface ResetPasswordDialogProps {
  /** The token of the emailed link (`?token=`); '' when the link has none. */
  token: string;
  onClose: () => void;
}

/** The reset-password dialog opened from the emailed link; on success the machine goes to '/'. */
export default function ResetPasswordDialog({ token, onClose }: ResetPasswordDialogProps) {
  const { t } = useT();
  const actor = useFlow(resetPasswordMachine, { token });
  const snapshot = useSelector(actor, (s) => s);
  const { values, fieldErrors, errorCode } = snapshot.context;
  const submitting = snapshot.matches('submitting');
  const { field, submit } = formBindings(actor.send, t, values, fieldErrors);

  return (
    <Dialog title={t('auth.resetPassword.title')} closeLabel={t('common.close')} onClose={onClose}>
      {snapshot.matches('done') ? (
        <>
          <Panel role="status">
            <p>{t('messages.passwordReset')}</p>
          </Panel>
          <Actions>
            <Button type="button" autoFocus onClick={onClose}>
              {t('common.close')}
            </Button>
          </Actions>
        </>
      ) : (
        <>
          <Intro>{t('auth.resetPassword.intro')}</Intro>
          <Form onSubmit={submit} noValidate>
            {snapshot.matches('failed') ? (
              <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError>
            ) : null}
            <PasswordField
              label={t('auth.resetPassword.newPassword')}
              autoComplete="new-password"
              hint={<PasswordRules ticks={passwordTicks(snapshot.context)} />}
              {...field('newPassword')}
            />
            <PasswordField
              label={t('auth.resetPassword.confirmPassword')}
              autoComplete="new-password"
              {...field('confirmPassword')}
            />
            <Actions>
              <Button type="submit" disabled={submitting} aria-busy={submitting}>
                {submitting ? t('common.submitting') : t('auth.resetPassword.submit')}
              </Button>
            </Actions>
          </Form>
        </>
      )}
    </Dialog>
  );
}
