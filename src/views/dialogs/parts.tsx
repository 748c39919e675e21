import { useEffect, useRef, useState, type FormEvent as SubmitEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { css, styled } from 'goober';
import type { MessageKey, Translator } from '../../i18n/index.ts';
import type { PasswordCheck } from '../../rules/password.ts';
import { useT } from '../i18n-context.ts';
import { TextField } from '../components/Form.tsx';
import { theme } from '../theme.ts';

/*
 * Pieces the account dialogs share. Presentation only: the machines decide what is valid and what
 * happens; these turn their codes into translated text and their ticks into an accessible list.
 */

/** The dialogs a dialog can hand over to (the host's `switchTo`). */
export type AccountDialogName = 'login' | 'register' | 'forgot-password';

/** The latest value of a prop, for the side effects a machine is provided with once per mount. */
export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  });
  return ref;
}

/** The dialogs' forms take it from here with their other parts. */
import { fieldMessages } from '../../api/errors.ts';
export { fieldMessages };

/** What a form flow's view sends it (src/machines/form.ts). */
type FormEvent<TField extends string> = { type: 'FIELD.CHANGE'; field: TField; value: string } | { type: 'SUBMIT' };

/** A form view's bindings to its flow: each field's name, value, change and messages, and the submit. */
export function formBindings<TField extends string>(
  send: (event: FormEvent<TField>) => void,
  t: Translator['t'],
  values: Record<TField, string>,
  fieldErrors: Partial<Record<TField, readonly string[]>>,
) {
  return {
    field: (name: TField) => ({
      name,
      value: values[name],
      onChange: (event: { target: { value: string } }) => send({ type: 'FIELD.CHANGE', field: name, value: event.target.value }),
      errors: fieldMessages(t, fieldErrors[name]),
    }),
    submit: (event: SubmitEvent) => {
      event.preventDefault();
      send({ type: 'SUBMIT' });
    },
  };
}

/** Text only screen readers get. */
export const visuallyHidden = css`
  position: absolute;
  width: 1px;
  height: 1px;
  padding: 0;
  margin: -1px;
  overflow: hidden;
  clip: rect(0, 0, 0, 0);
  white-space: nowrap;
  border: 0;
`;

export const Form = styled('form')`
  display: flex;
  flex-direction: column;
`;

export const Intro = styled('p')`
  margin: 0 0 ${theme.space(4)};
  color: ${theme.color.textMuted};
`;

/** Two fields side by side from the tablet width up; stacked on phones. */
export const Row = styled('div')<{ columns?: string }>`
  display: grid;
  grid-template-columns: 1fr;
  ${theme.breakpoint.tablet} {
    grid-template-columns: ${(p) => p.columns ?? '1fr 1fr'};
    column-gap: ${theme.space(3)};
  }
  & > * {
    min-width: 0;
  }
`;

export const Actions = styled('div')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(2)};
  margin-top: ${theme.space(2)};
`;

export const Links = styled('p')`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space(2)};
  margin: ${theme.space(3)} 0 0;
  font-size: ${theme.font.size.small};
  color: ${theme.color.textMuted};
  button {
    min-height: 2.75rem;
    padding: 0 ${theme.space(1)};
  }
`;

export const Divider = styled('p')`
  display: flex;
  align-items: center;
  gap: ${theme.space(3)};
  margin: ${theme.space(4)} 0;
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.small};
  &::before,
  &::after {
    content: '';
    flex: 1;
    border-top: 1px solid ${theme.color.border};
  }
`;

export const Panel = styled('div')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(4)};
  p {
    margin: 0;
  }
`;

const ToggleBox = styled('div')`
  display: flex;
  justify-content: flex-end;
  margin: -${theme.space(2)} 0 ${theme.space(2)};
`;

const Toggle = styled('button')`
  font: inherit;
  font-size: ${theme.font.size.small};
  background: transparent;
  border: 0;
  color: ${theme.color.link};
  text-decoration: underline;
  cursor: pointer;
  min-height: 2rem;
  padding: 0 ${theme.space(1)};
  &:focus-visible {
    outline: 2px solid ${theme.color.focus};
  }
`;

type PasswordFieldProps = { label: string; errors?: readonly string[] } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'type'
> & { hint?: ReactNode };

/** A password input with a show/hide switch under it. */
export function PasswordField({ label, errors, hint, ...input }: PasswordFieldProps) {
  const { t } = useT();
  const [shown, setShown] = useState(false);
  return (
    <>
      <TextField label={label} errors={errors} hint={hint} type={shown ? 'text' : 'password'} {...input} />
      <ToggleBox>
        <Toggle type="button" onClick={() => setShown((value) => !value)}>
          {t(shown ? 'common.hidePassword' : 'common.showPassword')}
        </Toggle>
      </ToggleBox>
    </>
  );
}

const RulesTitle = styled('span')`
  font-size: ${theme.font.size.small};
  color: ${theme.color.textMuted};
`;

const RulesList = styled('ul')`
  list-style: none;
  margin: ${theme.space(1)} 0 0;
  padding: 0;
  font-size: ${theme.font.size.small};
  li {
    display: flex;
    gap: ${theme.space(2)};
    align-items: baseline;
    color: ${theme.color.textMuted};
  }
  li[data-met='true'] {
    color: ${theme.color.success};
  }
`;

/** One label per rule, in the SPEC §5 order (a Record: a new rule without a label does not compile). */
const CHECK_LABELS: Readonly<Record<PasswordCheck, MessageKey>> = {
  minLength: 'rules.password.minLength',
  uppercase: 'rules.password.uppercase',
  lowercase: 'rules.password.lowercase',
  number: 'rules.password.number',
  special: 'rules.password.special',
  noSpaces: 'rules.password.noSpaces',
  printable: 'rules.password.printable',
};

/** The live checklist of the password rules; each item says "done" / "not yet" to screen readers. */
export function PasswordRules({ ticks }: { ticks: Readonly<Record<PasswordCheck, boolean>> }) {
  const { t } = useT();
  return (
    <>
      <RulesTitle>{t('auth.register.passwordRulesTitle')}</RulesTitle>
      <RulesList aria-label={t('auth.register.passwordRulesTitle')}>
        {(Object.keys(CHECK_LABELS) as PasswordCheck[]).map((check) => {
          const met = ticks[check];
          return (
            <li key={check} data-met={met}>
              <span aria-hidden="true">{met ? '✓' : '○'}</span>
              <span>
                {t(CHECK_LABELS[check])}
                <span className={visuallyHidden}>
                  {' '}
                  ({t(met ? 'auth.register.ruleMet' : 'auth.register.ruleUnmet')})
                </span>
              </span>
            </li>
          );
        })}
      </RulesList>
    </>
  );
}
