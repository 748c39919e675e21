// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { NotificationsPage, NotificationsRequest } from '../../../src/machines/notifications.machine.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import { Layout } from '../../../src/views/Layout.tsx';
import { aUser } from '../machines/fixtures.ts';
import { renderWithServices, type Harness, type HarnessOptions } from './harness.tsx';

/** GET /common/user-notification answered with `unread()` unread ones, each call recorded. */
function unreadCounter(unread: () => number | Error) {
  const loads: NotificationsRequest[] = [];
  const loadNotifications = fromPromise<NotificationsPage, NotificationsRequest>(async ({ input }) => {
    loads.push(input);
    const answer = unread();
    if (answer instanceof Error) throw answer;
    return { rows: [], count: answer, unreadCount: answer };
  });
  return { loads, loadNotifications };
}

function renderLayout(path: string, options: HarnessOptions = {}) {
  const memory = memoryLocation({ path });
  const harness = renderWithServices(
    <Router hook={memory.hook} searchHook={memory.searchHook}>
      <Layout>
        <p>Content</p>
      </Layout>
    </Router>,
    options,
  );
  return { ...harness, memory };
}

async function logIn({ services }: Harness) {
  await waitFor(() => expect(services.app.getSnapshot().matches('visitor')).toBe(true));
  act(() => services.app.send({ type: 'SESSION.LOGGED_IN', accessToken: 'token-1', user: aUser() }));
}

describe('Layout: the notifications button', () => {
  it('is not there for a visitor, and asks nothing', async () => {
    const { loads, loadNotifications } = unreadCounter(() => 2);
    const harness = renderLayout('/', { actors: { loadNotifications } });
    await waitFor(() => expect(harness.services.app.getSnapshot().matches('visitor')).toBe(true));
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Notifications/ })).toBeNull();
    expect(loads).toEqual([]);
  });

  it("shows a player's unread count as a badge and in its name, and opens the dialog on the current path", async () => {
    const { loads, loadNotifications } = unreadCounter(() => 2);
    const harness = renderLayout('/wallet/deposit', { actors: { loadNotifications } });
    await logIn(harness);
    const button = await screen.findByRole('button', { name: 'Notifications (2 unread)' });
    expect(button.textContent).toBe('2');
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');
    expect(loads).toEqual([{ page: 1, limit: 1 }]);
    await harness.user.click(button);
    expect(harness.navigations).toEqual(['/wallet/deposit?dialog=notifications']);
  });

  it('has no badge with nothing unread', async () => {
    const { loadNotifications } = unreadCounter(() => 0);
    const harness = renderLayout('/', { actors: { loadNotifications } });
    await logIn(harness);
    const button = await screen.findByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(harness.services.app.getSnapshot().matches({ player: 'ready' })).toBe(true));
    expect(button.textContent).toBe('');
  });

  it('speaks the singular, in the chosen language', async () => {
    const { loadNotifications } = unreadCounter(() => 1);
    const harness = renderLayout('/', { actors: { loadNotifications }, language: 'pt' });
    await logIn(harness);
    expect((await screen.findByRole('button', { name: 'Notificações (1 não lida)' })).textContent).toBe('1');
  });

  it('caps the badge at 99+, and the name keeps the count', async () => {
    const { loadNotifications } = unreadCounter(() => 1234);
    const harness = renderLayout('/', { actors: { loadNotifications } });
    await logIn(harness);
    expect((await screen.findByRole('button', { name: 'Notifications (1,234 unread)' })).textContent).toBe('99+');
  });

  it('a failed count leaves a plain button', async () => {
    const { loads, loadNotifications } = unreadCounter(() => new ApiFailure(500, 'INTERNAL_SERVER_ERROR'));
    const harness = renderLayout('/', { actors: { loadNotifications } });
    await logIn(harness);
    await waitFor(() => expect(loads).toHaveLength(1));
    const button = screen.getByRole('button', { name: 'Notifications' });
    expect(button.textContent).toBe('');
  });

  it('reads the count again when the notifications dialog closes', async () => {
    let unread = 3;
    const { loads, loadNotifications } = unreadCounter(() => unread);
    const harness = renderLayout('/bonus?dialog=notifications', { actors: { loadNotifications } });
    await logIn(harness);
    await screen.findByRole('button', { name: 'Notifications (3 unread)' });
    // The dialog marked them read meanwhile.
    unread = 0;
    act(() => harness.memory.navigate('/bonus?dialog=login'));
    await screen.findByRole('button', { name: 'Notifications' });
    expect(loads).toHaveLength(2);
    // Other dialogs coming and going do not ask again.
    act(() => harness.memory.navigate('/bonus'));
    expect(loads).toHaveLength(2);
  });

  it('goes with the session', async () => {
    const { loads, loadNotifications } = unreadCounter(() => 2);
    const harness = renderLayout('/', { actors: { loadNotifications } });
    await logIn(harness);
    await screen.findByRole('button', { name: 'Notifications (2 unread)' });
    await harness.user.click(screen.getByRole('button', { name: 'Account' }));
    await harness.user.click(screen.getByRole('menuitem', { name: 'Log out' }));
    await screen.findByRole('button', { name: 'Log in' });
    expect(screen.queryByRole('button', { name: /^Notifications/ })).toBeNull();
    await logIn(harness);
    await screen.findByRole('button', { name: 'Notifications (2 unread)' });
    expect(loads).toHaveLength(2);
  });
});
