// @vitest-environment happy-dom
import { Suspense } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { expect, vi } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { ACCESS_TOKEN, PLAYER } from '../../src/flows/fixtures/players.ts';
import { unreadNotificationsFixtures } from '../../src/flows/fixtures/unreadNotifications.ts';
import type { NotificationsPage, NotificationsRequest } from '../../src/machines/notifications.machine.ts';
import type { unreadNotificationsMachine } from '../../src/machines/unreadNotifications.machine.ts';
import DialogHost from '../../src/views/dialogs/DialogHost.tsx';
import { Layout } from '../../src/views/Layout.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type BellView = View<typeof unreadNotificationsMachine>;
type BellSnapshot = SnapshotFrom<typeof unreadNotificationsMachine>;

/*
 * The header's bell, there for a logged-in player: the layout and the dialog host render as in the app,
 * on a router of their own that the services' navigate moves. The player logs in before each path
 * starts (the app actor of the harness goes from visitor to player), and the bell reads the unread count.
 *
 * REFRESH is what the layout sends when the notifications dialog closes: the player clicks the bell (the
 * address gets ?dialog=notifications and the real dialog opens), then closes the dialog with its close
 * button (the host takes the dialog out of the address). The dialog's own load (20 rows, not the bell's
 * one) is left unanswered: it is the notifications model's business, and it stops with the dialog.
 */

/** The most the badge spells out (src/views/Layout.tsx). */
const BADGE_MAX = 99;

function bellOf(view: BellView, snapshot: BellSnapshot): HTMLButtonElement {
  const unread = snapshot.context.unreadCount ?? 0;
  const count = unread.toLocaleString(view.language);
  const name = unread === 0 ? view.t('nav.notifications') : view.t(unread === 1 ? 'notifications.buttonOne' : 'notifications.button', { count });
  return screen.getByRole('button', { name }) as HTMLButtonElement;
}

/** The count the machine holds (the last one read; none before the first answer), in the bell's name and badge. */
function seeBell(view: BellView, snapshot: BellSnapshot) {
  const unread = snapshot.context.unreadCount ?? 0;
  const bell = bellOf(view, snapshot);
  expect(bell.getAttribute('aria-haspopup')).toBe('dialog');
  expect(bell.textContent, 'badge').toBe(unread === 0 ? '' : unread > BADGE_MAX ? `${BADGE_MAX}+` : unread.toLocaleString(view.language));
  expect(screen.getByRole('button', { name: view.t('nav.account') })).toBeTruthy();
  expect(screen.queryByRole('dialog'), 'the dialog is closed').toBeNull();
  // Closing the dialog gave the focus back to the bell that opened it.
  if (view.steps.some((step) => step.event.type === 'REFRESH')) expect(document.activeElement, 'focus on the bell').toBe(bell);
}

describeModel('unreadNotifications', {
  fixtures: unreadNotificationsFixtures,
  render: async (view) => {
    const memory = memoryLocation({ path: '/bonus' });
    // The bell asks for one row; the dialog for a page of its own, which no path answers.
    const loadNotifications = fromPromise<NotificationsPage, NotificationsRequest>(({ input, signal }) =>
      input.limit === 1 ? view.call<NotificationsPage>('loadNotifications', input, signal) : new Promise<NotificationsPage>(() => {}),
    );
    const harness = renderWithServices(
      <Router hook={memory.hook} searchHook={memory.searchHook}>
        <Layout>
          {/* As in the app (src/views/App.tsx): the dialogs' chunks load under a boundary of their own. */}
          <Suspense fallback={null}>
            <DialogHost verifyToken={null} onVerifyClosed={() => {}} />
          </Suspense>
        </Layout>
      </Router>,
      { actors: { loadNotifications }, live: view.live, navigate: (to, options) => memory.navigate(to, options) },
    );
    const { app } = harness.services;
    await waitFor(() => expect(app.getSnapshot().matches('visitor')).toBe(true));
    act(() => app.send({ type: 'SESSION.LOGGED_IN', accessToken: ACCESS_TOKEN, user: PLAYER }));
    // The bell is in the player's part of the top bar, a chunk loaded with the session.
    await screen.findByRole('button', { name: /^Notifications/ });
    return harness;
  },
  events: {
    REFRESH: async (view) => {
      const bell = screen.getByRole('button', { name: /^Notifications/ });
      await view.user.click(bell);
      expect(view.harness.navigations.at(-1)).toBe('/bonus?dialog=notifications');
      const dialog = await screen.findByRole('dialog', { name: view.t('notifications.title') }, { timeout: 5000 });
      await view.user.click(within(dialog).getByRole('button', { name: view.t('common.close') }));
      expect(view.harness.navigations.at(-1)).toBe('/bonus');
    },
    'LIVE.NOTIFICATION': (view, event) => view.live.send(event),
    'LIVE.RECONNECTED': (view, event) => view.live.send(event),
  },
  states: {
    // Until the first answer the bell has no count; on a refresh it keeps the last one meanwhile.
    loading: seeBell,
    // A failure keeps the last count.
    idle: seeBell,
  },
});
