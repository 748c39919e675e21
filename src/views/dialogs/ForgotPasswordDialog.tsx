import type { FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { errorMessageKey } from '../../api/errors.ts';
import { useT } from '../i18n-context.ts';
import { useFlow } from '../wiring.ts';
import { forgotPasswordMachine } from '../../machines/forgotPassword.machine.ts';
import { Dialog } from '../components/Dialog.tsx';
import { FormError, TextField } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { Actions, fieldMessages, Form, Intro, Links, Panel, type AccountDialogName } from './parts.tsx';

export interface ForgotPasswordDialogProps {
  onClose: () => void;
  switchTo: (name: AccountDialogName) => void;
}

/** The forgot-password dialog: an email, then word that the reset link is on its way. */
export default function ForgotPasswordDialog({ onClose, switchTo }: ForgotPasswordDialogProps) {
  const { t } = useT();
  const actor = useFlow(forgotPasswordMachine);
  const email = useSelector(actor, (s) => s.context.values.email);
  const emailErrors = useSelector(actor, (s) => s.context.fieldErrors.email);
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const submitting = useSelector(actor, (s) => s.matches('submitting'));
  const done = useSelector(actor, (s) => s.matches('done'));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SUBMIT' });
  };

  return (
    <Dialog title={t('auth.forgotPassword.title')} closeLabel={t('common.close')} onClose={onClose}>
      {done ? (
        <>
          <Panel role="status">
            <p>{t('auth.forgotPassword.sent', { email })}</p>
          </Panel>
          <Actions>
            <Button type="button" autoFocus onClick={onClose}>
              {t('common.close')}
            </Button>
          </Actions>
        </>
      ) : (
        <>
          <Intro>{t('auth.forgotPassword.intro')}</Intro>
          <Form onSubmit={submit} noValidate>
            {failed ? <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError> : null}
            <TextField
              label={t('auth.forgotPassword.email')}
              type="email"
              name="email"
              autoComplete="email"
              autoCapitalize="none"
              spellCheck={false}
              value={email}
              onChange={(event) => actor.send({ type: 'FIELD.CHANGE', field: 'email', value: event.target.value })}
              errors={fieldMessages(t, emailErrors)}
            />
            <Actions>
              <Button type="submit" disabled={submitting} aria-busy={submitting}>
                {submitting ? t('common.submitting') : t('auth.forgotPassword.submit')}
              </Button>
            </Actions>
          </Form>
        </>
      )}
      <Links>
        <Button type="button" variant="link" onClick={() => switchTo('login')}>
          {t('auth.forgotPassword.backToLogin')}
        </Button>
      </Links>
    </Dialog>
  );
}
