import { assign, setup } from 'xstate';
import type { components, operations } from '../api/schema.d.ts';
import { notProvided, type ErrorCode } from './effects.ts';
import { toFailure } from './failure.ts';

/*
 * The player's notifications (SPEC §1, §2 notifications dialog, §7 user-notification), newest first.
 *
 * notificationsMachine, the dialog: the first page loads; with rows it is `shown`, else `empty`; a failed
 * load waits for RETRY. What the player is shown counts as seen: the unread rows of every page that
 * arrives are marked read on the server at once (as a casino's notification panel clears its badge when
 * opened), while the rows keep the read flag they arrived with, so the view can still mark them as new.
 * `unreadCount` follows locally (the server's count minus what was marked since) until the next page
 * brings the server's own again. LOAD_MORE appends the next page while `count` says there are more. A
 * failed mark is silent (SPEC §8: update failures are swallowed): the rows stay unread on the server,
 * and are sent again with the next page's.
 *
 * The header's badge is unreadNotifications.machine.ts.
 */

export type Notification = components['schemas']['Notification'];

/** The query of GET /common/user-notification. */
export interface NotificationsRequest {
  page: number;
  limit: number;
}

/** One page of GET /common/user-notification, as the loadNotifications actor returns it. */
export interface NotificationsPage {
  rows: Notification[];
  /** Every notification the player has, read or not. */
  count: number;
  unreadCount: number;
}

/** The body of POST /common/user-notification/read. */
export type MarkNotificationsReadRequest =
  operations['commonMarkNotificationsRead']['requestBody']['content']['application/json'];

/** Rows per page when the dialog does not say (the server allows 1 to 100). */
export const NOTIFICATIONS_PAGE_SIZE = 20;
/** The most ids one POST /common/user-notification/read takes (openapi.yaml: maxItems). */
export const MARK_READ_BATCH = 100;

export interface NotificationsInput {
  pageSize?: number;
}

export interface NotificationsContext {
  pageSize: number;
  /** The last page loaded; 0 before the first. */
  page: number;
  rows: Notification[];
  count: number;
  unreadCount: number;
  /** Loaded rows that arrived unread and are not marked read on the server yet, oldest page first. */
  unmarkedIds: number[];
  errorCode: ErrorCode | null;
}

export type NotificationsEvent = { type: 'RETRY' } | { type: 'LOAD_MORE' };

/** Whether the server holds rows the list has not loaded yet (LOAD_MORE has something to ask for). */
export function hasMoreNotifications(context: Pick<NotificationsContext, 'rows' | 'count'>): boolean {
  return context.rows.length < context.count;
}

/** The ids the next POST sends. */
function nextBatch(context: NotificationsContext): number[] {
  return context.unmarkedIds.slice(0, MARK_READ_BATCH);
}

/** The unread ids among `rows` that the context does not hold yet. */
function newUnreadIds(known: readonly Notification[], rows: readonly Notification[]): number[] {
  const seen = new Set(known.map((row) => row.id));
  return rows.filter((row) => !row.read && !seen.has(row.id)).map((row) => row.id);
}

export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    input: {} as NotificationsInput,
    events: {} as NotificationsEvent,
  },
  actors: {
    /** GET /common/user-notification?page=&limit= */
    loadNotifications: notProvided<NotificationsPage, NotificationsRequest>('loadNotifications'),
    /** POST /common/user-notification/read */
    markNotificationsRead: notProvided<void, MarkNotificationsReadRequest>('markNotificationsRead'),
  },
  actions: {
    storeFirstPage: assign((_, params: { page: NotificationsPage }) => ({
      page: 1,
      rows: params.page.rows,
      count: params.page.count,
      unreadCount: params.page.unreadCount,
      unmarkedIds: newUnreadIds([], params.page.rows),
      errorCode: null,
    })),
    appendPage: assign(({ context }, params: { page: NotificationsPage }) => {
      // A notification that arrived meanwhile shifts the pages by one: a row already shown is not repeated.
      const known = new Set(context.rows.map((row) => row.id));
      const fresh = params.page.rows.filter((row) => !known.has(row.id));
      const rows = [...context.rows, ...fresh];
      return {
        page: context.page + 1,
        rows,
        // An empty page means the list ended early (notifications went away): nothing more to offer.
        count: params.page.rows.length === 0 ? rows.length : params.page.count,
        unreadCount: params.page.unreadCount,
        unmarkedIds: [...context.unmarkedIds, ...newUnreadIds(context.rows, params.page.rows)],
        errorCode: null,
      };
    }),
    storeMarked: assign(({ context }) => {
      const sent = new Set(nextBatch(context));
      return {
        unmarkedIds: context.unmarkedIds.filter((id) => !sent.has(id)),
        unreadCount: Math.max(0, context.unreadCount - sent.size),
      };
    }),
    storeFailure: assign((_, params: { code: ErrorCode | null }) => ({ errorCode: params.code })),
  },
  guards: {
    pageHasRows: (_, params: { page: NotificationsPage }) => params.page.rows.length > 0,
    hasUnmarked: ({ context }) => context.unmarkedIds.length > 0,
    hasMore: ({ context }) => hasMoreNotifications(context),
  },
}).createMachine({
  id: 'notifications',
  context: ({ input }) => ({
    pageSize: input.pageSize ?? NOTIFICATIONS_PAGE_SIZE,
    page: 0,
    rows: [],
    count: 0,
    unreadCount: 0,
    unmarkedIds: [],
    errorCode: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadNotifications',
        input: ({ context }) => ({ page: 1, limit: context.pageSize }),
        onDone: [
          {
            guard: { type: 'pageHasRows', params: ({ event }) => ({ page: event.output }) },
            target: 'shown',
            actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) },
          },
          { target: 'empty', actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) } },
        ],
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) } },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    empty: {},
    shown: {
      initial: 'checking',
      states: {
        /** What arrived unread is marked read before anything else happens. */
        checking: {
          always: [{ guard: 'hasUnmarked', target: 'marking' }, { target: 'idle' }],
        },
        marking: {
          invoke: {
            src: 'markNotificationsRead',
            input: ({ context }) => ({ notificationIds: nextBatch(context) }),
            // More than one batch waiting (after failed marks): the rest goes next.
            onDone: { target: 'checking', actions: 'storeMarked' },
            onError: { target: 'idle' },
          },
        },
        idle: {
          on: { LOAD_MORE: { guard: 'hasMore', target: 'loadingMore' } },
        },
        loadingMore: {
          invoke: {
            src: 'loadNotifications',
            input: ({ context }) => ({ page: context.page + 1, limit: context.pageSize }),
            onDone: { target: 'checking', actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) } },
            onError: {
              target: 'moreFailed',
              actions: { type: 'storeFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) },
            },
          },
        },
        moreFailed: {
          on: { RETRY: 'loadingMore' },
        },
      },
    },
  },
});
