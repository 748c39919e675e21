import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';
import { firstErrorOf } from './envelope.ts';

/** SPEC §6: the code of an account an admin inactivated; any call that meets it ends the session. */
const INACTIVE: components['schemas']['ErrorCode'] = 'USER_INACTIVE';

/** SPEC §9: every request gives up after 30 seconds. */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Schema paths whose 401 answer does not end the session. SPEC §6: "The claimed-bonus fetch runs only when
 * logged in; a 401 there is silently ignored." The answer still reaches the caller as a 401 (its machine
 * shows nothing, or an empty list); only `onUnauthorized` is not called. Every other path's 401 is.
 */
export const QUIET_UNAUTHORIZED_PATHS = ['/bonus/user'] as const satisfies readonly (keyof paths)[];

const quietUnauthorized: ReadonlySet<string> = new Set(QUIET_UNAUTHORIZED_PATHS);

export interface ApiClientOptions {
  /** Base of the API; VITE_API_URL overrides the same-origin default. */
  baseUrl?: string;
  /** The saved access token, read on every request. */
  getToken: () => string | null;
  /** A 401 answer (SPEC §6), except on QUIET_UNAUTHORIZED_PATHS: the app clears the session. */
  onUnauthorized: () => void;
  /**
   * A 403 USER_INACTIVE answer to a call made with a token (SPEC §6: an admin inactivated the account during
   * the session): the app ends the session with its own message.
   */
  onInactive?: () => void;
  /** Every answer's Date header (null where it has none), as it arrives: the server's clock (./serverClock.ts). */
  onServerDate?: (date: string | null) => void;
  /** How long a request may take, answer body included; REQUEST_TIMEOUT_MS unless given. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export type ApiClient = ReturnType<typeof createApiClient>;

export function defaultBaseUrl(): string {
  const configured = (import.meta as { env?: Record<string, string | undefined> }).env?.VITE_API_URL;
  return configured ? configured.replace(/\/+$/, '') : '/api/v1';
}

/**
 * Requests whose timeout has not fired yet (and that the caller has not aborted), held strongly on purpose.
 *
 * Why not simply `AbortSignal.any([request.signal, AbortSignal.timeout(ms)])`: in Node (20 at least, see
 * nodejs/node#57736) every link of that chain is weak. The timer of `AbortSignal.timeout` holds its signal
 * only through a WeakRef, `AbortSignal.any` holds its sources weakly, and undici's `new Request(..., { signal })`
 * follows the given signal through a WeakRef too. Nothing keeps the chain alive, so a garbage collection while
 * the request waits silently drops the timeout, and a request to a server that never answers hangs forever
 * (browsers keep such signals alive, as the DOM standard asks). Here a plain timer holds the controller, and
 * this set holds both requests, until the signal aborts; then everything is released.
 */
const waiting = new Set<Request>();

/** `request` with `headers`, sent with a signal that aborts when the caller's does or after `ms`. */
function timedRequest(request: Request, headers: Headers, ms: number): Request {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`The request took longer than ${ms} ms.`, 'TimeoutError')),
    ms,
  );
  const callerAborted = () => controller.abort(request.signal.reason);
  const sent = new Request(request, { headers, signal: controller.signal });
  controller.signal.addEventListener(
    'abort',
    () => {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', callerAborted);
      waiting.delete(request);
      waiting.delete(sent);
    },
    { once: true },
  );
  if (request.signal.aborted) {
    callerAborted();
  } else {
    request.signal.addEventListener('abort', callerAborted, { once: true });
    waiting.add(request);
    waiting.add(sent);
  }
  return sent;
}

/** The one client of the API, typed from openapi.yaml: credentials included, bearer token, timeout, 401 hook. */
export function createApiClient(options: ApiClientOptions) {
  const client = createClient<paths>({
    baseUrl: options.baseUrl ?? defaultBaseUrl(),
    credentials: 'include',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const middleware: Middleware = {
    onRequest({ request }) {
      const token = options.getToken();
      const headers = new Headers(request.headers);
      if (token) headers.set('Authorization', `Bearer ${token}`);
      return timedRequest(request, headers, timeoutMs);
    },
    async onResponse({ request, response, schemaPath }) {
      options.onServerDate?.(response.headers.get('date'));
      if (response.status === 401 && !quietUnauthorized.has(schemaPath)) options.onUnauthorized();
      if (response.status === 403 && options.onInactive && request.headers.has('Authorization')) {
        const body: unknown = await response
          .clone()
          .json()
          .catch(() => null);
        if (firstErrorOf(body)?.description === INACTIVE) options.onInactive();
      }
      return response;
    },
  };
  client.use(middleware);
  return client;
}
