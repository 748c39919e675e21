import type { FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { errorMessageKey } from '../../api/errors.ts';
import { resendVerificationMachine } from '../../machines/resendVerification.machine.ts';
import { FormError, TextField } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { useFlow } from '../wiring.ts';
import { fieldMessages } from './parts.tsx';

/*
 * In the login dialog, under a refusal for an unverified email: a new verification email
 * (src/machines/resendVerification.machine.ts). A form of its own, outside the login form.
 */

const Box = styled('form')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(2)};
  margin: 0 0 ${theme.space(3)};
  padding: ${theme.space(3)};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.medium};
  background: ${theme.color.background};
  p {
    margin: 0;
  }
`;

export default function ResendVerification({ loginId }: { loginId: string }) {
  const { t } = useT();
  const actor = useFlow(resendVerificationMachine, { loginId });
  const snapshot = useSelector(actor, (s) => s);
  const { values, fieldErrors, errorCode } = snapshot.context;
  const sending = snapshot.matches('sending');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SUBMIT' });
  };
  if (snapshot.matches('sent')) {
    return (
      <Box as="div">
        <p role="status">{t('auth.login.verificationSent')}</p>
      </Box>
    );
  }
  return (
    <Box onSubmit={submit} noValidate aria-label={t('auth.login.resend')}>
      <p>{t('auth.login.resendPrompt')}</p>
      {snapshot.matches('failed') ? <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError> : null}
      <TextField
        label={t('auth.login.resendEmail')}
        name="resendEmail"
        type="email"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        value={values.email}
        onChange={(event) => actor.send({ type: 'FIELD.CHANGE', field: 'email', value: event.target.value })}
        errors={fieldMessages(t, fieldErrors.email)}
      />
      <div>
        <Button type="submit" variant="secondary" disabled={sending} aria-busy={sending}>
          {sending ? t('auth.login.resending') : t('auth.login.resend')}
        </Button>
      </div>
    </Box>
  );
}
