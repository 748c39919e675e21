import { assign, setup } from 'xstate';
import { notProvided } from './effects.ts';
import type { NotificationsPage, NotificationsRequest } from './notifications.machine.ts';

/*
 * The header's notifications badge: the unread count alone, read from a one-row page of
 * GET /common/user-notification, and again on REFRESH (the header sends it when the notifications dialog
 * closes). A failure keeps the last count.
 */

export interface UnreadNotificationsContext {
  /** null until the first answer. */
  unreadCount: number | null;
}

export const unreadNotificationsMachine = setup({
  types: {
    context: {} as UnreadNotificationsContext,
    events: {} as { type: 'REFRESH' },
  },
  actors: {
    /** GET /common/user-notification?page=1&limit=1: only its unreadCount is read. */
    loadNotifications: notProvided<NotificationsPage, NotificationsRequest>('loadNotifications'),
  },
  actions: {
    storeUnreadCount: assign((_, params: { unreadCount: number }) => ({ unreadCount: params.unreadCount })),
  },
}).createMachine({
  id: 'unreadNotifications',
  context: { unreadCount: null },
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
      on: { REFRESH: 'loading' },
    },
  },
});
