import { describe, expect, it, vi } from 'vitest';
import { createApiClient, defaultBaseUrl } from '../../src/api/client.ts';

// Node has no page origin to resolve '/api/v1' against: the tests give the client an absolute base.
const baseUrl = 'http://casino.test/api/v1';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('the API client', () => {
  it('talks to /api/v1 on its own origin unless VITE_API_URL says otherwise', () => {
    expect(defaultBaseUrl()).toBe('/api/v1');
  });

  it('sends the saved token as a bearer token, with credentials', async () => {
    const seen: Request[] = [];
    const client = createApiClient({
      baseUrl,
      getToken: () => 'token-1',
      onUnauthorized: () => {},
      fetch: async (input) => {
        seen.push(input as Request);
        return jsonResponse(200, { data: { user: {} }, errors: [] });
      },
    });
    await client.GET('/user/get-user');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer token-1');
    expect(new URL(seen[0]?.url ?? '').pathname).toBe('/api/v1/user/get-user');
    expect(seen[0]?.credentials).toBe('include');
  });

  it('sends no Authorization header without a token', async () => {
    let header: string | null = 'unset';
    const client = createApiClient({
      baseUrl,
      getToken: () => null,
      onUnauthorized: () => {},
      fetch: async (input) => {
        header = (input as Request).headers.get('authorization');
        return jsonResponse(200, { data: {}, errors: [] });
      },
    });
    await client.GET('/common/get-languages');
    expect(header).toBeNull();
  });

  it('reports every 401 to the app, and only 401s', async () => {
    const onUnauthorized = vi.fn();
    let status = 401;
    const client = createApiClient({
      baseUrl,
      getToken: () => 'stale',
      onUnauthorized,
      fetch: async () =>
        jsonResponse(status, { data: {}, errors: [{ name: 'Unauthorized', description: 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED' }] }),
    });
    const answer = await client.GET('/user/get-user');
    expect(answer.response.status).toBe(401);
    expect(answer.error?.errors[0]?.description).toBe('ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    status = 422;
    await client.GET('/user/get-user');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});
