import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseAmount } from '../../src/money.ts';
import { playableGame, signedGameWalletCall, startTestServer, type TestServer } from '../helpers/api.ts';
import { code, expectLedgerBalanced, fundedPlayer } from '../helpers/money.ts';

/**
 * The current use of the limits in the responsible-gambling settings (usage of rgGetLimits): deposits
 * credited, stakes and losses of real-money play, per rolling window, as the money operations reckon them
 * against the limits; a window that has passed no longer counts. On a listening server: the house games'
 * rounds reach the game wallet over HTTP.
 */

const DAY = 24 * 60 * 60_000;

let server: TestServer;
let diceGameId = 0;

beforeAll(async () => {
  server = await startTestServer();
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const [row] = await server.db.query<{ id: number }>("SELECT id::int AS id FROM games WHERE identifier = 'house-dice'");
  diceGameId = row!.id;
});
afterAll(async () => server.close());

async function usageOf(token: string) {
  const res = await server.call('rgGetLimits', { token });
  expect(res.status).toBe(200);
  return res.body.data.limits.usage;
}

it('counts deposits credited, stakes and losses in each window, and forgets a window that has passed', async () => {
  const player = await fundedPlayer(server, '0.5');
  expect(await usageOf(player.token)).toEqual({
    deposit: { daily: '0.5', weekly: '0.5', monthly: '0.5' },
    bet: { daily: '0', weekly: '0', monthly: '0' },
    loss: { daily: '0', weekly: '0', monthly: '0' },
  });

  const session = await server.call('casinoInitGame', { token: player.token, body: { gameId: diceGameId, currencyCode: 'LTC' } });
  expect(session.status, JSON.stringify(session.body)).toBe(200);
  const sessionId = session.body.data.gameSession.sessionId as string;
  // Two rounds of 0.1: target 100 under (1 %) almost never wins, so the loss is the stakes less any win.
  let won = 0n;
  for (let round = 0; round < 2; round += 1) {
    const played = await server.call('housePlayDice', { params: { sessionId }, token: player.token, body: { amount: '0.1', target: 100, direction: 'under' } });
    expect(played.status, JSON.stringify(played.body)).toBe(200);
    won += parseAmount(String(played.body.data.houseRound.payout ?? '0'));
  }
  const usage = await usageOf(player.token);
  expect(usage.bet).toEqual({ daily: '0.2', weekly: '0.2', monthly: '0.2' });
  if (won === 0n) expect(usage.loss).toEqual({ daily: '0.2', weekly: '0.2', monthly: '0.2' });
  else expect(usage.loss.daily).toBe(usage.loss.monthly);

  // Two days on (signed in again): the daily window is empty, the week and the month still count.
  server.clock.advance(2 * DAY);
  const login = await server.call('userLogin', { body: { email: player.payload.email, password: player.payload.password } });
  expect(login.status).toBe(200);
  const later = await usageOf(login.body.data.accessToken as string);
  expect(later.deposit).toEqual({ daily: '0', weekly: '0.5', monthly: '0.5' });
  expect(later.bet).toEqual({ daily: '0', weekly: '0.2', monthly: '0.2' });
  await expectLedgerBalanced(server);
});

it('shows what the limits are held against: a bet fits up to the room the usage leaves, and a loss below zero shows as 0', async () => {
  const game = await playableGame(server);
  const player = await fundedPlayer(server, '1');
  const session = await server.call('casinoInitGame', { token: player.token, body: { gameId: game.id, currencyCode: 'LTC' } });
  expect(session.status, JSON.stringify(session.body)).toBe(200);
  const sessionId = session.body.data.gameSession.sessionId as string;
  let sequence = 0;
  const call = (operationId: string, roundId: string, amount: string) =>
    signedGameWalletCall(server, game.secret, operationId, { sessionId, roundId, transactionId: `limit-usage-${(sequence += 1)}`, amount });

  // Staked 0.1, won 0.25: the player is 0.15 ahead.
  expect((await call('gameWalletBet', 'round-1', '0.1')).status).toBe(200);
  expect((await call('gameWalletWin', 'round-1', '0.25')).status).toBe(200);
  const usage = await usageOf(player.token);
  expect(usage.bet).toEqual({ daily: '0.1', weekly: '0.1', monthly: '0.1' });
  expect(usage.loss).toEqual({ daily: '0', weekly: '0', monthly: '0' });

  // A daily bet limit of 0.3 leaves 0.2 beside the 0.1 shown: a bet past it is refused, one of it taken.
  expect((await server.call('rgUpdateLimit', { token: player.token, body: { limitType: 'bet', daily: '0.3' } })).status).toBe(200);
  expect(code(await call('gameWalletBet', 'round-2', '0.20000001'))).toEqual([422, 'DAILY_BET_LIMIT_EXCEEDED']);
  expect((await usageOf(player.token)).bet.daily).toBe('0.1');
  expect((await call('gameWalletBet', 'round-2', '0.2')).status).toBe(200);
  expect((await usageOf(player.token)).bet).toEqual({ daily: '0.3', weekly: '0.3', monthly: '0.3' });
  await expectLedgerBalanced(server);
});
