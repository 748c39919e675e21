import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { errorMessageKey } from '../../api/errors.ts';
import { changePasswordMachine, newPasswordTicks } from '../../machines/changePassword.machine.ts';
import { FormError } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { Actions, Form, formBindings, PasswordField, PasswordRules } from '../dialogs/parts.tsx';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { useFlow } from '../wiring.ts';

const Done = styled('p')`
  margin: 0 0 ${theme.space(3)};
  color: ${theme.color.success};
  font-weight: 600;
`;

/** The profile's change-password section (src/machines/changePassword.machine.ts). */
export default function ChangePassword() {
  const { t } = useT();
  const actor = useFlow(changePasswordMachine);
  const snapshot = useSelector(actor, (s) => s);
  const { values, fieldErrors, errorCode } = snapshot.context;
  const submitting = snapshot.matches('submitting');
  const { field, submit } = formBindings(actor.send, t, values, fieldErrors);
  return (
    <Form onSubmit={submit} noValidate>
      {snapshot.matches('failed') ? <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError> : null}
      {snapshot.matches('changed') ? <Done role="status">{t('messages.passwordChanged')}</Done> : null}
      <PasswordField label={t('profile.changePassword.currentPassword')} autoComplete="current-password" {...field('oldPassword')} />
      <PasswordField
        label={t('profile.changePassword.newPassword')}
        autoComplete="new-password"
        hint={<PasswordRules ticks={newPasswordTicks(snapshot.context)} />}
        {...field('newPassword')}
      />
      <PasswordField label={t('profile.changePassword.confirmPassword')} autoComplete="new-password" {...field('confirmPassword')} />
      <Actions>
        <Button type="submit" disabled={submitting} aria-busy={submitting}>
          {submitting ? t('common.submitting') : t('profile.changePassword.submit')}
        </Button>
      </Actions>
    </Form>
  );
}
