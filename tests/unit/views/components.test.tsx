// @vitest-environment happy-dom
import { createElement, useState, type ReactNode } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setup as setupGoober } from 'goober';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dialog, type DialogSize } from '../../../src/views/components/Dialog.tsx';
import { TextField } from '../../../src/views/components/Form.tsx';
import { Button } from '../../../src/views/components/Button.tsx';

// The app calls goober's setup in its mount function (src/views/App.tsx); the components need it too.
setupGoober(createElement);

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('Button', () => {
  it('keeps its variant off the DOM, as a data attribute the styles read', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <>
        <Button type="button">Play</Button>
        <Button type="button" variant="secondary">
          Log out
        </Button>
        <Button type="button" variant="link">
          Forgot your password?
        </Button>
      </>,
    );
    const play = screen.getByRole('button', { name: 'Play' });
    const logout = screen.getByRole('button', { name: 'Log out' });
    const link = screen.getByRole('button', { name: 'Forgot your password?' });
    for (const button of [play, logout, link]) {
      expect(button.tagName).toBe('BUTTON');
      expect(button.hasAttribute('variant')).toBe(false);
    }
    expect(play.dataset.variant).toBe('primary');
    expect(logout.dataset.variant).toBe('secondary');
    expect(link.dataset.variant).toBe('link');
    expect(link.getAttribute('type')).toBe('button');
    // React says nothing about an unknown `variant` attribute.
    expect(errors.mock.calls.flat().join(' ')).not.toMatch(/variant/i);
  });

  it('still takes the button attributes and its click handler', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    render(
      <Button type="submit" disabled aria-busy onClick={onClick}>
        Sending
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Sending' });
    expect(button).toHaveProperty('disabled', true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    await user.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });
});

/** A page with a button that opens a dialog holding `content`; closing it calls `onClose` too. */
function Page({ content, size, onClose = () => {} }: { content: ReactNode; size?: DialogSize; onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <main>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <button type="button">Elsewhere</button>
      {open ? (
        <Dialog
          title="Log in"
          closeLabel="Close"
          size={size}
          onClose={() => {
            onClose();
            setOpen(false);
          }}
        >
          {content}
        </Dialog>
      ) : null}
    </main>
  );
}

const loginForm = (
  <>
    <button type="button">Continue with Google</button>
    <form>
      <TextField label="Email" name="email" />
      <TextField label="Password" name="password" type="password" />
      <Button type="submit">Log in</Button>
    </form>
    <Button type="button" variant="link">
      Create an account
    </Button>
  </>
);

async function openDialog(content: ReactNode, options: { size?: DialogSize; onClose?: () => void } = {}) {
  const user = userEvent.setup();
  render(<Page content={content} {...options} />);
  const opener = screen.getByRole('button', { name: 'Open' });
  await user.click(opener);
  const dialog = await screen.findByRole('dialog', { name: 'Log in' });
  return { user, opener, dialog };
}

describe('Dialog', () => {
  it('opens on its first form field, not on the close button nor an earlier button', async () => {
    const { dialog } = await openDialog(loginForm);
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
  });

  it('without form fields, opens on its first control other than the close button', async () => {
    await openDialog(
      <>
        <p>Your email is verified.</p>
        <button type="button">Log in now</button>
      </>,
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Log in now' }));
  });

  it('with nothing to focus but the close button, opens on the dialog itself', async () => {
    const { dialog } = await openDialog(<p>Nothing to do here.</p>);
    expect(document.activeElement).toBe(dialog);
  });

  it('leaves focus where a child asked for it (autoFocus)', async () => {
    await openDialog(
      <>
        <TextField label="Email" name="email" />
        <button type="button" autoFocus>
          Done
        </button>
      </>,
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Done' }));
  });

  it('keeps Tab and Shift+Tab inside while open', async () => {
    const { user, dialog } = await openDialog(loginForm);
    const close = screen.getByRole('button', { name: 'Close' });
    const last = screen.getByRole('button', { name: 'Create an account' });
    const order = [
      close,
      screen.getByRole('button', { name: 'Continue with Google' }),
      screen.getByLabelText('Email'),
      screen.getByLabelText('Password'),
      screen.getByRole('button', { name: 'Log in' }),
      last,
    ];
    // Forward from the first field round to the start, twice over, never leaving the dialog.
    const seen: Element[] = [];
    for (let step = 0; step < order.length * 2; step += 1) {
      await user.tab();
      seen.push(document.activeElement as Element);
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    expect(seen.slice(0, order.length)).toEqual([...order.slice(3), ...order.slice(0, 3)]);
    // Backward from the first control wraps to the last.
    close.focus();
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(last);
    await user.tab();
    expect(document.activeElement).toBe(close);
  });

  it('Escape closes it and gives focus back to what opened it', async () => {
    const onClose = vi.fn();
    const { user, opener } = await openDialog(loginForm, { onClose });
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('the close button closes it and gives focus back too', async () => {
    const { user, opener } = await openDialog(
      <button type="button" autoFocus>
        Done
      </button>,
    );
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    // Even when a child took focus first (autoFocus), the opener is the one remembered.
    expect(document.activeElement).toBe(opener);
  });

  it('is narrow unless asked to be wide, and never wider than the screen', async () => {
    const { dialog } = await openDialog(loginForm);
    expect(dialog.dataset.size).toBe('narrow');
    cleanup();
    const wide = await openDialog(loginForm, { size: 'wide' });
    expect(wide.dialog.dataset.size).toBe('wide');
    // goober's rules, in the style elements it adds to the head.
    const css = [...document.head.querySelectorAll('style')].map((style) => style.textContent).join('');
    expect(css).toContain('width:min(100%, 28rem)');
    expect(css).toMatch(/\[data-size='wide'\]\{width:min\(100%, 40rem\);?\}/);
  });
});
