import type { ButtonHTMLAttributes, Ref } from 'react';
import { styled } from 'goober';
import { theme } from '../theme.ts';

/* The product's button, on its own: the shell's first load needs it, not the form fields (./Form.tsx). */

const ButtonBox = styled('button')`
  font: inherit;
  font-weight: 600;
  border-radius: ${theme.radius.medium};
  padding: ${theme.space(2.5)} ${theme.space(4)};
  min-height: 2.75rem;
  cursor: pointer;
  border: 1px solid transparent;
  background: ${theme.color.accentStrong};
  color: ${theme.color.accentText};
  text-decoration: none;
  &[data-variant='secondary'] {
    border-color: ${theme.color.border};
    background: transparent;
  }
  &[data-variant='link'] {
    background: transparent;
    color: ${theme.color.link};
    text-decoration: underline;
  }
  &:hover:not(:disabled) {
    filter: brightness(1.15);
  }
  &:disabled {
    opacity: 0.6;
    cursor: progress;
  }
  &:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
  }
`;

export type ButtonVariant = 'primary' | 'secondary' | 'link';

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  ref?: Ref<HTMLButtonElement>;
};

/**
 * The product's button. `variant` picks its look through a `data-variant` attribute: goober's `styled`
 * hands every prop to the element, and `variant` is no HTML attribute (React warns about it).
 */
export function Button({ variant = 'primary', ...button }: ButtonProps) {
  return <ButtonBox data-variant={variant} {...button} />;
}
