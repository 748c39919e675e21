import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';

/**
 * GET /casino/game-session: what the game page `/play/{sessionId}` reads after a reload. A demo session
 * for anyone with its id, a real-money one for its own player only, neither once expired or once the
 * game is withdrawn.
 */

let server: TestServer;
type Player = Awaited<ReturnType<typeof registeredPlayer>>;
let ana: Player;
let bea: Player;
let gameId = 0;

beforeAll(async () => {
  server = await startTestServer();
  const rows = await server.db.query<{ id: number }>('SELECT id FROM games WHERE active AND has_demo ORDER BY id LIMIT 1');
  gameId = rows[0]!.id;
  ana = await registeredPlayer(server);
  bea = await registeredPlayer(server);
});
afterAll(async () => server.close());

function expectNotFound(res: { status: number; body: { errors: { description: string }[] } }) {
  expect(res.status).toBe(404);
  expect(res.body.errors[0]!.description).toBe('GAME_NOT_FOUND_ERROR');
}

describe('reading a game session', () => {
  it('gives a demo session and its game to anyone holding its id', async () => {
    const opened = (await server.call('casinoInitGameDemo', { body: { gameId } })).body.data.gameSession;
    for (const token of [undefined, ana.token]) {
      const res = await server.call('casinoGetGameSession', { query: { sessionId: opened.sessionId }, token });
      expect(res.status).toBe(200);
      expect(res.body.data.gameSession).toEqual(opened);
      expect(res.body.data.game).toMatchObject({ id: gameId, hasDemo: true, isFavorite: false });
      expect(res.body.data.game.thumbnailUrl).toBe(`/api/v1/casino/thumbnail/${gameId}`);
    }
  });

  it("gives a real-money session to its own player only, with the player's favourite flag", async () => {
    await server.call('casinoToggleFavoriteGame', { token: ana.token, body: { gameId } });
    const opened = (await server.call('casinoInitGame', { token: ana.token, body: { gameId } })).body.data.gameSession;
    const mine = await server.call('casinoGetGameSession', { query: { sessionId: opened.sessionId }, token: ana.token });
    expect(mine.status).toBe(200);
    expect(mine.body.data.gameSession).toEqual(opened);
    expect(mine.body.data.gameSession).toMatchObject({ demo: false, currencyCode: 'LTC' });
    expect(mine.body.data.game.isFavorite).toBe(true);
    expectNotFound(await server.call('casinoGetGameSession', { query: { sessionId: opened.sessionId }, token: bea.token }));
    expectNotFound(await server.call('casinoGetGameSession', { query: { sessionId: opened.sessionId } }));
  });

  it('answers GAME_NOT_FOUND_ERROR for an unknown or expired session and for a withdrawn game', async () => {
    expectNotFound(await server.call('casinoGetGameSession', { query: { sessionId: 'x'.repeat(32) } }));
    const opened = (await server.call('casinoInitGameDemo', { body: { gameId } })).body.data.gameSession;
    const later = new Date(Date.parse(opened.expiresAt) + 1000);
    server.clock.set(later);
    try {
      expectNotFound(await server.call('casinoGetGameSession', { query: { sessionId: opened.sessionId } }));
    } finally {
      server.clock.set(new Date());
    }
    const fresh = (await server.call('casinoInitGameDemo', { body: { gameId } })).body.data.gameSession;
    await server.db.query('UPDATE games SET active = false WHERE id = $1', [gameId]);
    try {
      expectNotFound(await server.call('casinoGetGameSession', { query: { sessionId: fresh.sessionId } }));
    } finally {
      await server.db.query('UPDATE games SET active = true WHERE id = $1', [gameId]);
    }
  });

  it('refuses a request without a session id', async () => {
    const res = await server.call('casinoGetGameSession', { query: {} });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]!.description).toBe('PLEASE_CHECK_REQUEST_DATA');
  });
});
