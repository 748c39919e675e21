import { useState, type FormEvent } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { errorMessageKey } from '../../api/errors.ts';
import { loginMachine, type LoginField } from '../../machines/login.machine.ts';
import { useT } from '../i18n-context.ts';
import { useServices } from '../services.ts';
import { Dialog } from '../components/Dialog.tsx';
import { Button, FormError, TextField } from '../components/Form.tsx';
import { Actions, Divider, fieldMessages, Form, Links, PasswordField, useLatest, type AccountDialogName } from './parts.tsx';

export interface FacebookLogin {
  accessToken: string;
  userID: string;
}

export interface LoginDialogProps {
  onClose: () => void;
  switchTo: (name: AccountDialogName) => void;
  /** From the server settings: the Google button shows only when Google sign-in is configured. */
  googleClientId?: string | null;
  /** From the server settings: the Facebook button shows only when Facebook sign-in is configured. */
  facebookAppId?: string | null;
  /** Asks the Google SDK for an ID token (the host loads the SDK); without it there is no Google button. */
  getGoogleCredential?: () => Promise<string>;
  /** Asks the Facebook SDK for a login; without it there is no Facebook button. */
  getFacebookLogin?: () => Promise<FacebookLogin>;
}

/** The login dialog (SPEC §4): email or username and password, or a configured social sign-in. */
export default function LoginDialog(props: LoginDialogProps) {
  const { t } = useT();
  const services = useServices();
  const latest = useLatest(props);
  const [machine] = useState(() =>
    loginMachine.provide({
      actors: {
        login: services.actors.login,
        googleLogin: services.actors.googleLogin,
        facebookLogin: services.actors.facebookLogin,
      },
      actions: {
        sessionStarted: (_, session) =>
          services.app.send({ type: 'SESSION.LOGGED_IN', accessToken: session.accessToken, user: session.user }),
        storeLoginTime: (_, params) => services.storeLoginTime(params.at),
        closeDialog: () => latest.current.onClose(),
        notify: (_, notice) => services.notify(notice),
      },
    }),
  );
  const actor = useActorRef(machine);
  const values = useSelector(actor, (s) => s.context.values);
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  const busy = useSelector(
    actor,
    (s) => s.matches('submitting') || s.matches('signingInWithGoogle') || s.matches('signingInWithFacebook') || s.matches('done'),
  );

  const change = (field: LoginField) => (event: { target: { value: string } }) =>
    actor.send({ type: 'FIELD.CHANGE', field, value: event.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SUBMIT' });
  };
  // A rejected SDK promise means the player closed the provider's window: nothing to report.
  const signInWithGoogle = (getCredential: () => Promise<string>) => () =>
    getCredential().then(
      (credential) => actor.send({ type: 'SOCIAL.GOOGLE', credential }),
      () => undefined,
    );
  const signInWithFacebook = (getLogin: () => Promise<FacebookLogin>) => () =>
    getLogin().then(
      ({ accessToken, userID }) => actor.send({ type: 'SOCIAL.FACEBOOK', accessToken, userID }),
      () => undefined,
    );

  const { googleClientId, facebookAppId, getGoogleCredential, getFacebookLogin } = props;
  const google = googleClientId && getGoogleCredential ? getGoogleCredential : null;
  const facebook = facebookAppId && getFacebookLogin ? getFacebookLogin : null;

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
      {google || facebook ? (
        <>
          <Divider>{t('auth.social.divider')}</Divider>
          <Actions>
            {google ? (
              <Button type="button" variant="secondary" disabled={busy} onClick={signInWithGoogle(google)}>
                {t('auth.social.google')}
              </Button>
            ) : null}
            {facebook ? (
              <Button type="button" variant="secondary" disabled={busy} onClick={signInWithFacebook(facebook)}>
                {t('auth.social.facebook')}
              </Button>
            ) : null}
          </Actions>
        </>
      ) : null}
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
