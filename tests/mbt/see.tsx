import { useState, type ReactElement } from 'react';
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { Translator } from '../../src/i18n/index.ts';
import { fieldMessages } from '../../src/views/dialogs/parts.tsx';
import type { UserEvents } from './run.tsx';
import { renderWithServices, type Harness, type HarnessOptions } from '../unit/views/harness.tsx';

/*
 * What the player sees and does, shared by the model tests: dialogs that really close, fields found by
 * their labels, the messages beside them, the form's alert.
 */

/** A dialog that goes away when it closes itself, as it does in the app (the host takes it out of the address). */
export function Stage({ children }: { children: (close: () => void) => ReactElement }) {
  const [open, setOpen] = useState(true);
  return open ? children(() => setOpen(false)) : null;
}

/**
 * Renders a dialog opened from the address (`/?dialog=name`) as the app opens it: shown until a navigation
 * takes it out of the address (a flow that closes its dialog does so through the wiring), or it closes itself.
 */
export function renderDialogInAddress(
  name: string,
  dialog: (close: () => void) => ReactElement,
  options: HarnessOptions = {},
): Harness {
  let close = () => {};
  return renderWithServices(
    <Stage>
      {(onClose) => {
        close = onClose;
        return dialog(onClose);
      }}
    </Stage>,
    {
      ...options,
      address: `/?dialog=${name}`,
      navigate: (to) => {
        if (new URL(to, 'http://localhost').searchParams.get('dialog') !== name) close();
      },
    },
  );
}

/** Replaces what a field holds the way a player does: select it all, then paste (or delete) — one change. */
export async function setField(user: UserEvents, label: string, value: string): Promise<void> {
  const field = screen.getByLabelText(label);
  if (field instanceof HTMLSelectElement) {
    await user.selectOptions(field, value);
    return;
  }
  if ((field as HTMLInputElement).value === '') await user.click(field);
  else await user.tripleClick(field);
  if (value === '') await user.keyboard('{Backspace}');
  else await user.paste(value);
}

/** Text as Testing Library matches it: its whitespace (the no-break space of amounts) made plain spaces. */
export function spaced(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/** The messages listed under a field (its aria-describedby list), in order. */
export function messagesOf(field: HTMLElement): string[] {
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids
    .map((id) => document.getElementById(id))
    .filter((element): element is HTMLElement => element?.getAttribute('role') === 'alert')
    .flatMap((list) => within(list).queryAllByRole('listitem').map((item) => item.textContent ?? ''));
}

/** A field shows its value and exactly the messages of its codes. */
export function expectField(t: Translator['t'], label: string, value: string, codes: readonly string[] | undefined): void {
  const field = screen.getByLabelText(label) as HTMLInputElement | HTMLSelectElement;
  expect(field.value, `value of ${label}`).toBe(value);
  const messages = fieldMessages(t, codes);
  expect(messagesOf(field), `messages under ${label}`).toEqual(messages);
  expect(field.getAttribute('aria-invalid'), `${label} marked invalid`).toBe(String(messages.length > 0));
}

/** The form-level alerts (a paragraph; field messages are lists). */
export function formAlerts(container: HTMLElement = document.body): string[] {
  return within(container)
    .queryAllByRole('alert')
    .filter((element) => element.tagName === 'P')
    .map((element) => element.textContent ?? '');
}

export function button(name: string): HTMLButtonElement {
  return screen.getByRole('button', { name }) as HTMLButtonElement;
}

/** A submit button at rest, or busy (disabled, aria-busy, its busy label). */
export function expectButton(name: string, busy: boolean): void {
  const element = button(name);
  expect(element.disabled, `${name} disabled`).toBe(busy);
  expect(element.getAttribute('aria-busy'), `${name} aria-busy`).toBe(String(busy));
}
