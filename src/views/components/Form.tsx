import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
} from 'react';
import { styled } from 'goober';
import { theme } from '../theme.ts';

const FieldBox = styled('div')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(1)};
  margin-bottom: ${theme.space(3)};
  label {
    font-size: ${theme.font.size.small};
    color: ${theme.color.textMuted};
  }
  input,
  select {
    font: inherit;
    color: ${theme.color.text};
    background: ${theme.color.background};
    border: 1px solid ${theme.color.border};
    border-radius: ${theme.radius.small};
    padding: ${theme.space(2.5)} ${theme.space(3)};
    min-height: 2.75rem;
  }
  input:focus-visible,
  select:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 1px;
  }
  input[aria-invalid='true'],
  select[aria-invalid='true'] {
    border-color: ${theme.color.danger};
  }
`;

const Errors = styled('ul')`
  margin: 0;
  padding: 0;
  list-style: none;
  color: ${theme.color.danger};
  font-size: ${theme.font.size.small};
`;

/** A field's messages, announced as they appear; nothing when there are none. */
function FieldErrors({ id, messages }: { id: string; messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <Errors id={id} role="alert">
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </Errors>
  );
}

interface FieldFrameProps {
  label: string;
  /** Messages shown beside the field, already translated. */
  errors?: readonly string[];
  hint?: ReactNode;
}

type InputProps = FieldFrameProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>;

/** A labelled input whose errors are announced and tied to it (aria-describedby). */
export function TextField({ label, errors = [], hint, ...input }: InputProps) {
  const id = useId();
  const errorId = `${id}-errors`;
  const hintId = `${id}-hint`;
  const described = [errors.length ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <FieldBox>
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={errors.length > 0} aria-describedby={described} {...input} />
      {hint ? <div id={hintId}>{hint}</div> : null}
      <FieldErrors id={errorId} messages={errors} />
    </FieldBox>
  );
}

type SelectProps = FieldFrameProps & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & { children: ReactNode };

export function SelectField({ label, errors = [], hint, children, ...select }: SelectProps) {
  const id = useId();
  const errorId = `${id}-errors`;
  return (
    <FieldBox>
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={errors.length > 0} aria-describedby={errors.length ? errorId : undefined} {...select}>
        {children}
      </select>
      {hint}
      <FieldErrors id={errorId} messages={errors} />
    </FieldBox>
  );
}

export const FormError = styled('p')`
  color: ${theme.color.danger};
  margin: 0 0 ${theme.space(3)};
`;
