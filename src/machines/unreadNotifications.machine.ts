import { assign, setup } from 'xstate';
import { notProvided } from './effects.ts';
import { liveEventsNotProvided, type Notification } from './live.ts';
import type { NotificationsPage, NotificationsRequest } from './notifications.machine.ts';

/*
 * The header's notifications badge: the unread count alone, read from a one-row page of
 * GET /common/user-notification, and again on REFRESH (the header sends it when the notifications dialog
 * closes). A failure keeps the last count. A notification the server writes meanwhile (a deposit
 * credited, a withdrawal settled, a document reviewed) arrives live with the new count
 * (LIVE.NOTIFICATION); after the stream came back from a drop the count is read again.
 */

export interface UnreadNotificationsContext {
  /** null until the first answer. */
  unreadCount: number | null;
}

export const unreadNotificationsMachine = setup({
  types: {
    context: {} as UnreadNotificationsContext,
    events: {} as { type: 'REFRESH' } | { type: 'LIVE.NOTIFICATION'; notification: Notification; unreadCount: number } | { type: 'LIVE.RECONNECTED' },
  },
  actors: {
    /** GET /common/user-notification?page=1&limit=1: only its unreadCount is read. */
    loadNotifications: notProvided<NotificationsPage, NotificationsRequest>('loadNotifications'),
    liveEvents: liveEventsNotProvided,
  },
  actions: {
    storeUnreadCount: assign((_, params: { unreadCount: number }) => ({ unreadCount: params.unreadCount })),
  },
}).createMachine({
  id: 'unreadNotifications',
  context: { unreadCount: null },
  invoke: { src: 'liveEvents' },
  on: {
    // The stream's count is newer than any answer on its way.
    'LIVE.NOTIFICATION': {
      target: '.idle',
      actions: { type: 'storeUnreadCount', params: ({ event }) => ({ unreadCount: event.unreadCount }) },
    },
  },
  initial: 'loading',
  states: {
    loading: {
      // A refresh asked for while loading starts over: the answer on its way may predate what changed.
      on: { REFRESH: { target: 'loading', reenter: true } },
      invoke: {
        src: 'loadNotifications',
        input: { page: 1, limit: 1 },
        onDone: {
          target: 'idle',
          actions: { type: 'storeUnreadCount', params: ({ event }) => ({ unreadCount: event.output.unreadCount }) },
        },
        onError: { target: 'idle' },
      },
    },
    idle: {
      on: { REFRESH: 'loading', 'LIVE.RECONNECTED': 'loading' },
    },
  },
});
