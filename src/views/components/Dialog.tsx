import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { styled } from 'goober';
import { SHELL_ID, theme } from '../theme.ts';

const Backdrop = styled('div')`
  position: fixed;
  inset: 0;
  background: rgba(8, 4, 20, 0.75);
  display: flex;
  align-items: flex-start;
  justify-content: center;
  overflow-y: auto;
  /* The top strip is the toasts': a dialog starts below it, so no toast covers its title or its close button. */
  padding: ${theme.layout.toastStrip} ${theme.space(2)} ${theme.space(4)};
  z-index: 50;
`;

const Panel = styled('div')`
  background: ${theme.color.surface};
  color: ${theme.color.text};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.large};
  /* Never wider than the viewport less the backdrop's margins (a 360 px phone keeps 344 px). */
  width: min(100%, 28rem);
  &[data-size='wide'] {
    width: min(100%, 40rem);
  }
  &[data-size='large'] {
    width: min(100%, 60rem);
  }
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
  top: ${theme.space(2)};
  right: ${theme.space(2)};
  background: transparent;
  color: ${theme.color.textMuted};
  border: 0;
  font-size: 1.5rem;
  line-height: 1;
  cursor: pointer;
  min-width: 2.75rem;
  min-height: 2.75rem;
  border-radius: ${theme.radius.small};
  &:focus-visible {
    outline: 2px solid ${theme.color.focus};
  }
`;

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The form fields a dialog opens on, before any other control. */
const FIELD = 'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled])';

/** The focused element; null when nothing is (focus on the page's body). */
function focusedElement(): HTMLElement | null {
  const active = document.activeElement;
  return active instanceof HTMLElement && active !== document.body ? active : null;
}

export type DialogSize = 'narrow' | 'wide' | 'large';

export interface DialogProps {
  title: string;
  closeLabel: string;
  onClose: () => void;
  /** 'narrow' (28rem, the default), 'wide' (40rem, for two fields to a row) or 'large' (60rem, for a table); all shrink to fit a phone. */
  size?: DialogSize;
  children: ReactNode;
}

/**
 * A modal dialog: labelled; it opens on its first form field (else its first control other than the close
 * button, else itself), unless a child asked for focus (autoFocus); Tab and Shift+Tab stay inside while it is
 * open; Escape closes it; on close, focus goes back to where it was before it opened.
 */
export function Dialog({ title, closeLabel, onClose, size = 'narrow', children }: DialogProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  // Read while rendering, before a child's autoFocus moves focus into the dialog.
  const [focusedBeforeOpening] = useState(focusedElement);
  // What is behind the dialog is out of reach while it is open: no focus, no clicks, not read out. (Before
  // the focus effect below, so that its clean-up can give the focus back to the page.)
  useEffect(() => {
    const shell = document.getElementById(SHELL_ID);
    if (!shell) return;
    shell.inert = true;
    return () => {
      shell.inert = false;
    };
  }, []);
  useEffect(() => {
    const box = panel.current;
    if (!box) return;
    const now = focusedElement();
    // When another dialog made way for this one, the element focused at render time is gone: its own
    // clean-up has by now given focus back to what opened it, and that is where this one returns too.
    const opener =
      focusedBeforeOpening?.isConnected && !box.contains(focusedBeforeOpening)
        ? focusedBeforeOpening
        : now && !box.contains(now)
          ? now
          : null;
    if (!now || !box.contains(now)) {
      const start =
        box.querySelector<HTMLElement>(FIELD) ??
        [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].find((item) => item !== closeButton.current);
      (start ?? box).focus();
    }
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, [focusedBeforeOpening]);
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      // Nothing to move to: focus stays on the dialog.
      event.preventDefault();
      return;
    }
    const current = document.activeElement;
    const inside = current instanceof HTMLElement && items.includes(current);
    if (event.shiftKey && (current === first || !inside)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (current === last || !inside)) {
      event.preventDefault();
      first.focus();
    }
  };
  return (
    <Backdrop onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <Panel
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-size={size}
        onKeyDown={onKeyDown}
      >
        <Title id={titleId}>{title}</Title>
        <Close ref={closeButton} type="button" aria-label={closeLabel} onClick={onClose}>
          ×
        </Close>
        {children}
      </Panel>
    </Backdrop>
  );
}
