import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount, parseSignedAmount } from '../../src/money.ts';
import { segwitAddress } from '../../server/addresses.ts';
import { playableGame, signedGameWalletCall, registeredPlayer, startTestServer, type CallResult, type TestServer } from '../helpers/api.ts';
import { chainTransfer, depositAddress, expectLedgerBalanced, ledgerTransactionCount, signedWebhook, walletOf, type Player } from '../helpers/money.ts';

/**
 * Money must never be created, lost or counted twice, whatever arrives, in whatever order, however often.
 * fast-check draws random interleavings of everything that moves a player's money — incoming transfers
 * and their confirmations, bets, wins, rollbacks, bonus claims and forfeits, withdrawals and their
 * settlements, deposit limits (deposits over them held apart, withdrawals drawing on the held money) and
 * days passing (held money released as the limit windows empty) — each possibly replayed, and drives
 * them through HTTP exactly as the provider, the game and the player would. After every step: no balance
 * is negative, nothing answered 5xx, and a replay moved nothing (same ledger, same wallet). After every
 * run: the ledger balances per currency and every cached balance equals the sum of its entries
 * (verifyLedger), and the player's transaction list chains from 0 to the available balance.
 */

const SECRET = 'money-properties-webhook-secret';

let server: TestServer;
let game: { id: number; secret: string };
let bonusIds: number[];
let ltcId: number;

beforeAll(async () => {
  server = await startTestServer({ PAYMENT_WEBHOOK_SECRET: SECRET, RATE_LIMIT: 'false' });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { id, secret } = await playableGame(server);
  game = { id, secret };
  const offers = await server.db.query<{ id: number }>("SELECT id FROM bonuses WHERE active AND type IN ('joining', 'daily', 'deposit', 'loyalty') ORDER BY id");
  bonusIds = offers.map((offer) => offer.id);
  const [ltc] = await server.db.query<{ id: number }>("SELECT id FROM currencies WHERE code = 'LTC'");
  ltcId = ltc!.id;
});
afterAll(async () => server.close());

type Step =
  | { kind: 'transfer'; amount: string }
  | { kind: 'confirm'; pick: number; confirmations: number }
  | { kind: 'deposit'; amount: string }
  | { kind: 'bet'; amount: string }
  | { kind: 'win'; pick: number; amount: string }
  | { kind: 'rollbackBet'; pick: number }
  | { kind: 'rollbackWin'; pick: number }
  | { kind: 'claim'; pick: number }
  | { kind: 'forfeit'; pick: number }
  | { kind: 'withdraw'; amount: string }
  | { kind: 'withdrawHeld' }
  | { kind: 'settle'; pick: number; outcome: 'confirmed' | 'failed' }
  | { kind: 'replay'; pick: number }
  | { kind: 'limit'; daily: string }
  | { kind: 'day' };

const step: fc.Arbitrary<Step> = fc.oneof(
  // Under the minimum deposit (never credited), ordinary, and large transfers.
  fc.record({ kind: fc.constant('transfer' as const), amount: fc.constantFrom('0.00004', '0.3', '1.2') }),
  fc.record({ kind: fc.constant('confirm' as const), pick: fc.nat(), confirmations: fc.integer({ min: 1, max: 6 }) }),
  // A transfer confirmed at once: credited (and, over a deposit limit, held) in this step.
  { arbitrary: fc.record({ kind: fc.constant('deposit' as const), amount: fc.constantFrom('0.3', '1.2') }), weight: 3 },
  fc.record({ kind: fc.constant('bet' as const), amount: fc.constantFrom('0.005', '0.05', '0.4', '3') }),
  fc.record({ kind: fc.constant('win' as const), pick: fc.nat(), amount: fc.constantFrom('0', '0.02', '0.9') }),
  fc.record({ kind: fc.constant('rollbackBet' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('rollbackWin' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('claim' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('forfeit' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('withdraw' as const), amount: fc.constantFrom('0.03', '0.25', '2') }),
  // All the available balance and half the held one: a withdrawal drawing on held money.
  { arbitrary: fc.record({ kind: fc.constant('withdrawHeld' as const) }), weight: 2 },
  fc.record({ kind: fc.constant('settle' as const), pick: fc.nat(), outcome: fc.constantFrom('confirmed' as const, 'failed' as const) }),
  fc.record({ kind: fc.constant('replay' as const), pick: fc.nat() }),
  // A daily deposit limit (a lower one applies at once, a higher one after its cooling-off day).
  fc.record({ kind: fc.constant('limit' as const), daily: fc.constantFrom('0.2', '1') }),
  { arbitrary: fc.record({ kind: fc.constant('day' as const) }), weight: 2 },
);

const DAY = 24 * 60 * 60_000;

/** A request already answered once, sent again as its sender would resend it. */
type Replay = { label: string; send: () => Promise<CallResult> };

interface Run {
  player: Player;
  address: string;
  sessionId: string;
  transfers: { txId: string; amount: string }[];
  rounds: { roundId: string; betId: string; winId: string | null }[];
  spendRequests: { id: string; settled: boolean }[];
  replays: Replay[];
  sequence: number;
}

const pickFrom = <T,>(items: T[], pick: number): T | undefined => (items.length === 0 ? undefined : items[pick % items.length]);

const gameCall = (operationId: string, body: Record<string, unknown>) => signedGameWalletCall(server, game.secret, operationId, body);

async function snapshot(run: Run) {
  const wallet = await walletOf(server, run.player);
  return { transactions: await ledgerTransactionCount(server), available: wallet.available, pending: wallet.pending, bonus: wallet.bonus };
}

/** Sends a request and remembers how to send it again. */
async function once(run: Run, label: string, send: () => Promise<CallResult>): Promise<CallResult> {
  const res = await send();
  if (res.status === 200) run.replays.push({ label, send });
  return res;
}

async function perform(run: Run, s: Step): Promise<CallResult | null> {
  // Round and transaction ids are the game provider's, unique across all its players.
  const id = (prefix: string) => `${prefix}-${run.player.user.id}-${(run.sequence += 1)}`;
  switch (s.kind) {
    case 'transfer': {
      const txId = await chainTransfer(server, run.address, s.amount);
      run.transfers.push({ txId, amount: s.amount });
      return null;
    }
    case 'confirm': {
      const transfer = pickFrom(run.transfers, s.pick);
      if (!transfer) return null;
      const res = await server.call('devChainConfirm', { body: { txId: transfer.txId, confirmations: s.confirmations } });
      if (res.status === 200) {
        // The provider's webhook, resent as it stands now: state, not an event.
        const state = res.body.data.transfer as { confirmations: number };
        const body = { type: 'deposit', txId: transfer.txId, address: run.address, currencyCode: 'LTC', amount: transfer.amount, confirmations: state.confirmations };
        run.replays.push({ label: `deposit webhook ${transfer.txId}`, send: () => signedWebhook(server, SECRET, body) });
      }
      return res;
    }
    case 'deposit':
      await perform(run, { kind: 'transfer', amount: s.amount });
      return perform(run, { kind: 'confirm', pick: run.transfers.length - 1, confirmations: 6 });
    case 'bet': {
      const round = { roundId: id('round'), betId: id('bet'), winId: null };
      const body = { sessionId: run.sessionId, roundId: round.roundId, transactionId: round.betId, amount: s.amount };
      const res = await once(run, 'bet', () => gameCall('gameWalletBet', body));
      if (res.status === 200) run.rounds.push(round);
      return res;
    }
    case 'win': {
      const round = pickFrom(run.rounds, s.pick);
      if (!round) return null;
      const winId = id('win');
      const body = { sessionId: run.sessionId, roundId: round.roundId, transactionId: winId, amount: s.amount };
      const res = await once(run, 'win', () => gameCall('gameWalletWin', body));
      if (res.status === 200) round.winId = winId;
      return res;
    }
    case 'rollbackBet':
    case 'rollbackWin': {
      const round = pickFrom(run.rounds, s.pick);
      const reference = s.kind === 'rollbackBet' ? round?.betId : round?.winId;
      if (!round || !reference) return null;
      const body = { sessionId: run.sessionId, roundId: round.roundId, transactionId: id(s.kind), referenceTransactionId: reference };
      return once(run, s.kind, () => gameCall(s.kind === 'rollbackBet' ? 'gameWalletRollbackBet' : 'gameWalletRollbackWin', body));
    }
    case 'claim': {
      const bonusId = pickFrom(bonusIds, s.pick)!;
      const headers = { 'idempotency-key': id('claim') };
      return once(run, 'claim', () => server.call('bonusAvail', { token: run.player.token, body: { bonusId, currencyId: ltcId }, headers }));
    }
    case 'forfeit': {
      const list = await server.call('bonusUserList', { token: run.player.token, query: { page: 1, limit: 20 } });
      expect(list.status).toBe(200);
      const open = (list.body.data.userBonus.rows as { id: number; status: string }[]).filter((b) => b.status === 'active' || b.status === 'queued');
      const target = pickFrom(open, s.pick);
      if (!target) return null;
      const headers = { 'idempotency-key': id('forfeit') };
      return once(run, 'forfeit', () => server.call('bonusCancel', { token: run.player.token, body: { userBonusId: target.id }, headers }));
    }
    case 'withdraw':
    case 'withdrawHeld': {
      let amount: string;
      if (s.kind === 'withdraw') amount = s.amount;
      else {
        const wallet = await walletOf(server, run.player);
        amount = formatAmount(parseSignedAmount(wallet.available) + parseSignedAmount(wallet.held) / 2n);
      }
      const body = { amount, address: segwitAddress('ltc', 0, randomBytes(20)), currencyCode: 'LTC' };
      const headers = { 'idempotency-key': id('withdraw') };
      const res = await once(run, 'withdraw', () => server.call('paymentWithdraw', { token: run.player.token, body, headers }));
      if (res.status === 200) run.spendRequests.push({ id: res.body.data.spendRequestId as string, settled: false });
      return res;
    }
    case 'settle': {
      const request = pickFrom(
        run.spendRequests.filter((r) => !r.settled),
        s.pick,
      );
      if (!request) return null;
      const res = await server.call('devWithdrawalsSettle', { body: { spendRequestId: request.id, outcome: s.outcome } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      request.settled = true;
      const body = { type: 'withdrawal', spendRequestId: request.id, outcome: s.outcome, ...(res.body.data.payout.txId ? { txId: res.body.data.payout.txId } : {}) };
      run.replays.push({ label: `withdrawal webhook ${request.id}`, send: () => signedWebhook(server, SECRET, body) });
      return res;
    }
    case 'limit':
      return server.call('rgUpdateLimit', { token: run.player.token, body: { limitType: 'deposit', daily: s.daily } });
    case 'day': {
      // A day later the daily window is empty again: the next read releases held money. The access token
      // and the game session are a day old, so the player signs in and opens the game again.
      server.clock.advance(DAY + 1);
      const { email, password } = run.player.payload;
      const login = await server.call('userLogin', { body: { email, password } });
      expect(login.status, JSON.stringify(login.body)).toBe(200);
      run.player = { ...run.player, token: login.body.data.accessToken as string };
      const init = await server.call('casinoInitGame', { token: run.player.token, body: { gameId: game.id, currencyCode: 'LTC' } });
      expect(init.status, JSON.stringify(init.body)).toBe(200);
      run.sessionId = init.body.data.gameSession.sessionId as string;
      return login;
    }
    case 'replay': {
      const replay = pickFrom(run.replays, s.pick);
      if (!replay) return null;
      const before = await snapshot(run);
      const res = await replay.send();
      expect(res.status, `replay of ${replay.label}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(await snapshot(run), `replay of ${replay.label} moved money`).toEqual(before);
      return res;
    }
  }
}

/**
 * The player's transaction list, oldest first, reads as a chain (openapi.yaml userGetTransactions): each
 * row starts from the available balance the one before ended with, from 0, and the last ends at the
 * wallet's available balance.
 */
async function expectListChained(player: Player): Promise<string[]> {
  const rows: { actionType: string; status: string; beforeBalance: string; afterBalance: string }[] = [];
  for (let page = 1; ; page += 1) {
    const res = await server.call('userGetTransactions', { token: player.token, query: { page, limit: 100, currencyCode: 'LTC' } });
    expect(res.status).toBe(200);
    rows.push(...res.body.data.transactions.rows);
    if (rows.length >= res.body.data.transactions.count) break;
  }
  let balance = '0';
  for (const row of rows.reverse()) {
    expect(row.beforeBalance, `${row.actionType} ${row.status} starts where the row before ended`).toBe(balance);
    balance = row.afterBalance;
  }
  expect(balance).toBe((await walletOf(server, player)).available);
  return rows.map((row) => row.actionType);
}

describe('random interleavings of every money movement, with replays', () => {
  it('never make a balance negative, never answer 5xx, never move money on a replay, and keep the ledger balanced and the list chained', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(null, '0.2', '1'), fc.array(step, { minLength: 8, maxLength: 30 }), async (daily, steps) => {
        const player = await registeredPlayer(server);
        const address = await depositAddress(server, player);
        const init = await server.call('casinoInitGame', { token: player.token, body: { gameId: game.id, currencyCode: 'LTC' } });
        expect(init.status, JSON.stringify(init.body)).toBe(200);
        const run: Run = { player, address, sessionId: init.body.data.gameSession.sessionId as string, transfers: [], rounds: [], spendRequests: [], replays: [], sequence: 0 };
        // Money on the table from the start, so that bets, bonuses and withdrawals have something to act on.
        await perform(run, { kind: 'transfer', amount: '1.2' });
        await perform(run, { kind: 'confirm', pick: 0, confirmations: 6 });
        // Most runs under a daily deposit limit that this first deposit already fills: later ones are held.
        if (daily !== null) expect((await perform(run, { kind: 'limit', daily }))?.status).toBe(200);
        for (const s of steps) {
          const res = await perform(run, s);
          if (res) expect(res.status, `${s.kind}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
          const wallet = await walletOf(server, run.player);
          for (const part of ['available', 'pending', 'bonus', 'held'] as const) expect(parseSignedAmount(wallet[part]) >= 0n, `${part} ${wallet[part]}`).toBe(true);
        }
        if (daily !== null) {
          // A deposit over the limit, then a day: the wallet read after it releases held money, a row the list chains over.
          for (const s of [{ kind: 'deposit', amount: '1.2' }, { kind: 'day' }] as const) expect((await perform(run, s))?.status).toBe(200);
          await walletOf(server, run.player);
        }
        await expectLedgerBalanced(server);
        const actions = await expectListChained(run.player);
        if (daily !== null) expect(actions).toContain('depositRelease');
      }),
      { numRuns: Number(process.env.MONEY_PROPERTY_RUNS ?? 20), endOnFailure: true },
    );
  }, 600_000);
});
