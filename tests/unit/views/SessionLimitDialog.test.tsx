// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../../src/machines/effects.ts';
import DialogHost from '../../../src/views/dialogs/DialogHost.tsx';
import { aUser } from '../machines/fixtures.ts';
import { renderWithServices } from './harness.tsx';

/*
 * The session-limit dialog (?dialog=session-limit&played=N): where the app sends the player the reality
 * check logged out at the session limit. It says how long they played, that the session has ended, and
 * offers Log in again (the login dialog) and Close.
 */

function renderHost(path: string, language?: Language) {
  const memory = memoryLocation({ path });
  return renderWithServices(
    <Router hook={memory.hook} searchHook={memory.searchHook}>
      <DialogHost verifyToken={null} onVerifyClosed={() => undefined} />
    </Router>,
    { language },
  );
}

describe('DialogHost: ?dialog=session-limit', () => {
  it('says how long the player played and that the session ended; Log in again opens the login dialog', async () => {
    const { user, navigations } = renderHost('/?dialog=session-limit&played=75');
    const dialog = await screen.findByRole('dialog', { name: 'Reality check' });
    expect(dialog.textContent).toContain('You have played for 1 h 15 min.');
    expect(dialog.textContent).toContain('You have reached your session limit: this session has ended.');
    expect(dialog.textContent).toContain('Take a break, or log in again to keep playing.');
    await user.click(screen.getByRole('button', { name: 'Log in again' }));
    expect(navigations).toEqual(['/?dialog=login']);
  });

  it('Close leaves the lobby without the dialog', async () => {
    const { user, navigations } = renderHost('/?dialog=session-limit&played=15');
    const dialog = await screen.findByRole('dialog', { name: 'Reality check' });
    expect(dialog.textContent).toContain('You have played for 15 min.');
    const close = screen.getAllByRole('button', { name: 'Close' });
    await user.click(close[close.length - 1]!);
    expect(navigations).toEqual(['/']);
  });

  it('leaves out the time played when the address does not give a number of minutes', async () => {
    renderHost('/?dialog=session-limit&played=abc');
    const dialog = await screen.findByRole('dialog', { name: 'Reality check' });
    expect(dialog.textContent).not.toContain('You have played');
    expect(dialog.textContent).toContain('You have reached your session limit: this session has ended.');
  });

  it.each([
    ['pt', 'Alerta de realidade', 'Jogou durante 1 h.', 'Iniciar sessão de novo'],
    ['es', 'Aviso de realidad', 'Has jugado durante 1 h.', 'Volver a iniciar sesión'],
  ] as const)('speaks %s', async (language, title, played, login) => {
    renderHost('/?dialog=session-limit&played=60', language);
    const dialog = await screen.findByRole('dialog', { name: title });
    expect(dialog.textContent).toContain(played);
    expect(screen.getByRole('button', { name: login })).toBeTruthy();
  });

  it('shows nothing to a player (logged in again meanwhile)', async () => {
    const { services } = renderHost('/?dialog=session-limit&played=60');
    await waitFor(() => expect(services.app.getSnapshot().matches('visitor')).toBe(true));
    await screen.findByRole('dialog', { name: 'Reality check' });
    act(() => services.app.send({ type: 'SESSION.LOGGED_IN', accessToken: 'token-1', user: aUser() }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
