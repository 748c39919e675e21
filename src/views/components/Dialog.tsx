import { useEffect, useId, useRef, type ReactNode } from 'react';
import { styled } from 'goober';
import { theme } from '../theme.ts';

const Backdrop = styled('div')`
  position: fixed;
  inset: 0;
  background: rgba(8, 4, 20, 0.75);
  display: flex;
  align-items: flex-start;
  justify-content: center;
  overflow-y: auto;
  padding: ${theme.space(4)} ${theme.space(2)};
  z-index: 50;
`;

const Panel = styled('div')`
  background: ${theme.color.surface};
  color: ${theme.color.text};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.large};
  width: 100%;
  max-width: 28rem;
  padding: ${theme.space(6)} ${theme.space(5)};
  position: relative;
  box-shadow: 0 20px 60px rgba(0, 0, 0, 0.5);
  &:focus {
    outline: none;
  }
`;

const Title = styled('h2')`
  margin: 0 0 ${theme.space(4)};
  font-size: ${theme.font.size.large};
`;

const Close = styled('button')`
  position: absolute;
  top: ${theme.space(3)};
  right: ${theme.space(3)};
  background: transparent;
  color: ${theme.color.textMuted};
  border: 0;
  font-size: 1.5rem;
  line-height: 1;
  cursor: pointer;
  padding: ${theme.space(1)} ${theme.space(2)};
  border-radius: ${theme.radius.small};
  &:focus-visible {
    outline: 2px solid ${theme.color.focus};
  }
`;

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  title: string;
  closeLabel: string;
  onClose: () => void;
  children: ReactNode;
}

/** A modal dialog: labelled, focus kept inside while open and given back to where it was on close, Escape closes. */
export function Dialog({ title, closeLabel, onClose, children }: DialogProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus();
    return () => previous?.focus();
  }, []);
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };
  return (
    <Backdrop onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <Panel ref={panel} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} onKeyDown={onKeyDown}>
        <Title id={titleId}>{title}</Title>
        <Close type="button" aria-label={closeLabel} onClick={onClose}>
          ×
        </Close>
        {children}
      </Panel>
    </Backdrop>
  );
}
