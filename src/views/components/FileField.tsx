import type { InputHTMLAttributes, Ref } from 'react';
import { styled } from 'goober';
import { theme } from '../theme.ts';

/*
 * A file picker in the app's look: its label, then a button-like label in the player's language in place
 * of the native control's (whose button speaks the browser's language and ignores the theme). The input
 * itself stays in the page, visually hidden, so keyboard focus, screen readers and tests reach it by its
 * label.
 */

const Box = styled('div')`
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  gap: ${theme.space(1)};
  label {
    font-size: ${theme.font.size.small};
    color: ${theme.color.textMuted};
  }
  input[type='file'] {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    overflow: hidden;
    clip: rect(0, 0, 0, 0);
    border: 0;
  }
  .pick {
    display: inline-flex;
    align-items: center;
    min-height: 2.75rem;
    padding: 0 ${theme.space(4)};
    font-size: ${theme.font.size.body};
    font-weight: 600;
    color: ${theme.color.text};
    background: ${theme.color.surfaceRaised};
    border: 1px solid ${theme.color.border};
    border-radius: ${theme.radius.small};
    cursor: pointer;
  }
  input[type='file']:focus-visible + .pick {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
  }
  input[type='file']:disabled + .pick {
    opacity: 0.6;
    cursor: not-allowed;
  }
`;

export interface FileFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  id: string;
  /** What the file is for: the input's accessible name. */
  label: string;
  /** The button's text ("Choose file"). */
  button: string;
  ref?: Ref<HTMLInputElement>;
}

export function FileField({ id, label, button, ref, ...input }: FileFieldProps) {
  return (
    <Box>
      <label htmlFor={id}>{label}</label>
      <input ref={ref} id={id} type="file" {...input} />
      <label htmlFor={id} className="pick" aria-hidden="true">
        {button}
      </label>
    </Box>
  );
}
