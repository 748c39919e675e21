import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verify, type HouseGame } from '../../src/fairness/games.ts';
import { payout as ratioPayout } from '../../src/fairness/ratio.ts';
import { minesMultiplier } from '../../src/fairness/mines.ts';
import { sha256Hex } from '../../src/fairness/random.ts';
import type { SlotSkin } from '../../src/fairness/slot.ts';
import { formatAmount, parseAmount, parseSignedAmount } from '../../src/money.ts';
import { loadConfig } from '../../server/config.ts';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpWalletTransport, WalletUnreachableError, type WalletTransport } from '../../server/games/wallet-client.ts';
import { registeredPlayer, startTestServer, type CallResult, type TestServer } from '../helpers/api.ts';
import { chainTransfer, code, depositAddress, expectLedgerBalanced, fundedPlayer as fundedWith, ledgerTransactionCount, type Player } from '../helpers/money.ts';

/**
 * The built-in game provider (server/games) through its API (houseGames), on a listening server: its
 * real-money rounds reach the seamless game wallet over real HTTP, signed as an outside provider's. Every
 * response is checked against openapi.yaml by the call helper; after each test the ledger must prove itself.
 */

const HOUR = 60 * 60_000;

let server: TestServer;
const games: Record<string, number> = {};

beforeAll(async () => {
  server = await startTestServer({ PAYMENT_WEBHOOK_SECRET: 'house-games-test-webhook-secret' });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const rows = await server.db.query<{ id: number; identifier: string }>("SELECT id::int AS id, identifier FROM games WHERE identifier LIKE 'house-%'");
  for (const row of rows) games[row.identifier.replace('house-', '')] = row.id;
});
afterAll(async () => server.close());
// More players than the signup limit of one address allows in an hour.
beforeEach(() => server.ctx.limiter.reset());
afterEach(() => expectLedgerBalanced(server));

const fundedPlayer = (amount: string) => fundedWith(server, amount);

async function realSession(player: Player, game: string): Promise<string> {
  const res = await server.call('casinoInitGame', { token: player.token, body: { gameId: games[game], currencyCode: 'LTC' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.gameSession.sessionId as string;
}

async function demoSession(gameId: number): Promise<string> {
  const res = await server.call('casinoInitGameDemo', { body: { gameId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.gameSession.sessionId as string;
}

const call = (operationId: string, sessionId: string, player: Player | null, body?: unknown): Promise<CallResult> =>
  server.call(operationId, { params: { sessionId }, token: player?.token ?? null, ...(body === undefined ? {} : { body }) });

const table = (sessionId: string, player: Player | null) => call('houseGetTable', sessionId, player);
const dice = (sessionId: string, player: Player | null, amount: string, target = 4950, direction = 'under') =>
  call('housePlayDice', sessionId, player, { amount, target, direction });

async function ltcBalance(userId: number): Promise<string> {
  const [row] = await server.db.query<{ total: string }>(
    "SELECT (w.available + w.bonus)::text AS total FROM wallets w JOIN currencies c ON c.id = w.currency_id WHERE w.user_id = $1 AND c.code = 'LTC'",
    [userId],
  );
  return formatAmount(parseSignedAmount(row!.total));
}

/** The wallet calls a round made (action and amount), in order. */
async function walletCalls(roundId: string): Promise<[string, string][]> {
  const rows = await server.db.query<{ action: string; amount: string }>(
    `SELECT a.action, a.amount::text AS amount FROM game_wallet_actions a JOIN game_rounds r ON r.id = a.round_pk
     WHERE r.round_id = $1 ORDER BY a.id`,
    [roundId],
  );
  return rows.map((row) => [row.action, formatAmount(parseSignedAmount(row.amount))]);
}

const units = (amount: string) => parseAmount(amount);
const minus = (a: string, b: string) => formatAmount(units(a) - units(b));
const plus = (a: string, b: string) => formatAmount(units(a) + units(b));

/** Replaces the provider's HTTP hop to the wallet for one test. */
function withTransport(wrap: (real: WalletTransport) => WalletTransport): () => void {
  const real = server.ctx.houseWallet.transport;
  server.ctx.houseWallet.transport = wrap(real);
  return () => {
    server.ctx.houseWallet.transport = real;
  };
}

describe('the catalogue', () => {
  it('has the house studio and its originals, a skin for every slot, and no engine for live dealers and sports', async () => {
    expect(Object.keys(games).sort()).toEqual(['classic-slot', 'dice', 'limbo', 'mines', 'plinko']);
    const [originals] = await server.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM games g JOIN categories c ON c.id = g.category_id JOIN providers p ON p.id = g.provider_id WHERE c.slug = 'originals' AND p.slug = 'house'",
    );
    expect(originals!.count).toBe(4);
    const engines = await server.db.query<{ slug: string; engine: string | null; skins: number; games: number }>(
      `SELECT c.slug, g.engine, count(g.slot_skin)::int AS skins, count(*)::int AS games FROM games g JOIN categories c ON c.id = g.category_id
       GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const bySlug = (slug: string) => engines.filter((row) => row.slug === slug);
    expect(bySlug('slots').map((row) => row.engine)).toEqual(['slot']);
    expect(bySlug('slots')[0]!.skins).toBe(bySlug('slots')[0]!.games);
    expect(bySlug('live-casino').map((row) => row.engine)).toEqual([null]);
    expect(bySlug('sports').map((row) => row.engine)).toEqual([null]);
    expect(bySlug('table-games').map((row) => row.engine).sort()).toEqual(['dice', null]);

    // A title no engine stands in for says so on its table.
    const [live] = await server.db.query<{ id: number }>(
      "SELECT g.id::int AS id FROM games g JOIN categories c ON c.id = g.category_id WHERE c.slug = 'live-casino' AND g.active LIMIT 1",
    );
    const player = await registeredPlayer(server);
    const res = await server.call('casinoInitGame', { token: player.token, body: { gameId: live!.id, currencyCode: 'LTC' } });
    const liveTable = await table(res.body.data.gameSession.sessionId, player);
    expect(liveTable.status).toBe(200);
    expect(liveTable.body.data.houseTable).toMatchObject({ engine: null, balance: null, seeds: null, openRound: null, slotSkin: null });

    // A generated slot title plays its own skin.
    const [slot] = await server.db.query<{ id: number; slot_skin: SlotSkin }>(
      "SELECT g.id::int AS id, g.slot_skin FROM games g JOIN providers p ON p.id = g.provider_id WHERE g.engine = 'slot' AND p.slug <> 'house' AND g.has_demo LIMIT 1",
    );
    const slotTable = await table(await demoSession(slot!.id), null);
    expect(slotTable.body.data.houseTable).toMatchObject({ engine: 'slot', demo: true, currencyCode: null, balance: '1000' });
    expect(slotTable.body.data.houseTable.slotSkin).toEqual(slot!.slot_skin);
  });
});

describe('real money', () => {
  it('moves exactly the bet and the payout through the wallet, and the nonce counts played rounds from 0', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await realSession(player, 'dice');
    const opened = await table(sessionId, player);
    expect(opened.status).toBe(200);
    expect(opened.body.data.houseTable).toMatchObject({
      engine: 'dice',
      demo: false,
      currencyCode: 'LTC',
      balance: '1',
      minBet: '0.00000001',
      maxBet: '100',
      openRound: null,
      seeds: { nonce: 0 },
    });
    const { serverSeedHash, clientSeed } = opened.body.data.houseTable.seeds;

    let balance = '1';
    for (let nonce = 0; nonce < 3; nonce += 1) {
      const before = await ledgerTransactionCount(server);
      const res = await dice(sessionId, player, '0.1');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const round = res.body.data.houseRound;
      expect(round).toMatchObject({ engine: 'dice', demo: false, amount: '0.1', currencyCode: 'LTC', state: 'settled', seeds: { serverSeedHash, clientSeed, nonce } });
      expect(round.payout).toBe(round.outcome.win ? '0.2' : '0');
      balance = plus(minus(balance, '0.1'), round.payout);
      expect(round.balance).toBe(balance);
      expect(await ltcBalance(player.user.id)).toBe(balance);
      // One bet and one win (0 for a loss, which moves nothing) in the wallet; a ledger entry for what moved.
      expect(await walletCalls(round.roundId)).toEqual([
        ['bet', '0.1'],
        ['win', round.payout],
      ]);
      expect(await ledgerTransactionCount(server)).toBe(before + (round.outcome.win ? 2 : 1));
    }
    expect((await table(sessionId, player)).body.data.houseTable.seeds.nonce).toBe(3);
  });

  it('plays Limbo, Plinko, the slot and Mines the same way', async () => {
    const player = await fundedPlayer('5');
    let balance = '5';
    const expectRound = async (res: CallResult, stake: string) => {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const round = res.body.data.houseRound;
      balance = plus(minus(balance, stake), round.payout);
      expect(round.balance).toBe(balance);
      expect(await ltcBalance(player.user.id)).toBe(balance);
      expect(await walletCalls(round.roundId)).toEqual([
        ['bet', stake],
        ['win', round.payout],
      ]);
      return round;
    };
    const limbo = await expectRound(await call('housePlayLimbo', await realSession(player, 'limbo'), player, { amount: '0.1', target: 150 }), '0.1');
    expect(limbo.payout).toBe(limbo.outcome.win ? '0.15' : '0');

    const plinko = await expectRound(await call('housePlayPlinko', await realSession(player, 'plinko'), player, { amount: '0.1', rows: 8, risk: 'low' }), '0.1');
    expect(plinko.outcome.path).toHaveLength(8);
    expect(plinko.outcome.bucket).toBe(plinko.outcome.path.filter((step: string) => step === 'R').length);
    expect(plinko.payout).toBe(formatAmount(ratioPayout(units('0.1'), { num: BigInt([560, 280, 130, 80, 50, 80, 130, 280, 560][plinko.outcome.bucket]!), den: 100n })));

    const slot = await expectRound(await call('housePlaySlot', await realSession(player, 'classic-slot'), player, { amount: '0.2' }), '0.2');
    expect(slot.outcome.grid).toHaveLength(3);

    // Mines: the bet at the start, the win at the cash out.
    const minesSession = await realSession(player, 'mines');
    const started = await call('houseMinesStart', minesSession, player, { amount: '0.1', mineCount: 3 });
    expect(started.status).toBe(200);
    expect(started.body.data.houseRound).toMatchObject({ state: 'open', payout: '0', multiplier: null, outcome: { revealed: [], mines: null, end: null } });
    balance = minus(balance, '0.1');
    expect(started.body.data.houseRound.balance).toBe(balance);
    const safe = await safeTiles(started.body.data.houseRound.roundId);
    const first = await call('houseMinesReveal', minesSession, player, { tile: safe[0] });
    expect(first.body.data.houseRound).toMatchObject({ state: 'open', outcome: { revealed: [safe[0]], mines: null } });
    await call('houseMinesReveal', minesSession, player, { tile: safe[1] });
    const resumed = await table(minesSession, player);
    expect(resumed.body.data.houseTable.openRound).toMatchObject({ roundId: started.body.data.houseRound.roundId, outcome: { revealed: [safe[0], safe[1]] } });
    const cashed = await call('houseMinesCashOut', minesSession, player);
    const won = formatAmount(ratioPayout(units('0.1'), minesMultiplier(3, 2)));
    expect(cashed.body.data.houseRound).toMatchObject({ state: 'settled', payout: won, outcome: { end: 'cashed' } });
    expect(cashed.body.data.houseRound.outcome.mines).toHaveLength(3);
    balance = plus(balance, won);
    expect(await ltcBalance(player.user.id)).toBe(balance);
    expect(await walletCalls(started.body.data.houseRound.roundId)).toEqual([
      ['bet', '0.1'],
      ['win', won],
    ]);

    // A mine ends the round with a win of 0.
    const again = await call('houseMinesStart', minesSession, player, { amount: '0.1', mineCount: 24 });
    const [mine] = await mineTiles(again.body.data.houseRound.roundId);
    const busted = await call('houseMinesReveal', minesSession, player, { tile: mine });
    expect(busted.body.data.houseRound).toMatchObject({ state: 'settled', payout: '0', multiplier: '0', outcome: { end: 'busted' } });
    expect(await walletCalls(again.body.data.houseRound.roundId)).toEqual([
      ['bet', '0.1'],
      ['win', '0'],
    ]);
    expect(await ltcBalance(player.user.id)).toBe(minus(balance, '0.1'));
  });

  it('refuses with the wallet\'s codes: balance, bet limits, self-exclusion; nothing moves and no nonce is taken', async () => {
    const player = await fundedPlayer('0.5');
    const sessionId = await realSession(player, 'dice');
    expect(code(await dice(sessionId, player, '0.6'))).toEqual([422, 'INSUFFICIENT_BALANCE']);
    expect((await server.call('rgUpdateLimit', { token: player.token, body: { limitType: 'bet', daily: '0.15' } })).status).toBe(200);
    expect((await dice(sessionId, player, '0.1')).status).toBe(200);
    const before = await ltcBalance(player.user.id);
    expect(code(await dice(sessionId, player, '0.1'))).toEqual([422, 'DAILY_BET_LIMIT_EXCEEDED']);
    await server.db.query('UPDATE users SET self_excluded_until = $2 WHERE id = $1', [player.user.id, new Date(server.clock.now().getTime() + 48 * HOUR)]);
    try {
      expect(code(await dice(sessionId, player, '0.01'))).toEqual([403, 'SELF_EXCLUDED']);
    } finally {
      await server.db.query('UPDATE users SET self_excluded_until = NULL WHERE id = $1', [player.user.id]);
    }
    expect(await ltcBalance(player.user.id)).toBe(before);
    expect((await table(sessionId, player)).body.data.houseTable.seeds.nonce).toBe(1);
    const [voided] = await server.db.query<{ count: number }>("SELECT count(*)::int AS count FROM house_rounds WHERE session_id = $1 AND state = 'void'", [sessionId]);
    expect(voided!.count).toBe(3);
  });

  it('plays concurrent rounds one at a time: each its own nonce, no balance overdrawn', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await realSession(player, 'limbo');
    // A target of ×1,000,000 all but always loses, so exactly ten stakes of 0.1 fit.
    const results = await Promise.all(
      Array.from({ length: 16 }, () => call('housePlayLimbo', sessionId, player, { amount: '0.1', target: 100_000_000 })),
    );
    const played = results.filter((res) => res.status === 200).map((res) => res.body.data.houseRound);
    expect(results.filter((res) => res.status !== 200).map(code)).toEqual(Array.from({ length: 6 }, () => [422, 'INSUFFICIENT_BALANCE']));
    expect(played.map((round) => round.seeds.nonce).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await ltcBalance(player.user.id)).toBe('0');
  });

  it("draws rounds of two games at once on the player's one pair: each takes its own nonce, none is lost", async () => {
    const player = await fundedPlayer('2');
    const sessions = [await realSession(player, 'dice'), await realSession(player, 'limbo')];
    // The rounds read the pair's next nonce before writing their draws: one that finds it taken draws again.
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, k) =>
        k % 2 === 0
          ? dice(sessions[0]!, player, '0.1')
          : call('housePlayLimbo', sessions[1]!, player, { amount: '0.1', target: 200 }),
      ),
    );
    expect(results.map((res) => res.status)).toEqual(Array.from({ length: 16 }, () => 200));
    const nonces = results.map((res) => res.body.data.houseRound.seeds.nonce as number).sort((a, b) => a - b);
    expect(nonces).toEqual(Array.from({ length: 16 }, (_, k) => k));
    expect((await table(sessions[0]!, player)).body.data.houseTable.seeds.nonce).toBe(16);
  });

  it('opens one Mines round of ten started at once: the others are refused ROUND_IN_PROGRESS and charge nothing', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await realSession(player, 'mines');
    const results = await Promise.all(Array.from({ length: 10 }, () => call('houseMinesStart', sessionId, player, { amount: '0.1', mineCount: 3 })));
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
    expect(results.filter((res) => res.status !== 200).map(code)).toEqual(Array.from({ length: 9 }, () => [409, 'ROUND_IN_PROGRESS']));
    expect(await ltcBalance(player.user.id)).toBe('0.9');
    const [rounds] = await server.db.query<{ charged: number }>(
      "SELECT count(*)::int AS charged FROM house_rounds WHERE session_id = $1 AND state NOT IN ('void')",
      [sessionId],
    );
    expect(rounds!.charged).toBe(1);
    // Demo: the same, with play money.
    const demo = await demoSession(games.mines!);
    const demoResults = await Promise.all(Array.from({ length: 10 }, () => call('houseMinesStart', demo, null, { amount: '1', mineCount: 3 })));
    expect(demoResults.filter((res) => res.status === 200)).toHaveLength(1);
    expect((await table(demo, null)).body.data.houseTable.balance).toBe('999');
  });

  it('keeps none of a Mines win for the player that the forfeited bonus staked: its share goes back to the pool', async () => {
    const player = await registeredPlayer(server);
    const offers = (await server.call('bonusList', { query: { limit: 100 } })).body.data.bonus.rows as { id: number; type: string }[];
    const deposit = offers.find((offer) => offer.type === 'deposit')!;
    const claimed = await server.call('bonusAvail', { token: player.token, body: { bonusId: deposit.id, currencyId: 1 } });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    const address = await depositAddress(server, player, '0.1');
    const txId = await chainTransfer(server, address, '0.1');
    expect((await server.call('devChainConfirm', { body: { txId, confirmations: 6 } })).body.data.transfer.settled).toBe(true);
    // 0.1 deposited and 0.1 of bonus money: the stake of 0.2 is half each.
    const sessionId = await realSession(player, 'mines');
    const started = (await call('houseMinesStart', sessionId, player, { amount: '0.2', mineCount: 3 })).body.data.houseRound;
    const [tile] = await safeTiles(started.roundId);
    expect((await call('houseMinesReveal', sessionId, player, { tile })).status).toBe(200);
    const userBonusId = claimed.body.data.userBonus.id as number;
    expect((await server.call('bonusCancel', { token: player.token, body: { userBonusId } })).status).toBe(200);
    const cashed = (await call('houseMinesCashOut', sessionId, player)).body.data.houseRound;
    const won = units(cashed.payout);
    // The bonus's half of the win, rounded up (bonus money never becomes cash by rounding), is not the player's.
    const bonusShare = (won + 1n) / 2n;
    expect(await ltcBalance(player.user.id)).toBe(formatAmount(won - bonusShare));
    const withdraw = await server.call('paymentWithdraw', {
      token: player.token,
      body: { amount: '0.2', address: 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9', currencyCode: 'LTC' },
    });
    expect(code(withdraw)).toEqual([422, 'INSUFFICIENT_BALANCE']);
  });

  it('counts house bets toward bonus wagering', async () => {
    const player = await registeredPlayer(server);
    const offers = (await server.call('bonusList', { query: { limit: 100 } })).body.data.bonus.rows as { id: number; type: string }[];
    const joining = offers.find((offer) => offer.type === 'joining')!;
    const claimed = await server.call('bonusAvail', { token: player.token, body: { bonusId: joining.id, currencyId: 1 } });
    expect(claimed.body.data.userBonus).toMatchObject({ status: 'active', wageredAmount: '0' });
    const sessionId = await realSession(player, 'dice');
    expect((await table(sessionId, player)).body.data.houseTable.balance).toBe('0.01');
    expect((await dice(sessionId, player, '0.004')).status).toBe(200);
    expect((await dice(sessionId, player, '0.001')).status).toBe(200);
    const active = await server.call('bonusUserList', { token: player.token, query: { status: 'active' } });
    expect(active.body.data.userBonus.rows[0]).toMatchObject({ wageredAmount: '0.005' });
  });
});

describe('demo', () => {
  it('plays with play money and never touches the wallet', async () => {
    const before = await ledgerTransactionCount(server);
    const [rounds] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM game_rounds');
    const sessionId = await demoSession(games.dice!);
    const opened = await table(sessionId, null);
    expect(opened.body.data.houseTable).toMatchObject({ demo: true, currencyCode: null, balance: '1000', maxBet: '100', seeds: { nonce: 0 } });
    const res = await dice(sessionId, null, '10', 9800, 'under');
    expect(res.status).toBe(200);
    const round = res.body.data.houseRound;
    expect(round).toMatchObject({ demo: true, currencyCode: null, state: 'settled', seeds: { nonce: 0 } });
    expect(round.balance).toBe(plus('990', round.payout));
    const mines = await demoSession(games.mines!);
    const started = await call('houseMinesStart', mines, null, { amount: '5', mineCount: 1 });
    expect(started.body.data.houseRound.balance).toBe('995');
    const [tile] = await safeTiles(started.body.data.houseRound.roundId);
    await call('houseMinesReveal', mines, null, { tile });
    const cashed = await call('houseMinesCashOut', mines, null);
    expect(cashed.body.data.houseRound.balance).toBe(plus('995', cashed.body.data.houseRound.payout));
    const slot = await call('housePlaySlot', await demoSession(games['classic-slot']!), null, { amount: '1' });
    expect(slot.body.data.houseRound.balance).toBe(plus('999', slot.body.data.houseRound.payout));
    const plinko = await call('housePlayPlinko', await demoSession(games.plinko!), null, { amount: '1', rows: 16, risk: 'high' });
    expect(plinko.status).toBe(200);
    const limbo = await call('housePlayLimbo', await demoSession(games.limbo!), null, { amount: '1', target: 101 });
    expect(limbo.status).toBe(200);
    expect(code(await dice(sessionId, null, '100.00000001'))).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);

    expect(await ledgerTransactionCount(server)).toBe(before);
    const [after] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM game_rounds');
    expect(after!.count).toBe(rounds!.count);
  });
});

describe('provably fair', () => {
  it('answers outcomes the library recomputes from the revealed seed, and shows the seeds in the bet history', async () => {
    const player = await fundedPlayer('2');
    const sessionId = await realSession(player, 'dice');
    const limboSession = await realSession(player, 'limbo');
    const played = [
      (await dice(sessionId, player, '0.01', 5000, 'over')).body.data.houseRound,
      (await call('housePlayLimbo', limboSession, player, { amount: '0.01', target: 200 })).body.data.houseRound,
      (await dice(sessionId, player, '0.01', 2500, 'under')).body.data.houseRound,
    ];
    expect(played.map((round) => round.seeds.nonce)).toEqual([0, 1, 2]);
    const hash = played[0].seeds.serverSeedHash;

    const history = async () => (await server.call('casinoGetTransactions', { token: player.token })).body.data.betHistory.rows;
    const before = await history();
    expect(before).toHaveLength(3);
    for (const row of before) {
      const round = played.find((p) => p.roundId === row.roundId);
      expect(row.fairness).toEqual({ engine: round.engine, serverSeedHash: hash, clientSeed: round.seeds.clientSeed, nonce: round.seeds.nonce, serverSeed: null, params: round.params, outcome: round.outcome, slotSkin: null });
      expect(row.payout).toBe(round.payout);
    }

    // Rotating reveals the seed (and refuses a client seed that cannot be typed back).
    expect(code(await call('houseRotateSeeds', sessionId, player, { clientSeed: 'has space' }))).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    const rotated = await call('houseRotateSeeds', sessionId, player, { clientSeed: 'my-own-seed' });
    expect(rotated.status).toBe(200);
    const { revealed, seeds } = rotated.body.data;
    expect(revealed).toMatchObject({ serverSeedHash: hash, clientSeed: played[0].seeds.clientSeed, rounds: 3 });
    expect(await sha256Hex(revealed.serverSeed)).toBe(hash);
    expect(seeds).toMatchObject({ clientSeed: 'my-own-seed', nonce: 0 });
    expect(seeds.serverSeedHash).not.toBe(hash);
    for (const round of played) {
      const check = await verify(round.engine as HouseGame, { serverSeed: revealed.serverSeed, clientSeed: round.seeds.clientSeed, nonce: round.seeds.nonce }, round.params);
      if (!check.ok) throw new Error(check.error);
      const { multiplier: _m, ...outcome } = check.outcome as unknown as Record<string, unknown>;
      expect(outcome).toEqual(round.outcome);
    }
    for (const row of await history()) expect(row.fairness.serverSeed).toBe(revealed.serverSeed);

    // The next round uses the new pair from nonce 0; the slot's outcome is the library's for the title's skin.
    const slotSession = await realSession(player, 'classic-slot');
    const spin = (await call('housePlaySlot', slotSession, player, { amount: '0.01' })).body.data.houseRound;
    expect(spin.seeds).toEqual({ serverSeedHash: seeds.serverSeedHash, clientSeed: seeds.clientSeed, nonce: 0 });
    const skin = (await table(slotSession, player)).body.data.houseTable.slotSkin as SlotSkin;
    const next = (await call('houseRotateSeeds', slotSession, player, {})).body.data;
    expect(next.seeds.clientSeed).toBe('my-own-seed');
    const check = await verify('slot', { serverSeed: next.revealed.serverSeed, clientSeed: 'my-own-seed', nonce: 0 }, { skin });
    if (!check.ok) throw new Error(check.error);
    expect(check.outcome.grid).toEqual(spin.outcome.grid);
    expect(formatAmount(ratioPayout(units('0.01'), check.outcome.multiplier))).toBe(spin.payout);
    // The bet history gives the spin's skin with its seeds, so /fairness can recompute it from the history alone.
    const rows: { roundId: string; fairness: { serverSeed: string; clientSeed: string; nonce: number; slotSkin: SlotSkin } }[] = await history();
    const spinRow = rows.find((row) => row.roundId === spin.roundId)!;
    expect(spinRow.fairness).toMatchObject({ engine: 'slot', serverSeed: next.revealed.serverSeed, nonce: 0, slotSkin: skin });
    const fromHistory = await verify('slot', { serverSeed: spinRow.fairness.serverSeed, clientSeed: spinRow.fairness.clientSeed, nonce: spinRow.fairness.nonce }, { skin: spinRow.fairness.slotSkin });
    if (!fromHistory.ok) throw new Error(fromHistory.error);
    expect(fromHistory.outcome.grid).toEqual(spin.outcome.grid);
  });

  it('keeps a demo session\'s seeds apart from the player\'s, and refuses to rotate under an open Mines round', async () => {
    const demo = await demoSession(games.mines!);
    await call('houseMinesStart', demo, null, { amount: '1', mineCount: 5 });
    expect(code(await call('houseRotateSeeds', demo, null, {}))).toEqual([409, 'ROUND_IN_PROGRESS']);
    expect((await table(demo, null)).body.data.houseTable.seeds.nonce).toBe(1);
  });
});

describe('the next seed pair', () => {
  const HEX64 = /^[0-9a-f]{64}$/;
  type Seeds = { serverSeedHash: string; clientSeed: string; nonce: number; nextServerSeedHash: string; nextClientSeed: string };
  const setNext = (sessionId: string, player: Player | null, clientSeed: string) => call('houseSetNextSeed', sessionId, player, { clientSeed });

  it('shows the next server seed hash before the client seed is chosen, and rotating makes that pair active as shown', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await realSession(player, 'dice');
    const shown: Seeds = (await table(sessionId, player)).body.data.houseTable.seeds;
    expect(shown.nextServerSeedHash).toMatch(HEX64);
    expect(shown.nextServerSeedHash).not.toBe(shown.serverSeedHash);
    // Until the player sets one, the next client seed is the active one.
    expect(shown.nextClientSeed).toBe(shown.clientSeed);
    const first = (await dice(sessionId, player, '0.01')).body.data.houseRound;

    // The next client seed is set after its server seed's hash was shown, the active pair untouched.
    expect(code(await setNext(sessionId, player, 'has space'))).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    expect(code(await setNext(sessionId, player, 'a:b'))).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    expect(code(await call('houseSetNextSeed', sessionId, player, {}))).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    const set = await setNext(sessionId, player, 'chosen-after-the-hash');
    expect(set.status).toBe(200);
    const afterSet = { ...shown, nonce: 1, nextClientSeed: 'chosen-after-the-hash' };
    expect(set.body.data.seeds).toEqual(afterSet);
    expect((await table(sessionId, player)).body.data.houseTable.seeds).toEqual(afterSet);

    // Rotating reveals the active seed and makes the shown next pair active: its hash, the chosen client seed.
    const rotated = (await call('houseRotateSeeds', sessionId, player, {})).body.data;
    expect(rotated.revealed).toMatchObject({ serverSeedHash: shown.serverSeedHash, clientSeed: shown.clientSeed, rounds: 1 });
    expect(await sha256Hex(rotated.revealed.serverSeed)).toBe(shown.serverSeedHash);
    expect(rotated.seeds).toMatchObject({ serverSeedHash: shown.nextServerSeedHash, clientSeed: 'chosen-after-the-hash', nonce: 0, nextClientSeed: 'chosen-after-the-hash' });
    expect(rotated.seeds.nextServerSeedHash).toMatch(HEX64);
    expect([shown.serverSeedHash, shown.nextServerSeedHash]).not.toContain(rotated.seeds.nextServerSeedHash);
    expect((await table(sessionId, player)).body.data.houseTable.seeds).toEqual(rotated.seeds);
    const check = await verify('dice', { serverSeed: rotated.revealed.serverSeed, clientSeed: shown.clientSeed, nonce: 0 }, first.params);
    if (!check.ok) throw new Error(check.error);
    expect(check.outcome.roll).toBe(first.outcome.roll);

    // The pair made active plays from nonce 0; a rotation's client seed is the next one's, set and rotated to.
    const second = (await dice(sessionId, player, '0.01')).body.data.houseRound;
    expect(second.seeds).toEqual({ serverSeedHash: shown.nextServerSeedHash, clientSeed: 'chosen-after-the-hash', nonce: 0 });
    const again = (await call('houseRotateSeeds', sessionId, player, { clientSeed: 'given-at-rotation' })).body.data;
    expect(await sha256Hex(again.revealed.serverSeed)).toBe(shown.nextServerSeedHash);
    expect(again.revealed).toMatchObject({ clientSeed: 'chosen-after-the-hash', rounds: 1 });
    expect(again.seeds).toMatchObject({ serverSeedHash: rotated.seeds.nextServerSeedHash, clientSeed: 'given-at-rotation', nonce: 0, nextClientSeed: 'given-at-rotation' });
    const secondCheck = await verify('dice', { serverSeed: again.revealed.serverSeed, clientSeed: 'chosen-after-the-hash', nonce: 0 }, second.params);
    if (!secondCheck.ok) throw new Error(secondCheck.error);
    expect(secondCheck.outcome.roll).toBe(second.outcome.roll);

    // A demo session's next pair is its own.
    const demo = await demoSession(games.dice!);
    const demoSeeds: Seeds = (await table(demo, null)).body.data.houseTable.seeds;
    expect((await setNext(demo, null, 'demo-next')).body.data.seeds).toEqual({ ...demoSeeds, nextClientSeed: 'demo-next' });
    expect(demoSeeds.nextServerSeedHash).not.toBe(again.seeds.nextServerSeedHash);
    expect((await table(sessionId, player)).body.data.houseTable.seeds).toEqual(again.seeds);
  });

  it('sets the next client seed while a Mines round is open: the round plays on with its board as drawn', async () => {
    const demo = await demoSession(games.mines!);
    const before: Seeds = (await table(demo, null)).body.data.houseTable.seeds;
    const started = (await call('houseMinesStart', demo, null, { amount: '1', mineCount: 5 })).body.data.houseRound;
    const mines = await board(started.roundId);

    const set = await setNext(demo, null, 'set-mid-round');
    expect(set.status).toBe(200);
    expect(set.body.data.seeds).toEqual({ ...before, nonce: 1, nextClientSeed: 'set-mid-round' });
    expect(await board(started.roundId)).toEqual(mines);
    const [safe] = await safeTiles(started.roundId);
    const revealed = (await call('houseMinesReveal', demo, null, { tile: safe })).body.data.houseRound;
    expect(revealed).toMatchObject({ state: 'open', seeds: started.seeds });
    expect(code(await call('houseRotateSeeds', demo, null, {}))).toEqual([409, 'ROUND_IN_PROGRESS']);
    expect((await table(demo, null)).body.data.houseTable.seeds).toEqual({ ...before, nonce: 1, nextClientSeed: 'set-mid-round' });

    const ended = (await call('houseMinesCashOut', demo, null)).body.data.houseRound;
    expect(ended.outcome.mines).toEqual(mines);
    const rotated = (await call('houseRotateSeeds', demo, null, {})).body.data;
    expect(rotated.seeds).toMatchObject({ serverSeedHash: before.nextServerSeedHash, clientSeed: 'set-mid-round', nonce: 0 });
    const check = await verify('mines', { serverSeed: rotated.revealed.serverSeed, clientSeed: before.clientSeed, nonce: 0 }, { mineCount: 5 });
    if (!check.ok) throw new Error(check.error);
    expect(check.outcome.mines).toEqual(mines);
  });

  it('rotates one pair per call when rotations run at once: each reveals the pair the one before made active', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await realSession(player, 'dice');
    const shown: Seeds = (await table(sessionId, player)).body.data.houseTable.seeds;
    const answers = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const res = await call('houseRotateSeeds', sessionId, player, { clientSeed: `rotation-${i}` });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.data as { revealed: { serverSeed: string; serverSeedHash: string; clientSeed: string }; seeds: Seeds };
      }),
    );
    // Followed from the pair shown first: each rotation reveals the active pair and makes the shown next one active.
    let active = shown;
    for (let i = 0; i < answers.length; i++) {
      const step = answers.find((answer) => answer.revealed.serverSeedHash === active.serverSeedHash);
      if (!step) throw new Error(`no rotation revealed pair ${i}`);
      expect(await sha256Hex(step.revealed.serverSeed)).toBe(active.serverSeedHash);
      expect(step.revealed.clientSeed).toBe(active.clientSeed);
      expect(step.seeds.serverSeedHash).toBe(active.nextServerSeedHash);
      active = step.seeds;
    }
    expect((await table(sessionId, player)).body.data.houseTable.seeds).toEqual(active);
    const pairs = await server.db.query<{ server_seed_hash: string; revealed: boolean }>(
      'SELECT server_seed_hash, revealed_at IS NOT NULL AS revealed FROM house_seed_pairs WHERE user_id = $1 ORDER BY id',
      [player.user.id],
    );
    expect(pairs.map((pair) => pair.revealed)).toEqual([true, true, true, true, true, true, false]);
    expect(new Set(pairs.map((pair) => pair.server_seed_hash)).size).toBe(7);
  });
});

describe('a wallet that does not answer', () => {
  it('retries a bet whose answer was lost with the same transaction id: charged once', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await realSession(player, 'dice');
    let lost = 0;
    const restore = withTransport((real) => async (path, body, signature) => {
      const answer = await real(path, body, signature);
      if (path === '/game-wallet/bet' && lost === 0) {
        lost += 1;
        throw Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
      }
      return answer;
    });
    try {
      const res = await dice(sessionId, player, '0.1');
      expect(res.status).toBe(200);
      const round = res.body.data.houseRound;
      expect(lost).toBe(1);
      expect(await walletCalls(round.roundId)).toEqual([
        ['bet', '0.1'],
        ['win', round.payout],
      ]);
      expect(await ltcBalance(player.user.id)).toBe(plus('0.9', round.payout));
    } finally {
      restore();
    }
  });

  it('rolls back a bet that stays unanswered: nothing played, nothing charged, no nonce taken', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await realSession(player, 'dice');
    let bets = 0;
    const restore = withTransport((real) => async (path, body, signature) => {
      if (path !== '/game-wallet/bet') return real(path, body, signature);
      bets += 1;
      // The first attempt goes through but its answer is lost; the retries never arrive.
      if (bets === 1) await real(path, body, signature);
      throw new Error('connect ECONNREFUSED');
    });
    try {
      expect(code(await dice(sessionId, player, '0.1'))).toEqual([502, 'GAME_WALLET_UNAVAILABLE']);
    } finally {
      restore();
    }
    expect(bets).toBe(3);
    expect(await ltcBalance(player.user.id)).toBe('1');
    const [round] = await server.db.query<{ round_id: string; state: string; nonce: number | null }>(
      'SELECT round_id, state, nonce FROM house_rounds WHERE session_id = $1',
      [sessionId],
    );
    expect(round).toMatchObject({ state: 'void', nonce: null });
    expect(await walletCalls(round!.round_id)).toEqual([
      ['bet', '0.1'],
      ['rollbackBet', '0.1'],
    ]);
    const history = (await server.call('casinoGetTransactions', { token: player.token })).body.data.betHistory.rows;
    expect(history).toMatchObject([{ roundId: round!.round_id, status: 'rolledBack' }]);
    expect(history[0].fairness).toBeUndefined();
    expect((await table(sessionId, player)).body.data.houseTable.seeds.nonce).toBe(0);
  });

  it('plays nothing when a later call took the round for stale while its bet was on its way: the bet rolled back, no nonce taken', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await realSession(player, 'dice');
    let overtaken = false;
    const restore = withTransport((real) => async (path, body, signature) => {
      const answer = await real(path, body, signature);
      if (path === '/game-wallet/bet' && !overtaken) {
        overtaken = true;
        // The bet's answer comes late: meanwhile the player's next call finds the round stale and rolls it back.
        server.clock.advance(2 * 60_000);
        expect((await table(sessionId, player)).body.data.houseTable.balance).toBe('1');
      }
      return answer;
    });
    try {
      expect(code(await dice(sessionId, player, '0.1'))).toEqual([502, 'GAME_WALLET_UNAVAILABLE']);
    } finally {
      restore();
    }
    expect(overtaken).toBe(true);
    expect(await ltcBalance(player.user.id)).toBe('1');
    const [round] = await server.db.query<{ round_id: string; state: string; nonce: number | null }>(
      'SELECT round_id, state, nonce FROM house_rounds WHERE session_id = $1',
      [sessionId],
    );
    expect(round).toMatchObject({ state: 'void', nonce: null });
    expect(await walletCalls(round!.round_id)).toEqual([
      ['bet', '0.1'],
      ['rollbackBet', '0.1'],
    ]);
    expect((await table(sessionId, player)).body.data.houseTable.seeds.nonce).toBe(0);
  });

  it('rolls back nothing when the round was drawn between a later call finding it stale and rolling it back', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await realSession(player, 'dice');
    const db = server.db;
    const realQuery = db.query.bind(db);
    // The bet's answer comes late; meanwhile the player's next call finds the round stale. Its rollback
    // waits here until the first call has written the round's draw.
    let drawn: () => void = () => undefined;
    const draw = new Promise<void>((resolve) => (drawn = resolve));
    let resolverAt: () => void = () => undefined;
    const atRollback = new Promise<void>((resolve) => (resolverAt = resolve));
    let resolver: Promise<CallResult> | null = null;
    db.query = (async (sql: string, params?: readonly unknown[], options?: object) => {
      if (sql.includes('SET rollback_transaction_id')) {
        resolverAt();
        await draw;
      }
      return realQuery(sql, params, options);
    }) as typeof db.query;
    const restore = withTransport((real) => async (path, body, signature) => {
      const answer = await real(path, body, signature);
      if (path === '/game-wallet/bet' && resolver === null) {
        server.clock.advance(2 * 60_000);
        resolver = table(sessionId, player);
        await atRollback;
      }
      if (path === '/game-wallet/win') drawn();
      return answer;
    });
    let played: CallResult;
    try {
      played = await dice(sessionId, player, '0.1');
      expect(resolver).not.toBeNull();
      expect((await resolver!).status).toBe(200);
    } finally {
      restore();
      db.query = realQuery;
    }
    expect(played.status, JSON.stringify(played.body)).toBe(200);
    const round = played.body.data.houseRound;
    expect(round.state).toBe('settled');
    expect(await walletCalls(round.roundId)).toEqual([
      ['bet', '0.1'],
      ['win', round.payout],
    ]);
    expect(await ltcBalance(player.user.id)).toBe(plus(minus('1', '0.1'), round.payout));
  });

  it('finishes a round left unresolved at the next call once stale: the bet rolled back, an owed win paid once', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await realSession(player, 'dice');
    // The wallet takes the bet, then nothing answers: not even the rollback.
    const restore = withTransport((real) => async (path, body, signature) => {
      if (path === '/game-wallet/bet') await real(path, body, signature);
      throw new Error('socket hang up');
    });
    try {
      expect(code(await dice(sessionId, player, '0.1'))).toEqual([502, 'GAME_WALLET_UNAVAILABLE']);
    } finally {
      restore();
    }
    expect(await ltcBalance(player.user.id)).toBe('0.9');
    // Not yet stale: left alone (it could be another call of the player's still in flight).
    expect((await table(sessionId, player)).body.data.houseTable.balance).toBe('0.9');
    server.clock.advance(2 * 60_000);
    expect((await table(sessionId, player)).body.data.houseTable.balance).toBe('1');

    // A win left unanswered: the round is pending, and paid once by a later call.
    const winsLost = withTransport((real) => async (path, body, signature) => {
      if (path === '/game-wallet/win') throw new Error('socket hang up');
      return real(path, body, signature);
    });
    let round;
    try {
      const res = await dice(sessionId, player, '0.1', 9800, 'under');
      expect(res.status).toBe(200);
      round = res.body.data.houseRound;
      expect(round).toMatchObject({ state: 'pending', balance: null });
    } finally {
      winsLost();
    }
    server.clock.advance(2 * 60_000);
    const paid = await table(sessionId, player);
    expect(paid.body.data.houseTable.balance).toBe(plus('0.9', round.payout));
    await table(sessionId, player);
    expect(await walletCalls(round.roundId)).toEqual([
      ['bet', '0.1'],
      ['win', round.payout],
    ]);
    const [state] = await server.db.query<{ state: string }>('SELECT state FROM house_rounds WHERE round_id = $1', [round.roundId]);
    expect(state!.state).toBe('settled');
  });
});

describe('bad input', () => {
  it('answers a clear error in the envelope', async () => {
    const player = await fundedPlayer('1');
    const other = await registeredPlayer(server);
    const sessionId = await realSession(player, 'dice');
    const fields = (res: CallResult) => res.body.errors[0].fields;

    expect(fields(await dice(sessionId, player, '0'))).toEqual([{ field: 'amount', code: 'amount.positive' }]);
    expect(code(await dice(sessionId, player, '0.000000001'))).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    expect(code(await dice(sessionId, player, '-1'))).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    expect(fields(await dice(sessionId, player, '100.1'))).toEqual([{ field: 'amount', code: 'amount.max' }]);
    expect(fields(await dice(sessionId, player, '0.1', 9900, 'under'))).toEqual([{ field: 'target', code: 'dice.chance' }]);
    expect(fields(await call('housePlayLimbo', await realSession(player, 'limbo'), player, { amount: '0.1', target: 100 }))).toEqual([
      { field: 'target', code: 'minimum' },
    ]);
    expect(code(await dice('x'.repeat(32), player, '0.1'))).toEqual([404, 'GAME_NOT_FOUND_ERROR']);
    expect(code(await dice(sessionId, other, '0.1'))).toEqual([404, 'GAME_NOT_FOUND_ERROR']);
    expect(code(await dice(sessionId, null, '0.1'))).toEqual([404, 'GAME_NOT_FOUND_ERROR']);
    expect(code(await table(sessionId, other))).toEqual([404, 'GAME_NOT_FOUND_ERROR']);
    // Another engine's operation on this session.
    expect(code(await call('housePlaySlot', sessionId, player, { amount: '0.1' }))).toEqual([404, 'GAME_NOT_FOUND_ERROR']);
    expect(code(await call('houseMinesCashOut', sessionId, player))).toEqual([404, 'GAME_NOT_FOUND_ERROR']);
    expect(await ltcBalance(player.user.id)).toBe('1');

    const mines = await realSession(player, 'mines');
    expect(code(await call('houseMinesReveal', mines, player, { tile: 3 }))).toEqual([422, 'ROUND_NOT_OPEN']);
    expect(code(await call('houseMinesStart', mines, player, { amount: '0.1', mineCount: 25 }))).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    const started = await call('houseMinesStart', mines, player, { amount: '0.1', mineCount: 2 });
    expect(code(await call('houseMinesStart', mines, player, { amount: '0.1', mineCount: 2 }))).toEqual([409, 'ROUND_IN_PROGRESS']);
    expect(code(await call('houseRotateSeeds', sessionId, player, {}))).toEqual([409, 'ROUND_IN_PROGRESS']);
    expect(code(await call('houseMinesCashOut', mines, player))).toEqual([422, 'CASHOUT_NOT_ALLOWED']);
    const [tile, next] = await safeTiles(started.body.data.houseRound.roundId);
    await call('houseMinesReveal', mines, player, { tile });
    const again = await call('houseMinesReveal', mines, player, { tile });
    expect(code(again)).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    expect(fields(again)).toEqual([{ field: 'tile', code: 'duplicate' }]);
    expect(code(await call('houseMinesReveal', mines, player, { tile: 25 }))).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    await call('houseMinesReveal', mines, player, { tile: next });
    expect((await call('houseMinesCashOut', mines, player)).status).toBe(200);
    expect(code(await call('houseMinesReveal', mines, player, { tile: 7 }))).toEqual([422, 'ROUND_NOT_OPEN']);
    expect(code(await call('houseMinesCashOut', mines, player))).toEqual([422, 'ROUND_NOT_OPEN']);

    // An expired session plays no more.
    server.clock.advance(5 * HOUR);
    expect(code(await dice(sessionId, player, '0.1'))).toEqual([404, 'GAME_NOT_FOUND_ERROR']);
  });
});

/** A Mines round's board, read where the provider keeps it (the player sees it only once the round ends). */
async function board(roundId: string): Promise<number[]> {
  const [row] = await server.db.query<{ outcome: { mines: number[] } }>('SELECT outcome FROM house_rounds WHERE round_id = $1', [roundId]);
  return row!.outcome.mines;
}

async function safeTiles(roundId: string): Promise<number[]> {
  const mines = await board(roundId);
  return Array.from({ length: 25 }, (_, tile) => tile).filter((tile) => !mines.includes(tile));
}

const mineTiles = board;

describe('the wallet in process (HOUSE_WALLET_HOP=in-process, for the benchmark)', () => {
  it('plays a real-money round through the same signed wallet calls without a socket', async () => {
    const inProcess = await startTestServer({ PAYMENT_WEBHOOK_SECRET: 'house-games-test-webhook-secret', HOUSE_WALLET_HOP: 'in-process' });
    try {
      await inProcess.app.listen({ port: 0, host: '127.0.0.1' });
      const player = await fundedWith(inProcess, '1');
      const init = await inProcess.call('casinoInitGame', { token: player.token, body: { gameId: games.dice, currencyCode: 'LTC' } });
      // No address to call any more: over HTTP the bet would go unanswered and be rolled back (502).
      inProcess.ctx.listening.url = null;
      const sessionId = init.body.data.gameSession.sessionId as string;
      const res = await inProcess.call('housePlayDice', { params: { sessionId }, token: player.token, body: { amount: '0.1', target: 4950, direction: 'under' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const round = res.body.data.houseRound;
      expect(round.state).toBe('settled');
      expect(round.balance).toBe(plus(minus('1', '0.1'), round.payout));
      await expectLedgerBalanced(inProcess);
    } finally {
      await inProcess.close();
    }
    expect(() => loadConfig({ HOUSE_WALLET_HOP: 'carrier-pigeon' })).toThrow(/HOUSE_WALLET_HOP/);
  });
});

describe('the HTTP hop to the wallet', () => {
  let stand: Server;
  let url: string;
  let answer: (req: IncomingMessage, body: string) => { status: number; body: string } | null;
  const seen: { path: string | undefined; signature: string | undefined; body: string; socket: unknown }[] = [];

  beforeAll(async () => {
    stand = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        seen.push({ path: req.url, signature: req.headers['x-game-signature'] as string | undefined, body, socket: req.socket });
        const reply = answer(req, body);
        if (reply) res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
      });
    });
    await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(stand.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    stand.closeAllConnections();
    await new Promise((resolve) => stand.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
  });

  it('posts the signed body as given and answers the status and the parsed body, on one kept connection', async () => {
    answer = (_req, body) => ({ status: body.includes('refuse') ? 422 : 200, body: JSON.stringify({ data: { echoed: JSON.parse(body) }, errors: [] }) });
    const transport = httpWalletTransport({ selfUrl: () => url, timeoutMs: 2_000 });
    const first = await transport('/game-wallet/bet', '{"roundId":"r-1","amount":"0.5"}', 'a'.repeat(64));
    expect(first).toEqual({ status: 200, body: { data: { echoed: { roundId: 'r-1', amount: '0.5' } }, errors: [] } });
    const second = await transport('/game-wallet/win', '{"refuse":"ção"}', 'b'.repeat(64));
    expect(second.status).toBe(422);
    expect(second.body).toEqual({ data: { echoed: { refuse: 'ção' } }, errors: [] });
    expect(seen.map(({ path, signature, body }) => [path, signature, body])).toEqual([
      ['/api/v1/game-wallet/bet', 'a'.repeat(64), '{"roundId":"r-1","amount":"0.5"}'],
      ['/api/v1/game-wallet/win', 'b'.repeat(64), '{"refuse":"ção"}'],
    ]);
    expect(seen[1]!.socket).toBe(seen[0]!.socket);
  });

  it('answers a body that is not JSON as null, and fails as unreachable when no answer comes in time or nothing listens', async () => {
    answer = () => ({ status: 502, body: '<html>bad gateway</html>' });
    const transport = httpWalletTransport({ selfUrl: () => url, timeoutMs: 300 });
    expect(await transport('/game-wallet/bet', '{}', 'c'.repeat(64))).toEqual({ status: 502, body: null });

    answer = () => null;
    const started = Date.now();
    await expect(transport('/game-wallet/bet', '{}', 'c'.repeat(64))).rejects.toBeInstanceOf(WalletUnreachableError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);

    await expect(httpWalletTransport({ selfUrl: () => null, timeoutMs: 300 })('/game-wallet/bet', '{}', 'c'.repeat(64))).rejects.toBeInstanceOf(
      WalletUnreachableError,
    );
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(httpWalletTransport({ selfUrl: () => `http://127.0.0.1:${port}`, timeoutMs: 300 })('/game-wallet/bet', '{}', 'c'.repeat(64))).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });
});
