// @vitest-environment happy-dom
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { formatDate } from '../../../src/format.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import type { LoginRequest, Session } from '../../../src/machines/login.machine.ts';
import type {
  MarkNotificationsReadRequest,
  Notification,
  NotificationsPage,
  NotificationsRequest,
} from '../../../src/machines/notifications.machine.ts';
import DialogHost from '../../../src/views/dialogs/DialogHost.tsx';
import NotificationsDialog from '../../../src/views/dialogs/NotificationsDialog.tsx';
import { aUser } from '../machines/fixtures.ts';
import { deferred, renderWithServices, type Harness, type HarnessOptions } from './harness.tsx';

function aNotification(id: number, read = false): Notification {
  return {
    id,
    title: `Deposit ${id} received`,
    message: `Your deposit number ${id} has been credited.`,
    read,
    createdAt: `2025-02-01T18:${String(id % 60).padStart(2, '0')}:00.000Z`,
  };
}

const page = (rows: Notification[], count: number, unreadCount: number): NotificationsPage => ({ rows, count, unreadCount });

/** Fake API actors: `load` answers GET /common/user-notification, `mark` the POST; both record their inputs. */
function notificationActors(load: (request: NotificationsRequest) => Promise<NotificationsPage>, mark?: () => Promise<void>) {
  const loads: NotificationsRequest[] = [];
  const marks: number[][] = [];
  return {
    loads,
    marks,
    actors: {
      loadNotifications: fromPromise<NotificationsPage, NotificationsRequest>(async ({ input }) => {
        loads.push(input);
        return load(input);
      }),
      markNotificationsRead: fromPromise<void, MarkNotificationsReadRequest>(async ({ input }) => {
        marks.push([...input.notificationIds]);
        await mark?.();
      }),
    },
  };
}

/** Rows shown (counted without a role query: those are slow on long lists). */
const itemCount = () => document.querySelectorAll('[role="dialog"] li').length;

function renderDialog(options: HarnessOptions = {}) {
  const onClose = vi.fn();
  const harness = renderWithServices(<NotificationsDialog onClose={onClose} />, options);
  return { ...harness, onClose };
}

describe('NotificationsDialog', () => {
  it('is a labelled dialog that says it is loading', async () => {
    const answer = deferred<NotificationsPage>();
    const { actors, loads } = notificationActors(() => answer.promise);
    renderDialog({ actors });
    const dialog = screen.getByRole('dialog', { name: 'Notifications' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(within(dialog).getByRole('status').textContent).toBe('Loading…');
    expect(loads).toEqual([{ page: 1, limit: 20 }]);
    answer.resolve(page([], 0, 0));
    await screen.findByText('You have no notifications.');
  });

  it('lists the notifications newest first, with their dates; the unread ones are marked, and marked read', async () => {
    const rows = [aNotification(3), aNotification(2, true), aNotification(1)];
    const { actors, marks } = notificationActors(async () => page(rows, 3, 2));
    renderDialog({ actors });
    const list = await screen.findByRole('list', { name: 'Notifications' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
      'Deposit 3 received',
      'Deposit 2 received',
      'Deposit 1 received',
    ]);
    expect(items[0]!.textContent).toContain('Your deposit number 3 has been credited.');
    const time = items[0]!.querySelector('time');
    expect(time?.getAttribute('datetime')).toBe(rows[0]!.createdAt);
    expect(time?.textContent).toBe(formatDate(rows[0]!.createdAt, 'en', 'datetime'));
    // Unread: said in words (screen readers read it with the item) and shown by the item's look.
    expect(items.map((item) => item.textContent?.includes('Unread'))).toEqual([true, false, true]);
    expect(items.map((item) => item.getAttribute('data-unread'))).toEqual(['true', 'false', 'true']);
    await waitFor(() => expect(marks).toEqual([[3, 1]]));
    // Everything is loaded: nothing more to ask for.
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('speaks the chosen language, dates included', async () => {
    const rows = [aNotification(7)];
    const { actors } = notificationActors(async () => page(rows, 1, 1));
    renderDialog({ actors, language: 'pt' });
    expect(screen.getByRole('dialog', { name: 'Notificações' })).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Notificações' });
    expect(list.querySelector('time')?.textContent).toBe(formatDate(rows[0]!.createdAt, 'pt', 'datetime'));
    expect(list.textContent).toContain('Não lidas');
  });

  it('says so when there are none, and marks nothing', async () => {
    const { actors, marks } = notificationActors(async () => page([], 0, 0));
    renderDialog({ actors });
    const status = screen.getByRole('status');
    await waitFor(() => expect(status.textContent).toBe('You have no notifications.'));
    expect(status.getAttribute('aria-busy')).toBe('false');
    expect(screen.queryByRole('list')).toBeNull();
    expect(marks).toEqual([]);
  });

  it("shows a failure's message and loads again on Retry", async () => {
    let attempts = 0;
    const { actors, loads } = notificationActors(async () => {
      attempts += 1;
      if (attempts === 1) throw new ApiFailure(0, null);
      return page([aNotification(1, true)], 1, 0);
    });
    const { user } = renderDialog({ actors });
    expect((await screen.findByRole('alert')).textContent).toBe('Internal Server Error!');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('list', { name: 'Notifications' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(loads).toHaveLength(2);
  });

  it("shows a refusal's own message", async () => {
    const { actors } = notificationActors(async () => {
      throw new ApiFailure(403, 'USER_INACTIVE');
    });
    renderDialog({ actors });
    expect((await screen.findByRole('alert')).textContent).toBe('User Inactive');
  });

  it('loads more pages on demand, says how many unread wait there, and keeps the focus in the dialog at the end', async () => {
    const first = Array.from({ length: 20 }, (_, i) => aNotification(25 - i, i !== 0));
    const second = Array.from({ length: 5 }, (_, i) => aNotification(5 - i, i > 2));
    const answers = [deferred<NotificationsPage>()];
    const { actors, loads, marks } = notificationActors(async ({ page: number }) =>
      number === 1 ? page(first, 25, 4) : answers[0]!.promise,
    );
    const { user } = renderDialog({ actors });
    const more = await screen.findByRole('button', { name: 'Load more' });
    await waitFor(() => expect(marks).toEqual([[25]]));
    // The first page's unread one is read now; three wait on the next page.
    await waitFor(() => expect(screen.getByText('3 unread')).toBeTruthy());
    expect(document.getElementById(more.getAttribute('aria-describedby') ?? '')?.textContent).toBe('3 unread');

    await user.click(more);
    expect(more.getAttribute('aria-busy')).toBe('true');
    expect(more.textContent).toBe('Loading…');
    expect(loads).toEqual([
      { page: 1, limit: 20 },
      { page: 2, limit: 20 },
    ]);
    answers[0]!.resolve(page(second, 25, 3));
    await waitFor(() => expect(itemCount()).toBe(25));
    await waitFor(() => expect(marks).toEqual([[25], [5, 4, 3]]));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.queryByText(/unread$/)).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('list', { name: 'Notifications' }));
  });

  it('says "1 unread" in the singular', async () => {
    const first = Array.from({ length: 20 }, (_, i) => aNotification(21 - i, true));
    const { actors } = notificationActors(async () => page(first, 21, 1));
    renderDialog({ actors, language: 'pt' });
    expect(await screen.findByText('1 não lida')).toBeTruthy();
  });

  it('a page that fails keeps the list, and Retry asks for it again', async () => {
    const first = Array.from({ length: 20 }, (_, i) => aNotification(21 - i, true));
    let secondAttempts = 0;
    const { actors, loads } = notificationActors(async ({ page: number }) => {
      if (number === 1) return page(first, 21, 0);
      secondAttempts += 1;
      if (secondAttempts === 1) throw new ApiFailure(500, 'INTERNAL_SERVER_ERROR');
      return page([aNotification(1, true)], 21, 0);
    });
    const { user } = renderDialog({ actors });
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Internal server error');
    expect(itemCount()).toBe(20);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(itemCount()).toBe(21));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(loads.map((request) => request.page)).toEqual([1, 2, 2]);
  });

  it('a failed mark is silent', async () => {
    const { actors, marks } = notificationActors(
      async () => page([aNotification(1)], 1, 1),
      async () => {
        throw new ApiFailure(500, 'INTERNAL_SERVER_ERROR');
      },
    );
    renderDialog({ actors });
    await screen.findByRole('list', { name: 'Notifications' });
    await waitFor(() => expect(marks).toEqual([[1]]));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('closes from its close button and with Escape', async () => {
    const { actors } = notificationActors(async () => page([], 0, 0));
    const { user, onClose } = renderDialog({ actors });
    await screen.findByText('You have no notifications.');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});

describe('DialogHost: ?dialog=notifications', () => {
  function renderHost(options: HarnessOptions = {}) {
    const memory = memoryLocation({ path: '/wallet?dialog=notifications' });
    const harness = renderWithServices(
      <Router hook={memory.hook} searchHook={memory.searchHook}>
        <DialogHost verifyToken={null} onVerifyClosed={() => undefined} />
      </Router>,
      options,
    );
    return harness;
  }

  async function logInAsPlayer({ services }: Harness) {
    await waitFor(() => expect(services.app.getSnapshot().matches('visitor')).toBe(true));
    act(() => services.app.send({ type: 'SESSION.LOGGED_IN', accessToken: 'token-1', user: aUser() }));
  }

  it("shows a player's notifications", async () => {
    const { actors } = notificationActors(async () => page([aNotification(1, true)], 1, 0));
    const harness = renderHost({ actors });
    await logInAsPlayer(harness);
    expect(await screen.findByRole('dialog', { name: 'Notifications' })).toBeTruthy();
    await screen.findByRole('list', { name: 'Notifications' });
    await harness.user.click(screen.getByRole('button', { name: 'Close' }));
    expect(harness.navigations).toEqual(['/wallet']);
  });

  it('asks a visitor to log in first, then shows the notifications', async () => {
    const { actors, loads } = notificationActors(async () => page([aNotification(1)], 1, 1));
    const session: Session = { accessToken: 'token-2', user: aUser() };
    const login = fromPromise<Session, LoginRequest>(async () => session);
    const { user, navigations } = renderHost({ actors: { ...actors, login } });
    expect(await screen.findByRole('dialog', { name: 'Log in' })).toBeTruthy();
    expect(loads).toEqual([]);
    await user.type(screen.getByLabelText('Email or username'), 'ana7');
    await user.type(screen.getByLabelText('Password'), 'Secret1!');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('dialog', { name: 'Notifications' })).toBeTruthy();
    await screen.findByRole('list', { name: 'Notifications' });
    expect(navigations).toEqual([]);
  });

  it("a visitor who closes the login dialog leaves the address's dialog", async () => {
    const { user, navigations } = renderHost();
    await screen.findByRole('dialog', { name: 'Log in' });
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(navigations).toEqual(['/wallet']);
  });
});
