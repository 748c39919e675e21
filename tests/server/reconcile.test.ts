import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { segwitAddress } from '../../server/addresses.ts';
import { openDb } from '../../server/db/db.ts';
import { verifyLedger } from '../../server/domain/ledger.ts';
import { reconcileWithdrawals, settleByOperator, startReconciliation, withdrawalsInReview } from '../../server/domain/reconcile.ts';
import { loadConfig } from '../../server/config.ts';
import type { SimulatorPaymentProvider } from '../../server/providers/payment-simulator.ts';
import { startTestServer, type TestServer } from '../helpers/api.ts';
import { isPGlite, postgresUrlOf } from '../helpers/db.ts';
import { code, expectLedgerBalanced, fundedPlayer as fundedWith, ledgerTransactionCount, signedWebhook, walletOf, type Player } from '../helpers/money.ts';

/**
 * Withdrawals whose news never came, reconciled with the payment simulator (server/domain/reconcile.ts):
 * the simulator's payout webhooks are lost here by pointing it at a closed port while it settles a
 * payout, and a confirmation is lost by the simulator itself. The job asks the provider and settles as
 * the webhook would have; a webhook arriving afterwards moves nothing. Then `npm run reconcile` as a
 * process of its own against the same database.
 */

const SECRET = 'reconcile-test-webhook-secret';
const TEN_MINUTES = 10 * 60 * 1000;
/** Nothing listens here: a webhook sent to it is lost. */
const NOWHERE = 'http://127.0.0.1:1';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PAYMENT_WEBHOOK_SECRET: SECRET, RATE_LIMIT: 'false' });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => server.close());
afterEach(() => expectLedgerBalanced(server));

const simulator = () => server.ctx.payments as SimulatorPaymentProvider;
const ltcAddress = () => segwitAddress('ltc', 0, randomBytes(20));

async function ltcWallet(player: Player): Promise<{ available: string; pending: string }> {
  const { available, pending } = await walletOf(server, player);
  return { available, pending };
}

/** A withdrawal of 0.4 LTC (fee 0.000006) by a player with 0.5, its spend request id. */
async function withdrawal(player: Player, lose?: 'answer' | 'confirmation'): Promise<string> {
  if (lose === 'answer') simulator().loseNextConfirmationAnswer();
  if (lose === 'confirmation') simulator().dropNextConfirmation();
  const res = await server.call('paymentWithdraw', { token: player.token, body: { currencyCode: 'LTC', amount: '0.4', address: ltcAddress() } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(await ltcWallet(player)).toEqual({ available: '0.099994', pending: '0.400006' });
  return res.body.data.spendRequestId as string;
}

/** The simulator ends the payout, but its webhook never reaches the server. */
async function settleUnheard(spendRequestId: string, outcome: 'confirmed' | 'failed') {
  const listening = server.ctx.listening.url;
  server.ctx.listening.url = NOWHERE;
  try {
    const payout = await simulator().settlePayout(spendRequestId, outcome);
    expect(payout.lastCallbackStatus).toBeNull();
    return payout;
  } finally {
    server.ctx.listening.url = listening;
  }
}

async function status(spendRequestId: string): Promise<{ status: string; provider_tx_id: string | null }> {
  const rows = await server.db.query<{ status: string; provider_tx_id: string | null }>(
    'SELECT status, provider_tx_id FROM withdrawals WHERE spend_request_id = $1',
    [spendRequestId],
  );
  return rows[0]!;
}

async function notices(player: Player): Promise<string[]> {
  const rows = await server.db.query<{ title: string }>('SELECT title FROM user_notifications WHERE user_id = $1 ORDER BY id', [player.user.id]);
  return rows.map((r) => r.title);
}

/** Only this test's withdrawal that never got a spend request. */
const mineUnsent = (outcomes: Awaited<ReturnType<typeof reconcileWithdrawals>>, withdrawalId: number) =>
  outcomes.filter((o) => o.withdrawalId === withdrawalId);

/** Only this test's withdrawals: the others' are settled or left to their own tests. */
const mine = (outcomes: Awaited<ReturnType<typeof reconcileWithdrawals>>, ids: string[]) =>
  outcomes.filter((o) => o.spendRequestId !== null && ids.includes(o.spendRequestId));

describe('the reconciliation', () => {
  it('completes a withdrawal whose confirmation went unanswered and whose webhook never came; the webhook later moves nothing', async () => {
    const player = await fundedWith(server, '0.5');
    const spendRequestId = await withdrawal(player, 'answer');
    const payout = await settleUnheard(spendRequestId, 'confirmed');
    expect(await status(spendRequestId)).toMatchObject({ status: 'pending' });

    // Not yet old enough: left alone.
    expect(mine(await reconcileWithdrawals(server.ctx), [spendRequestId])).toEqual([]);
    server.clock.advance(TEN_MINUTES + 1000);
    const before = await notices(player);
    expect(mine(await reconcileWithdrawals(server.ctx), [spendRequestId])).toEqual([
      { withdrawalId: expect.any(Number), spendRequestId, providerState: 'sent', result: 'completed' },
    ]);
    expect(await status(spendRequestId)).toEqual({ status: 'completed', provider_tx_id: payout.txId });
    expect(await ltcWallet(player)).toEqual({ available: '0.099994', pending: '0' });
    expect((await notices(player)).length).toBe(before.length + 1);

    // The webhook, at last: final already, nothing moves; nor does another run.
    const count = await ledgerTransactionCount(server);
    const late = await signedWebhook(server, SECRET, { type: 'withdrawal', spendRequestId, outcome: 'confirmed', txId: payout.txId });
    expect(late.status).toBe(200);
    expect(late.body.data.withdrawal).toMatchObject({ spendRequestId, status: 'completed', changed: false });
    server.clock.advance(TEN_MINUTES + 1000);
    expect(mine(await reconcileWithdrawals(server.ctx), [spendRequestId])).toEqual([]);
    expect(await ledgerTransactionCount(server)).toBe(count);
    expect((await notices(player)).length).toBe(before.length + 1);
  });

  it('returns the funds of a payout that failed unheard; a later webhook contradicting it moves nothing', async () => {
    const player = await fundedWith(server, '0.5');
    const spendRequestId = await withdrawal(player);
    await settleUnheard(spendRequestId, 'failed');
    server.clock.advance(TEN_MINUTES + 1000);
    expect(mine(await reconcileWithdrawals(server.ctx), [spendRequestId])).toEqual([
      { withdrawalId: expect.any(Number), spendRequestId, providerState: 'failed', result: 'failed' },
    ]);
    expect(await status(spendRequestId)).toMatchObject({ status: 'failed' });
    expect(await ltcWallet(player)).toEqual({ available: '0.5', pending: '0' });
    const count = await ledgerTransactionCount(server);
    for (const outcome of ['failed', 'confirmed']) {
      const late = await signedWebhook(server, SECRET, { type: 'withdrawal', spendRequestId, outcome });
      expect(late.body.data.withdrawal).toMatchObject({ status: 'failed', changed: false });
    }
    expect(await ledgerTransactionCount(server)).toBe(count);
    expect(await ltcWallet(player)).toEqual({ available: '0.5', pending: '0' });
  });

  it('leaves a payout still under way at the provider, and asks again only after another wait', async () => {
    const player = await fundedWith(server, '0.5');
    const spendRequestId = await withdrawal(player);
    server.clock.advance(TEN_MINUTES + 1000);
    const count = await ledgerTransactionCount(server);
    expect(mine(await reconcileWithdrawals(server.ctx), [spendRequestId])).toEqual([
      { withdrawalId: expect.any(Number), spendRequestId, providerState: 'pending', result: 'pending' },
    ]);
    expect(mine(await reconcileWithdrawals(server.ctx), [spendRequestId])).toEqual([]);
    expect(await ledgerTransactionCount(server)).toBe(count);
    expect(await status(spendRequestId)).toMatchObject({ status: 'pending' });
    // The provider is unreachable: nothing moves, asked again next time.
    server.clock.advance(TEN_MINUTES + 1000);
    simulator().setOnline(false);
    try {
      expect(mine(await reconcileWithdrawals(server.ctx), [spendRequestId])).toMatchObject([{ providerState: null, result: 'unreachable' }]);
    } finally {
      simulator().setOnline(true);
    }
    await settleUnheard(spendRequestId, 'confirmed');
    server.clock.advance(TEN_MINUTES + 1000);
    expect(mine(await reconcileWithdrawals(server.ctx), [spendRequestId])).toMatchObject([{ providerState: 'sent', result: 'completed' }]);
    expect(await ltcWallet(player)).toEqual({ available: '0.099994', pending: '0' });
  });

  it('confirms again a spend request whose confirmation never reached the provider: paid once', async () => {
    const player = await fundedWith(server, '0.5');
    const spendRequestId = await withdrawal(player, 'confirmation');
    server.clock.advance(TEN_MINUTES + 1000);
    expect(mine(await reconcileWithdrawals(server.ctx), [spendRequestId])).toEqual([
      { withdrawalId: expect.any(Number), spendRequestId, providerState: 'unknown', result: 'reconfirmed' },
    ]);
    expect(await simulator().spendRequestState(spendRequestId)).toEqual({ state: 'pending' });
    // Confirmed twice by now (once lost, once through): one payout drawn, settled once.
    const payout = await settleUnheard(spendRequestId, 'confirmed');
    server.clock.advance(TEN_MINUTES + 1000);
    expect(mine(await reconcileWithdrawals(server.ctx), [spendRequestId])).toMatchObject([{ providerState: 'sent', result: 'completed' }]);
    expect(await status(spendRequestId)).toEqual({ status: 'completed', provider_tx_id: payout.txId });
    expect(await ltcWallet(player)).toEqual({ available: '0.099994', pending: '0' });
  });

  it('refunds nothing on a refused second confirmation: sets the withdrawal aside for an operator, who settles it', async () => {
    const player = await fundedWith(server, '0.5');
    const spendRequestId = await withdrawal(player, 'confirmation');
    await server.db.query("UPDATE simulator_hot_wallets SET payouts_enabled = false WHERE currency_code = 'LTC'");
    try {
      server.clock.advance(TEN_MINUTES + 1000);
      expect(mine(await reconcileWithdrawals(server.ctx), [spendRequestId])).toEqual([
        { withdrawalId: expect.any(Number), spendRequestId, providerState: 'unknown', result: 'needs_review' },
      ]);
    } finally {
      await server.db.query("UPDATE simulator_hot_wallets SET payouts_enabled = true WHERE currency_code = 'LTC'");
    }
    // A provider may refuse a second confirmation of a spend it has confirmed and does not show yet:
    // the funds stay held, and later runs pass over it.
    expect(await status(spendRequestId)).toMatchObject({ status: 'pending' });
    expect(await ltcWallet(player)).toEqual({ available: '0.099994', pending: '0.400006' });
    server.clock.advance(TEN_MINUTES + 1000);
    expect(mine(await reconcileWithdrawals(server.ctx), [spendRequestId])).toEqual([]);
    const inReview = (await withdrawalsInReview(server.ctx)).filter((w) => w.spendRequestId === spendRequestId);
    expect(inReview).toEqual([
      {
        withdrawalId: expect.any(Number),
        spendRequestId,
        userId: player.user.id,
        currencyCode: 'LTC',
        amount: '0.4',
        fee: '0.000006',
        reason: expect.stringContaining('refused to confirm it again'),
        since: expect.any(Date),
      },
    ]);
    const withdrawalId = inReview[0]!.withdrawalId;

    // The operator, having found no payout in the provider's records.
    const before = await notices(player);
    expect(await settleByOperator(server.ctx, withdrawalId, 'failed')).toBe('failed');
    expect(await status(spendRequestId)).toMatchObject({ status: 'failed' });
    expect(await ltcWallet(player)).toEqual({ available: '0.5', pending: '0' });
    expect((await notices(player)).length).toBe(before.length + 1);
    expect(await withdrawalsInReview(server.ctx)).not.toContainEqual(expect.objectContaining({ withdrawalId }));
    await expect(settleByOperator(server.ctx, withdrawalId, 'sent')).rejects.toThrow(`Withdrawal ${withdrawalId} is already failed.`);
  });

  it('lets an operator settle only withdrawals waiting for review', async () => {
    const player = await fundedWith(server, '0.5');
    const spendRequestId = await withdrawal(player, 'answer');
    const [row] = await server.db.query<{ id: number }>('SELECT id FROM withdrawals WHERE spend_request_id = $1', [spendRequestId]);
    await expect(settleByOperator(server.ctx, row!.id, 'sent')).rejects.toThrow(/is not waiting for review/);
    await expect(settleByOperator(server.ctx, 987654321, 'sent')).rejects.toThrow(/No withdrawal 987654321/);
    expect(await status(spendRequestId)).toMatchObject({ status: 'pending' });
    const settled = await server.call('devWithdrawalsSettle', { body: { spendRequestId, outcome: 'confirmed' } });
    expect(settled.status).toBe(200);
    expect(await status(spendRequestId)).toMatchObject({ status: 'completed' });
  });

  it('fails a withdrawal whose spend request was never recorded (the server stopped first), returning the funds', async () => {
    const player = await fundedWith(server, '0.5');
    const provider = simulator();
    const create = provider.createSpendRequest.bind(provider);
    provider.createSpendRequest = () => Promise.reject(new Error('the server stopped here'));
    try {
      const res = await server.call('paymentWithdraw', { token: player.token, body: { currencyCode: 'LTC', amount: '0.4', address: ltcAddress() } });
      expect(res.status).toBe(500);
    } finally {
      provider.createSpendRequest = create;
    }
    expect(await ltcWallet(player)).toEqual({ available: '0.099994', pending: '0.400006' });
    const [row] = await server.db.query<{ id: number }>(
      "SELECT id FROM withdrawals WHERE user_id = $1 AND status = 'requested' AND spend_request_id IS NULL",
      [player.user.id],
    );
    expect(mineUnsent(await reconcileWithdrawals(server.ctx), row!.id)).toEqual([]);
    server.clock.advance(TEN_MINUTES + 1000);
    const before = await notices(player);
    expect(mineUnsent(await reconcileWithdrawals(server.ctx), row!.id)).toEqual([
      { withdrawalId: row!.id, spendRequestId: null, providerState: null, result: 'failed' },
    ]);
    expect(await ltcWallet(player)).toEqual({ available: '0.5', pending: '0' });
    expect((await notices(player)).length).toBe(before.length + 1);
  });

  it('does not confirm a spend request that came back after the reconciliation failed its withdrawal', async () => {
    const player = await fundedWith(server, '0.5');
    const provider = simulator();
    const create = provider.createSpendRequest.bind(provider);
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    let created: string | null = null;
    provider.createSpendRequest = async (request) => {
      await slow;
      const spend = await create(request);
      created = spend.spendRequestId;
      return spend;
    };
    try {
      const answer = server.call('paymentWithdraw', { token: player.token, body: { currencyCode: 'LTC', amount: '0.4', address: ltcAddress() } });
      await expect.poll(() => ltcWallet(player)).toEqual({ available: '0.099994', pending: '0.400006' });
      const [row] = await server.db.query<{ id: number }>("SELECT id FROM withdrawals WHERE user_id = $1 AND status = 'requested'", [player.user.id]);
      server.clock.advance(TEN_MINUTES + 1000);
      expect(mineUnsent(await reconcileWithdrawals(server.ctx), row!.id)).toMatchObject([{ result: 'failed' }]);
      release();
      expect(code(await answer)).toEqual([502, 'COIN_PAYMENTS_SERVER_ERROR']);
    } finally {
      provider.createSpendRequest = create;
    }
    expect(created).not.toBeNull();
    // Never confirmed: the provider has no payout of it, and the funds went back once.
    expect(await simulator().spendRequestState(created!)).toEqual({ state: 'unknown' });
    expect(await ltcWallet(player)).toEqual({ available: '0.5', pending: '0' });
  });

  it('settles each withdrawal once when several runs go at once', async () => {
    const players = await Promise.all([1, 2, 3, 4].map(() => fundedWith(server, '0.5')));
    const ids: string[] = [];
    for (const player of players) ids.push(await withdrawal(player));
    for (const id of ids) await settleUnheard(id, 'confirmed');
    server.clock.advance(TEN_MINUTES + 1000);
    const count = await ledgerTransactionCount(server);
    const runs = await Promise.all([1, 2, 3].map(() => reconcileWithdrawals(server.ctx)));
    const settled = runs.flatMap((run) => mine(run, ids));
    expect(settled.map((o) => o.spendRequestId).sort()).toEqual([...ids].sort());
    expect(settled.every((o) => o.result === 'completed')).toBe(true);
    // A payout and a fee per withdrawal.
    expect(await ledgerTransactionCount(server)).toBe(count + 2 * ids.length);
    for (const player of players) expect(await ltcWallet(player)).toEqual({ available: '0.099994', pending: '0' });
  });
});

describe('the server', () => {
  it('reconciles every RECONCILE_INTERVAL_SECONDS (0: never) what waited RECONCILE_AFTER_SECONDS', async () => {
    expect(loadConfig({})).toMatchObject({ reconcileIntervalSeconds: 60, reconcileAfterSeconds: 600 });
    expect(loadConfig({ RECONCILE_INTERVAL_SECONDS: '0', RECONCILE_AFTER_SECONDS: '120' })).toMatchObject({
      reconcileIntervalSeconds: 0,
      reconcileAfterSeconds: 120,
    });
    expect(() => loadConfig({ RECONCILE_INTERVAL_SECONDS: '-1' })).toThrow(/RECONCILE_INTERVAL_SECONDS/);
    expect(() => loadConfig({ RECONCILE_AFTER_SECONDS: '0' })).toThrow(/RECONCILE_AFTER_SECONDS/);

    const player = await fundedWith(server, '0.5');
    const spendRequestId = await withdrawal(player, 'answer');
    await settleUnheard(spendRequestId, 'confirmed');
    server.clock.advance(TEN_MINUTES + 1000);
    const logged: string[] = [];
    const timer = startReconciliation(server.ctx, 20, (message) => logged.push(message));
    try {
      await expect.poll(() => status(spendRequestId), { timeout: 10_000 }).toMatchObject({ status: 'completed' });
    } finally {
      await timer.stop();
    }
    expect(logged).toContainEqual(expect.stringMatching(new RegExp(`withdrawal \\d+ \\(${spendRequestId}\\) completed`)));
    expect(await ltcWallet(player)).toEqual({ available: '0.099994', pending: '0' });
  });
});

describe('npm run reconcile', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'casino-reconcile-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /**
   * The command as an operator runs it (`npm run reconcile`), or with `direct` its script under Node with
   * tsx as its loader, which is what that npm script runs, without npm's and the tsx command's own processes.
   */
  function run(env: NodeJS.ProcessEnv, args: string[] = [], direct = false): Promise<{ status: number | null; out: string }> {
    const [command, commandArgs] = direct
      ? [process.execPath, ['--import', 'tsx', 'scripts/reconcile.ts', ...args]]
      : ['npm', ['run', '--silent', 'reconcile', ...(args.length > 0 ? ['--', ...args] : [])]];
    const child = spawn(command, commandArgs, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    return new Promise((resolve) => child.once('close', (code) => resolve({ status: code, out })));
  }

  it('settles what the provider ended and prints it; lists what waits for an operator, who settles it by hand', async () => {
    const player = await fundedWith(server, '0.5');
    const spendRequestId = await withdrawal(player, 'answer');
    await settleUnheard(spendRequestId, 'confirmed');
    // The command reads the wall clock: this withdrawal waited an hour by it (every other one here is final).
    await server.db.query("UPDATE withdrawals SET updated_at = now() - interval '1 hour' WHERE spend_request_id = $1", [spendRequestId]);
    // And this one was set aside for an operator (how it comes to be is tested above).
    const aside = await fundedWith(server, '0.5');
    const asideSpend = await withdrawal(aside, 'answer');
    const [asideRow] = await server.db.query<{ id: number }>(
      "UPDATE withdrawals SET review_reason = 'checked by the test', review_since = now() - interval '1 hour', updated_at = now() - interval '1 hour' WHERE spend_request_id = $1 RETURNING id",
      [asideSpend],
    );
    const asideId = asideRow!.id;

    const url = postgresUrlOf(server.db);
    const env: NodeJS.ProcessEnv = {
      PAYMENT_WEBHOOK_SECRET: SECRET,
      JWT_SECRET: 'test-secret-test-secret-test-secret',
      DATA_DIR: dataDir,
      DATABASE_URL: url ?? '',
    };
    if (!url) {
      // PGlite is one process's: the command gets a copy of the database in a folder, read back after.
      if (!isPGlite(server.db)) throw new Error('expected PGlite');
      const folder = await openDb({ kind: 'pglite', dataDir: join(dataDir, 'pglite'), loadFrom: await server.db.dump() });
      await folder.close();
    }
    const waiting = new RegExp(
      `Waiting for an operator .*: 1\\n  withdrawal ${asideId} \\(${asideSpend}\\), player ${aside.user.id}, 0\\.4 LTC \\+ fee 0\\.000006, since .*: checked by the test`,
    );
    const outcome = await run(env);
    expect(outcome.out).toMatch(new RegExp(`withdrawal \\d+ \\(${spendRequestId}\\): provider says sent -> completed`));
    expect(outcome.out).toMatch(/Reconciled 1: 1 completed\./);
    expect(outcome.out).toMatch(waiting);
    expect(outcome.status).toBe(0);

    const again = await run(env, [], true);
    expect(again.out).toMatch(/Nothing to reconcile\./);
    expect(again.out).toMatch(waiting);
    expect(again.status).toBe(0);

    // npm hands the arguments after `--` on, as asked of it here.
    const byHand = await run(env, ['--settle', String(asideId), '--outcome', 'failed']);
    expect(byHand.out).toContain(`Withdrawal ${asideId} settled by hand: failed.`);
    expect(byHand.status).toBe(0);
    const refused = await run(env, ['--settle', String(asideId), '--outcome', 'sent'], true);
    expect(refused.out).toContain(`Withdrawal ${asideId} is already failed.`);
    expect(refused.status).toBe(2);

    const db = url ? server.db : await openDb({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
    try {
      const rows = await db.query<{ spend_request_id: string; status: string }>(
        'SELECT spend_request_id, status FROM withdrawals WHERE spend_request_id IN ($1, $2) ORDER BY id',
        [spendRequestId, asideSpend],
      );
      expect(rows).toEqual([
        { spend_request_id: spendRequestId, status: 'completed' },
        { spend_request_id: asideSpend, status: 'failed' },
      ]);
      const report = await verifyLedger(db);
      expect(report.ok).toBe(true);
      if (url) {
        expect(await ltcWallet(player)).toEqual({ available: '0.099994', pending: '0' });
        expect(await ltcWallet(aside)).toEqual({ available: '0.5', pending: '0' });
      }
    } finally {
      if (!url) await db.close();
    }
  });
});
