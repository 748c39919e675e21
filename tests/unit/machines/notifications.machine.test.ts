import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { ApiFailure } from '../../../src/machines/failure.ts';
import { unreadNotificationsMachine } from '../../../src/machines/unreadNotifications.machine.ts';
import {
  MARK_READ_BATCH,
  NOTIFICATIONS_PAGE_SIZE,
  notificationsMachine,
  type MarkNotificationsReadRequest,
  type Notification,
  type NotificationsPage,
  type NotificationsRequest,
} from '../../../src/machines/notifications.machine.ts';
import { deferred, flush } from './fixtures.ts';

function aNotification(id: number, read = false): Notification {
  return { id, title: `Title ${id}`, message: `Message ${id}`, read, createdAt: `2025-02-01T18:${String(id % 60).padStart(2, '0')}:00.000Z` };
}

const page = (rows: Notification[], count: number, unreadCount: number): NotificationsPage => ({ rows, count, unreadCount });

interface Fakes {
  load: (request: NotificationsRequest) => Promise<NotificationsPage>;
  mark?: (request: MarkNotificationsReadRequest) => Promise<void>;
  pageSize?: number;
}

function run({ load, mark = async () => undefined, pageSize }: Fakes) {
  const loads: NotificationsRequest[] = [];
  const marks: number[][] = [];
  const machine = notificationsMachine.provide({
    actors: {
      loadNotifications: fromPromise<NotificationsPage, NotificationsRequest>(async ({ input }) => {
        loads.push(input);
        return load(input);
      }),
      markNotificationsRead: fromPromise<void, MarkNotificationsReadRequest>(async ({ input }) => {
        marks.push([...input.notificationIds]);
        return mark(input);
      }),
    },
  });
  const actor = createActor(machine, { input: pageSize === undefined ? {} : { pageSize } }).start();
  return { actor, loads, marks };
}

describe('notificationsMachine: the first page', () => {
  it('loads page 1, shows it and marks its unread rows read, counting them down locally', async () => {
    const rows = [aNotification(3), aNotification(2, true), aNotification(1)];
    const { actor, loads, marks } = run({ load: async () => page(rows, 3, 2) });
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    expect(loads).toEqual([{ page: 1, limit: NOTIFICATIONS_PAGE_SIZE }]);
    expect(marks).toEqual([[3, 1]]);
    const { context } = actor.getSnapshot();
    expect(context.unreadCount).toBe(0);
    expect(context.unmarkedIds).toEqual([]);
    // The rows keep the flag they arrived with: the view still shows which were new.
    expect(context.rows).toEqual(rows);
    expect(context.count).toBe(3);
  });

  it('is busy marking until the server answers', async () => {
    const answer = deferred<void>();
    const { actor } = run({ load: async () => page([aNotification(1)], 1, 1), mark: () => answer.promise });
    await waitFor(actor, (s) => s.matches({ shown: 'marking' }));
    expect(actor.getSnapshot().context.unreadCount).toBe(1);
    answer.resolve();
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    expect(actor.getSnapshot().context.unreadCount).toBe(0);
  });

  it('marks nothing when everything shown was read already', async () => {
    const { actor, marks } = run({ load: async () => page([aNotification(2, true), aNotification(1, true)], 2, 0) });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    expect(marks).toEqual([]);
  });

  it('keeps the unread count of the pages not loaded yet', async () => {
    const { actor } = run({ load: async () => page([aNotification(9)], 30, 12), pageSize: 1 });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    expect(actor.getSnapshot().context.unreadCount).toBe(11);
  });

  it('is empty when the player has no notifications', async () => {
    const { actor, marks } = run({ load: async () => page([], 0, 0) });
    await waitFor(actor, (s) => s.matches('empty'));
    expect(actor.getSnapshot().context).toMatchObject({ rows: [], count: 0, unreadCount: 0, errorCode: null });
    actor.send({ type: 'LOAD_MORE' });
    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot().value).toBe('empty');
    expect(marks).toEqual([]);
  });

  it('keeps the failure code, and loads again on RETRY', async () => {
    let attempts = 0;
    const { actor, loads } = run({
      load: async () => {
        attempts += 1;
        if (attempts === 1) throw new ApiFailure(500, 'INTERNAL_SERVER_ERROR');
        return page([aNotification(1, true)], 1, 0);
      },
    });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.errorCode).toBe('INTERNAL_SERVER_ERROR');
    actor.send({ type: 'LOAD_MORE' });
    expect(actor.getSnapshot().value).toBe('failed');
    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    expect(loads).toEqual([
      { page: 1, limit: NOTIFICATIONS_PAGE_SIZE },
      { page: 1, limit: NOTIFICATIONS_PAGE_SIZE },
    ]);
  });

  it('reads an unexpected exception as a failure with no code', async () => {
    const { actor } = run({
      load: async () => {
        throw new Error('boom');
      },
    });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.errorCode).toBeNull();
  });
});

describe('notificationsMachine: marking read', () => {
  it('a failed mark is silent: the count stays, and the ids go again with the next page', async () => {
    let markCalls = 0;
    const { actor, marks } = run({
      pageSize: 2,
      load: async ({ page: number }) =>
        number === 1 ? page([aNotification(4), aNotification(3)], 4, 3) : page([aNotification(2), aNotification(1, true)], 4, 3),
      mark: async () => {
        markCalls += 1;
        if (markCalls === 1) throw new ApiFailure(500, 'INTERNAL_SERVER_ERROR');
      },
    });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    expect(actor.getSnapshot().context).toMatchObject({ unreadCount: 3, unmarkedIds: [4, 3], errorCode: null });
    actor.send({ type: 'LOAD_MORE' });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }) && s.context.rows.length === 4);
    expect(marks).toEqual([
      [4, 3],
      [4, 3, 2],
    ]);
    expect(actor.getSnapshot().context).toMatchObject({ unreadCount: 0, unmarkedIds: [] });
  });

  it(`sends at most ${MARK_READ_BATCH} ids a call, the rest in the next`, async () => {
    const rows = Array.from({ length: 150 }, (_, i) => aNotification(150 - i));
    const { actor, marks } = run({ pageSize: 150, load: async () => page(rows, 150, 150) });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    expect(marks.map((ids) => ids.length)).toEqual([100, 50]);
    expect(new Set(marks.flat()).size).toBe(150);
    expect(actor.getSnapshot().context.unreadCount).toBe(0);
  });

  it('never counts below zero', async () => {
    const { actor } = run({ load: async () => page([aNotification(2), aNotification(1)], 2, 1) });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    expect(actor.getSnapshot().context.unreadCount).toBe(0);
  });
});

describe('notificationsMachine: more pages', () => {
  it('LOAD_MORE appends the next page while the count says there are more', async () => {
    const pages: Record<number, NotificationsPage> = {
      1: page([aNotification(5, true), aNotification(4, true)], 5, 1),
      2: page([aNotification(3, true), aNotification(2)], 5, 1),
      3: page([aNotification(1, true)], 5, 0),
    };
    const { actor, loads, marks } = run({ pageSize: 2, load: async ({ page: number }) => pages[number]! });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    actor.send({ type: 'LOAD_MORE' });
    expect(actor.getSnapshot().matches({ shown: 'loadingMore' })).toBe(true);
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }) && s.context.page === 2);
    expect(marks).toEqual([[2]]);
    expect(actor.getSnapshot().context.unreadCount).toBe(0);
    actor.send({ type: 'LOAD_MORE' });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }) && s.context.page === 3);
    expect(actor.getSnapshot().context.rows.map((row) => row.id)).toEqual([5, 4, 3, 2, 1]);
    // All five are loaded: LOAD_MORE has nothing to ask for.
    actor.send({ type: 'LOAD_MORE' });
    expect(actor.getSnapshot().matches({ shown: 'idle' })).toBe(true);
    expect(loads.map((request) => request.page)).toEqual([1, 2, 3]);
    expect(loads.every((request) => request.limit === 2)).toBe(true);
  });

  it('does not repeat a row a newer notification pushed onto the next page', async () => {
    const { actor } = run({
      pageSize: 2,
      load: async ({ page: number }) =>
        number === 1 ? page([aNotification(3, true), aNotification(2, true)], 3, 0) : page([aNotification(2, true), aNotification(1, true)], 4, 0),
    });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    actor.send({ type: 'LOAD_MORE' });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }) && s.context.page === 2);
    expect(actor.getSnapshot().context.rows.map((row) => row.id)).toEqual([3, 2, 1]);
    expect(actor.getSnapshot().context.count).toBe(4);
  });

  it('an empty page ends the list', async () => {
    const { actor } = run({
      pageSize: 1,
      load: async ({ page: number }) => (number === 1 ? page([aNotification(2, true)], 2, 0) : page([], 1, 0)),
    });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    actor.send({ type: 'LOAD_MORE' });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }) && s.context.page === 2);
    expect(actor.getSnapshot().context.count).toBe(1);
  });

  it('a failed page keeps the rows and its code; RETRY asks for the same page again', async () => {
    let secondPageAttempts = 0;
    const { actor, loads } = run({
      pageSize: 1,
      load: async ({ page: number }) => {
        if (number === 1) return page([aNotification(2, true)], 2, 0);
        secondPageAttempts += 1;
        if (secondPageAttempts === 1) throw new ApiFailure(0, null);
        return page([aNotification(1, true)], 2, 0);
      },
    });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    actor.send({ type: 'LOAD_MORE' });
    await waitFor(actor, (s) => s.matches({ shown: 'moreFailed' }));
    expect(actor.getSnapshot().context.rows).toHaveLength(1);
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    actor.send({ type: 'LOAD_MORE' });
    expect(actor.getSnapshot().matches({ shown: 'moreFailed' })).toBe(true);
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }) && s.context.page === 2);
    expect(loads.map((request) => request.page)).toEqual([1, 2, 2]);
    expect(actor.getSnapshot().context.rows.map((row) => row.id)).toEqual([2, 1]);
  });

  it('keeps the code of a refused page', async () => {
    const { actor } = run({
      pageSize: 1,
      load: async ({ page: number }) => {
        if (number === 1) return page([aNotification(2, true)], 2, 0);
        throw new ApiFailure(403, 'USER_INACTIVE');
      },
    });
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    actor.send({ type: 'LOAD_MORE' });
    await waitFor(actor, (s) => s.matches({ shown: 'moreFailed' }));
    expect(actor.getSnapshot().context.errorCode).toBe('USER_INACTIVE');
  });

  it('ignores LOAD_MORE while a page or a mark is on its way', async () => {
    const mark = deferred<void>();
    const { actor, loads } = run({ pageSize: 1, load: async () => page([aNotification(2)], 2, 1), mark: () => mark.promise });
    await waitFor(actor, (s) => s.matches({ shown: 'marking' }));
    actor.send({ type: 'LOAD_MORE' });
    expect(actor.getSnapshot().matches({ shown: 'marking' })).toBe(true);
    mark.resolve();
    await waitFor(actor, (s) => s.matches({ shown: 'idle' }));
    expect(loads).toHaveLength(1);
  });
});

describe('unreadNotificationsMachine', () => {
  function badge(load: () => Promise<NotificationsPage>) {
    const loads: NotificationsRequest[] = [];
    const machine = unreadNotificationsMachine.provide({
      actors: {
        loadNotifications: fromPromise<NotificationsPage, NotificationsRequest>(async ({ input }) => {
          loads.push(input);
          return load();
        }),
        liveEvents: fromCallback(() => undefined),
      },
    });
    return { actor: createActor(machine).start(), loads };
  }

  it('reads the unread count from a one-row page, and again on REFRESH', async () => {
    let unread = 4;
    const { actor, loads } = badge(async () => page([aNotification(1)], 9, unread));
    expect(actor.getSnapshot().context.unreadCount).toBeNull();
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.unreadCount).toBe(4);
    unread = 0;
    actor.send({ type: 'REFRESH' });
    expect(actor.getSnapshot().value).toBe('loading');
    // The last count shows while the new one loads.
    expect(actor.getSnapshot().context.unreadCount).toBe(4);
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.unreadCount).toBe(0);
    expect(loads).toEqual([
      { page: 1, limit: 1 },
      { page: 1, limit: 1 },
    ]);
  });

  it('a failure keeps the last count', async () => {
    let fail = true;
    const { actor } = badge(async () => {
      if (fail) throw new ApiFailure(500, 'INTERNAL_SERVER_ERROR');
      return page([], 0, 0);
    });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.unreadCount).toBeNull();
    fail = false;
    actor.send({ type: 'REFRESH' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.unreadCount).toBe(0);
    fail = true;
    actor.send({ type: 'REFRESH' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.unreadCount).toBe(0);
  });

  it('REFRESH while loading starts over, and the older answer is dropped', async () => {
    const answers = [deferred<NotificationsPage>(), deferred<NotificationsPage>()];
    let call = 0;
    const { actor, loads } = badge(() => answers[call++]!.promise);
    actor.send({ type: 'REFRESH' });
    expect(loads).toHaveLength(2);
    answers[1]!.resolve(page([], 0, 0));
    await waitFor(actor, (s) => s.matches('idle'));
    answers[0]!.resolve(page([aNotification(1)], 1, 1));
    await flush();
    expect(actor.getSnapshot().context.unreadCount).toBe(0);
  });
});
