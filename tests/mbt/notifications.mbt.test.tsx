// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { formatDate, formatNumber } from '../../src/format.ts';
import { notificationsFixtures, OLDEST_PAGE } from '../../src/flows/fixtures/notifications.ts';
import { hasMoreNotifications, type notificationsMachine } from '../../src/machines/notifications.machine.ts';
import NotificationsDialog from '../../src/views/dialogs/NotificationsDialog.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type NotificationsView = View<typeof notificationsMachine>;
type NotificationsSnapshot = SnapshotFrom<typeof notificationsMachine>;

/*
 * The notifications dialog (opened from the header's bell). The first page loads; the unread rows of
 * every page that arrives are marked read at once (quietly: a failed mark changes nothing the player
 * sees); "Load more" brings the next page while there are more. Rows keep the unread mark they arrived
 * with while the dialog stays open.
 */

function dialog(view: NotificationsView): HTMLElement {
  return screen.getByRole('dialog', { name: view.t('notifications.title') });
}

/** The dialog's buttons by their text (role queries are slow on a long list). */
function buttonWithText(view: NotificationsView, text: string): HTMLButtonElement | null {
  return [...dialog(view).querySelectorAll('button')].find((element) => element.textContent === text) ?? null;
}

/** The loading or "none" panel, and nothing else. */
function seePanel(view: NotificationsView, text: string, busy: boolean) {
  const status = screen.getByRole('status');
  expect(status.textContent).toBe(text);
  expect(status.getAttribute('aria-busy')).toBe(String(busy));
  expect(dialog(view).querySelector('ul')).toBeNull();
  expect(screen.queryByRole('alert')).toBeNull();
}

/** Every row loaded, in order, each with its title, message, date and (when it arrived unread) its mark. */
function seeRows(view: NotificationsView, snapshot: NotificationsSnapshot, busy: boolean) {
  expect(screen.queryByRole('status'), 'no loading or empty panel').toBeNull();
  const list = dialog(view).querySelector('ul')!;
  expect(list.getAttribute('aria-label')).toBe(view.t('notifications.title'));
  expect(list.getAttribute('aria-busy'), 'list busy').toBe(String(busy));
  const items = [...list.querySelectorAll('li')];
  const seen = items.map((item) => ({
    title: item.querySelector('h3')?.textContent,
    message: item.querySelector('p')?.textContent,
    dateTime: item.querySelector('time')?.getAttribute('dateTime'),
    date: item.querySelector('time')?.textContent,
    unread: item.getAttribute('data-unread'),
    mark: item.querySelector('h3 + span')?.textContent ?? null,
  }));
  const expected = snapshot.context.rows.map((row) => ({
    title: row.title,
    message: row.message,
    dateTime: row.createdAt,
    date: formatDate(row.createdAt, view.language, 'datetime'),
    unread: String(!row.read),
    mark: row.read ? null : view.t('notifications.unread'),
  }));
  expect(seen).toEqual(expected);
  // The last page took "Load more" away from under the focus: it stays in the dialog, on the list.
  if (!hasMoreNotifications(snapshot.context) && view.steps.some((step) => step.event.type === 'LOAD_MORE')) {
    expect(document.activeElement, 'focus on the list').toBe(list);
  }
}

/** "Load more" at rest, with the hint of how many unread are on pages not loaded when there are any. */
function seeLoadMore(view: NotificationsView, snapshot: NotificationsSnapshot, hint: boolean) {
  const more = buttonWithText(view, view.t('common.loadMore'));
  if (!hasMoreNotifications(snapshot.context)) {
    expect(more, 'no "Load more" once all are loaded').toBeNull();
    return;
  }
  expect(more, '"Load more"').not.toBeNull();
  expect(more!.disabled).toBe(false);
  expect(more!.getAttribute('aria-busy')).toBe('false');
  const { unreadCount } = snapshot.context;
  const describedBy = more!.getAttribute('aria-describedby');
  if (hint && unreadCount > 0) {
    const key = unreadCount === 1 ? 'notifications.unreadCountOne' : 'notifications.unreadCount';
    expect(document.getElementById(describedBy ?? '')?.textContent).toBe(view.t(key, { count: formatNumber(unreadCount, view.language) }));
  } else {
    expect(describedBy, 'no hint').toBeNull();
  }
}

function seeNoRetry(view: NotificationsView) {
  expect(screen.queryByRole('alert')).toBeNull();
  expect(buttonWithText(view, view.t('common.retry'))).toBeNull();
}

function seeFailure(view: NotificationsView, snapshot: NotificationsSnapshot) {
  expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(snapshot.context.errorCode, 'default')));
  expect(buttonWithText(view, view.t('common.retry'))?.disabled).toBe(false);
}

const isAnswer = (event: EventObject, page: unknown) => event.type.startsWith('xstate.done.actor.') && (event as EventObject & { output?: unknown }).output === page;

describeModel('notifications', {
  fixtures: notificationsFixtures,
  filterEvents: (snapshot, event) => {
    // The oldest page answers only the request for the second.
    if (snapshot.matches('loading') && isAnswer(event, OLDEST_PAGE)) return false;
    // The player loads one more page at most: pages that bring nothing new would otherwise go on forever.
    if (event.type === 'LOAD_MORE') return (snapshot.context as NotificationsSnapshot['context']).page < 2;
    return true;
  },
  render: (view) => renderWithServices(<NotificationsDialog onClose={() => {}} />, { actors: view.actors }),
  events: {
    LOAD_MORE: (view) => view.user.click(buttonWithText(view, view.t('common.loadMore'))!),
    RETRY: (view) => view.user.click(buttonWithText(view, view.t('common.retry'))!),
  },
  states: {
    loading: (view) => {
      seePanel(view, view.t('states.loading'), true);
      expect(buttonWithText(view, view.t('common.retry'))).toBeNull();
    },
    failed: (view, snapshot) => {
      expect(screen.queryByRole('status')).toBeNull();
      expect(dialog(view).querySelector('ul')).toBeNull();
      seeFailure(view, snapshot);
    },
    empty: (view) => {
      seePanel(view, view.t('notifications.empty'), false);
      expect(buttonWithText(view, view.t('common.loadMore'))).toBeNull();
    },
    'shown.checking': () => {
      throw new Error('checking is left at once (eventless): no step ends in it');
    },
    // The rows shown are being marked read: no hint about unread ones elsewhere meanwhile.
    'shown.marking': (view, snapshot) => {
      seeRows(view, snapshot, false);
      seeLoadMore(view, snapshot, false);
      seeNoRetry(view);
    },
    'shown.idle': (view, snapshot) => {
      seeRows(view, snapshot, false);
      seeLoadMore(view, snapshot, true);
      seeNoRetry(view);
    },
    'shown.loadingMore': (view, snapshot) => {
      seeRows(view, snapshot, true);
      // Not disabled (that would drop the focus): busy, and saying so.
      const more = buttonWithText(view, view.t('states.loading'));
      expect(more, 'the busy "Load more"').not.toBeNull();
      expect(more!.disabled).toBe(false);
      expect(more!.getAttribute('aria-busy')).toBe('true');
      seeNoRetry(view);
    },
    'shown.moreFailed': (view, snapshot) => {
      seeRows(view, snapshot, false);
      seeFailure(view, snapshot);
      expect(buttonWithText(view, view.t('common.loadMore'))).toBeNull();
    },
  },
});
