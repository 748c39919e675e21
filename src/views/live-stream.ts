import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';
import type { DepositActivity, LiveEvent, Notification, Wallet, WithdrawalActivity } from '../machines/live.ts';

/*
 * The session's live updates (GET /user/events, Server-Sent Events): one stream for every flow that
 * subscribes, opened with the first subscriber and closed with the last. It is read with fetch (so the
 * access token goes in the Authorization header, never in an address) and parsed by eventsource-parser.
 * A stream that ends or fails is opened again after a growing, jittered wait (1 s, 2 s, 4 s ... 30 s at
 * most); once it is back (its `ready` event) the subscribers are sent LIVE.RECONNECTED, since events may
 * have been missed meanwhile. A 401 ends the session, like any other call's (SPEC §6). A stream the
 * server ended with `replaced` (the player opened more streams than it holds, in other tabs) is not opened
 * again on its own, which would replace another tab's in turn, but when the page is shown again.
 */

export interface LiveStreamOptions {
  /** Base of the API ('/api/v1'). */
  baseUrl: string;
  getToken: () => string | null;
  onUnauthorized: () => void;
  fetch?: typeof fetch;
  /** The first wait before opening the stream again, doubled after each failure; 1000 ms unless given. */
  retryMs?: number;
  maxRetryMs?: number;
  /**
   * Calls `listener` each time the page is shown again (its tab brought back); the function it returns
   * stops. A replaced stream opens again then; without it, once the last subscriber has left and another comes.
   */
  whenShown?: (listener: () => void) => () => void;
}

export interface LiveStream {
  subscribe(listener: (event: LiveEvent) => void): () => void;
}

type Listener = (event: LiveEvent) => void;

/** The LIVE.* event of a stream message, or null for one the app does not know (or cannot read). */
export function liveEventOf(message: Pick<EventSourceMessage, 'event' | 'data'>): LiveEvent | null {
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const record = data as Record<string, unknown>;
  switch (message.event) {
    case 'wallets':
      return Array.isArray(record.wallets) ? { type: 'LIVE.WALLETS', wallets: record.wallets as Wallet[] } : null;
    case 'deposit':
      return typeof record.txId === 'string' ? { type: 'LIVE.DEPOSIT', deposit: data as DepositActivity } : null;
    case 'withdrawal':
      return typeof record.spendRequestId === 'string' ? { type: 'LIVE.WITHDRAWAL', withdrawal: data as WithdrawalActivity } : null;
    case 'notification':
      return typeof record.notification === 'object' && record.notification !== null && typeof record.unreadCount === 'number'
        ? { type: 'LIVE.NOTIFICATION', notification: record.notification as Notification, unreadCount: record.unreadCount }
        : null;
    default:
      return null;
  }
}

export function createLiveStream(options: LiveStreamOptions): LiveStream {
  const listeners = new Set<Listener>();
  const retryMs = options.retryMs ?? 1000;
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  let controller: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  /** Stops waiting for the page to be shown again, while a replaced stream waits for it. */
  let stopWaiting: (() => void) | null = null;
  /** Whether a stream was ever ready since the first subscriber came: the next `ready` is a reconnection. */
  let wasReady = false;

  const emit = (event: LiveEvent) => {
    for (const listener of [...listeners]) listener(event);
  };

  const scheduleRetry = () => {
    if (listeners.size === 0 || timer !== null) return;
    const wait = Math.min(maxRetryMs, retryMs * 2 ** failures);
    failures += 1;
    timer = setTimeout(() => {
      timer = null;
      void open();
    }, wait / 2 + Math.random() * (wait / 2));
  };

  const openWhenShown = () => {
    if (listeners.size === 0 || stopWaiting !== null) return;
    stopWaiting =
      options.whenShown?.(() => {
        stopWaiting?.();
        stopWaiting = null;
        failures = 0;
        void open();
      }) ?? null;
  };

  async function open(): Promise<void> {
    const token = options.getToken();
    if (listeners.size === 0 || controller !== null || token === null) return;
    const current = new AbortController();
    controller = current;
    let replaced = false;
    try {
      const response = await (options.fetch ?? fetch)(`${options.baseUrl}/user/events`, {
        headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
        signal: current.signal,
        cache: 'no-store',
      });
      if (response.status === 401) {
        listeners.clear();
        options.onUnauthorized();
        return;
      }
      if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (value.event === 'ready') {
          failures = 0;
          if (wasReady) emit({ type: 'LIVE.RECONNECTED' });
          wasReady = true;
          continue;
        }
        if (value.event === 'replaced') {
          replaced = true;
          break;
        }
        const event = liveEventOf(value);
        if (event) emit(event);
      }
    } catch {
      // Offline, aborted, or the stream broke: opened again below unless nobody listens any more.
    } finally {
      if (controller === current) controller = null;
    }
    if (current.signal.aborted) return;
    if (replaced) openWhenShown();
    else scheduleRetry();
  }

  const close = () => {
    controller?.abort();
    controller = null;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    stopWaiting?.();
    stopWaiting = null;
    failures = 0;
    wasReady = false;
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1) void open();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) close();
      };
    },
  };
}
