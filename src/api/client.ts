import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema.d.ts';

/** SPEC §9: every request gives up after 30 seconds. */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface ApiClientOptions {
  /** Base of the API; VITE_API_URL overrides the same-origin default. */
  baseUrl?: string;
  /** The saved access token, read on every request. */
  getToken: () => string | null;
  /** Any 401 answer (SPEC §6): the app clears the session. */
  onUnauthorized: () => void;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export type ApiClient = ReturnType<typeof createApiClient>;

export function defaultBaseUrl(): string {
  const configured = (import.meta as { env?: Record<string, string | undefined> }).env?.VITE_API_URL;
  return configured ? configured.replace(/\/+$/, '') : '/api/v1';
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
      const signal = AbortSignal.any
        ? AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)])
        : AbortSignal.timeout(timeoutMs);
      return new Request(request, { headers, signal });
    },
    onResponse({ response }) {
      if (response.status === 401) options.onUnauthorized();
      return response;
    },
  };
  client.use(middleware);
  return client;
}
