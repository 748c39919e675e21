import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../../../src/machines/live.ts';
import { createLiveStream, liveEventOf } from '../../../src/views/live-stream.ts';

/*
 * The session's event stream in the browser (src/views/live-stream.ts), over a fake fetch whose
 * streams the test writes to and ends: what the flows receive, the reconnection with backoff and its
 * LIVE.RECONNECTED, a 401, a stream replaced by the player's newer ones (opened again only when the page
 * is shown again), and the stream closed with the last subscriber.
 */

interface FakeStream {
  write(text: string): void;
  end(): void;
  signal: AbortSignal;
  headers: Headers;
}

function fakeFetch(statuses: number[] = []) {
  const streams: FakeStream[] = [];
  const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    const status = statuses.shift() ?? 200;
    if (status !== 200) return new Response('{}', { status });
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
    const encoder = new TextEncoder();
    const signal = init!.signal!;
    signal.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
    streams.push({ write: (text) => controller.enqueue(encoder.encode(text)), end: () => controller.close(), signal, headers: new Headers(init!.headers) });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  });
  return { fetch, streams };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const wallets = { wallets: [{ id: 1, currencyId: 1, currencyCode: 'LTC', available: '0.5', pending: '0', bonus: '0', selected: true }] };

afterEach(() => {
  vi.useRealTimers();
});

describe('the live stream', () => {
  it('reads the events the flows know, with the bearer token, and ignores the rest', async () => {
    const { fetch, streams } = fakeFetch();
    const stream = createLiveStream({ baseUrl: '/api/v1', getToken: () => 'token-1', onUnauthorized: () => {}, fetch });
    const received: LiveEvent[] = [];
    stream.subscribe((event) => received.push(event));
    await flush();
    expect(fetch).toHaveBeenCalledWith('/api/v1/user/events', expect.objectContaining({ cache: 'no-store' }));
    expect(streams[0]!.headers.get('authorization')).toBe('Bearer token-1');
    streams[0]!.write('event: ready\ndata: {}\n\n: keepalive\n\n');
    streams[0]!.write(`event: wallets\ndata: ${JSON.stringify(wallets)}\n\nevent: something-new\ndata: {}\n\nevent: deposit\ndata: not json\n\n`);
    await flush();
    expect(received).toEqual([{ type: 'LIVE.WALLETS', wallets: wallets.wallets }]);
  });

  it('opens again after a drop, waiting longer each time, and says so once it is back', async () => {
    vi.useFakeTimers();
    const { fetch, streams } = fakeFetch([200, 503, 200]);
    const stream = createLiveStream({ baseUrl: '/api/v1', getToken: () => 't', onUnauthorized: () => {}, fetch, retryMs: 1000 });
    const received: LiveEvent[] = [];
    stream.subscribe((event) => received.push(event));
    await vi.advanceTimersByTimeAsync(0);
    streams[0]!.write('event: ready\ndata: {}\n\n');
    streams[0]!.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    // The first wait is between half and all of 1 s; the second (after the 503) up to 2 s.
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(received).toEqual([]);
    streams[1]!.write('event: ready\ndata: {}\n\n');
    await vi.advanceTimersByTimeAsync(0);
    expect(received).toEqual([{ type: 'LIVE.RECONNECTED' }]);
  });

  it('stays closed once replaced by newer streams of the player, and opens again when the page is shown again', async () => {
    vi.useFakeTimers();
    const { fetch, streams } = fakeFetch();
    const shown = new Set<() => void>();
    const whenShown = (listener: () => void) => {
      shown.add(listener);
      return () => shown.delete(listener);
    };
    const stream = createLiveStream({ baseUrl: '/api/v1', getToken: () => 't', onUnauthorized: () => {}, fetch, retryMs: 1000, whenShown });
    const received: LiveEvent[] = [];
    stream.subscribe((event) => received.push(event));
    await vi.advanceTimersByTimeAsync(0);
    streams[0]!.write('event: ready\ndata: {}\n\nevent: replaced\ndata: {}\n\n');
    streams[0]!.end();
    await vi.advanceTimersByTimeAsync(0);
    // No reopening on its own, however long it waits: another tab's stream would be replaced in turn.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(received).toEqual([]);
    expect(shown.size).toBe(1);
    for (const listener of [...shown]) listener();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(shown.size).toBe(0);
    streams[1]!.write('event: ready\ndata: {}\n\n');
    await vi.advanceTimersByTimeAsync(0);
    expect(received).toEqual([{ type: 'LIVE.RECONNECTED' }]);
  });

  it('stops waiting for the page to be shown once the last subscriber leaves', async () => {
    const { fetch, streams } = fakeFetch();
    const shown = new Set<() => void>();
    const whenShown = (listener: () => void) => {
      shown.add(listener);
      return () => shown.delete(listener);
    };
    const stream = createLiveStream({ baseUrl: '/api/v1', getToken: () => 't', onUnauthorized: () => {}, fetch, whenShown });
    const leave = stream.subscribe(() => {});
    await flush();
    streams[0]!.write('event: ready\ndata: {}\n\nevent: replaced\ndata: {}\n\n');
    await flush();
    expect(shown.size).toBe(1);
    leave();
    expect(shown.size).toBe(0);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('ends the session on a 401 and stops', async () => {
    const { fetch } = fakeFetch([401]);
    const onUnauthorized = vi.fn();
    const stream = createLiveStream({ baseUrl: '/api/v1', getToken: () => 'old', onUnauthorized, fetch });
    stream.subscribe(() => {});
    await flush();
    await flush();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('shares one stream between subscribers and closes it with the last; without a token it does not open', async () => {
    const { fetch, streams } = fakeFetch();
    let token: string | null = null;
    const stream = createLiveStream({ baseUrl: '/api/v1', getToken: () => token, onUnauthorized: () => {}, fetch });
    const idle = stream.subscribe(() => {});
    await flush();
    expect(fetch).not.toHaveBeenCalled();
    idle();
    token = 't';
    const first = stream.subscribe(() => {});
    const second = stream.subscribe(() => {});
    await flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    first();
    expect(streams[0]!.signal.aborted).toBe(false);
    second();
    expect(streams[0]!.signal.aborted).toBe(true);
  });
});

describe('liveEventOf', () => {
  it('reads each event the server sends, and nothing malformed', () => {
    const notification = { id: 1, title: 'Deposit credited', message: 'm', read: false, createdAt: '2025-02-01T18:00:00.000Z' };
    expect(liveEventOf({ event: 'notification', data: JSON.stringify({ notification, unreadCount: 2 }) })).toEqual({
      type: 'LIVE.NOTIFICATION',
      notification,
      unreadCount: 2,
    });
    expect(liveEventOf({ event: 'withdrawal', data: JSON.stringify({ status: 'failed' }) })).toBeNull();
    expect(liveEventOf({ event: 'wallets', data: '[]' })).toBeNull();
    expect(liveEventOf({ event: undefined, data: '{}' })).toBeNull();
  });
});
