import { afterAll, beforeAll, expect, it } from 'vitest';
import { registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

it('signs up, verifies and logs in', async () => {
  const { token } = await registeredPlayer(server);
  const me = await server.call('userGetUser', { token });
  expect(me.status).toBe(200);
  const health = await server.call('getHealth');
  expect(health.body.data.status).toBe('ok');
});
