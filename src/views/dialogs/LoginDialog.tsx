import type { FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { errorMessageKey } from '../../api/errors.ts';
import { loginMachine, type LoginField } from '../../machines/login.machine.ts';
import { useT } from '../i18n-context.ts';
import { useFlow } from '../wiring.ts';
import { Dialog } from '../components/Dialog.tsx';
import { FormError, TextField } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { Actions, fieldMessages, Form, Links, PasswordField, type AccountDialogName } from './parts.tsx';
import { SocialSignIn } from './SocialSignIn.tsx';
import ResendVerification from './ResendVerification.tsx';

export interface LoginDialogProps {
  onClose: () => void;
  switchTo: (name: AccountDialogName) => void;
}

/** The login dialog (SPEC §4): email or username and password, or a configured social sign-in. */
export default function LoginDialog(props: LoginDialogProps) {
  const { t } = useT();
  const actor = useFlow(loginMachine);
  const values = useSelector(actor, (s) => s.context.values);
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  const busy = useSelector(actor, (s) => s.matches('submitting') || s.matches('done'));

  const change = (field: LoginField) => (event: { target: { value: string } }) =>
    actor.send({ type: 'FIELD.CHANGE', field, value: event.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SUBMIT' });
  };
  return (
    <Dialog title={t('auth.login.title')} closeLabel={t('common.close')} onClose={props.onClose}>
      <Form onSubmit={submit} noValidate>
        {failed ? <FormError role="alert">{t(errorMessageKey(errorCode, 'login'))}</FormError> : null}
        <TextField
          label={t('auth.login.loginId')}
          placeholder={t('auth.login.loginIdPlaceholder')}
          name="email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={values.email}
          onChange={change('email')}
          errors={fieldMessages(t, fieldErrors.email)}
        />
        <PasswordField
          label={t('auth.login.password')}
          name="password"
          autoComplete="current-password"
          value={values.password}
          onChange={change('password')}
          errors={fieldMessages(t, fieldErrors.password)}
        />
        <Actions>
          <Button type="submit" disabled={busy} aria-busy={busy}>
            {busy ? t('common.submitting') : t('auth.login.submit')}
          </Button>
        </Actions>
      </Form>
      {failed && errorCode === 'EMAIL_NOT_VERIFIED' ? <ResendVerification loginId={values.email} /> : null}
      <SocialSignIn />
      <Links>
        <Button type="button" variant="link" onClick={() => props.switchTo('forgot-password')}>
          {t('auth.login.forgotPassword')}
        </Button>
        <span>
          {t('auth.login.noAccount')}{' '}
          <Button type="button" variant="link" onClick={() => props.switchTo('register')}>
            {t('auth.login.registerLink')}
          </Button>
        </span>
      </Links>
    </Dialog>
  );
}
