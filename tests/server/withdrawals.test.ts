import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { base58CheckAddress, isValidAddress, segwitAddress } from '../../server/addresses.ts';
import type { SimulatorPaymentProvider } from '../../server/providers/payment-simulator.ts';
import { PaymentProviderError, signWebhook } from '../../server/providers/payment.ts';
import { applyWithdrawalNotification } from '../../server/domain/withdrawals.ts';
import { startTestServer, type TestServer } from '../helpers/api.ts';
import { code, expectLedgerBalanced, fundedPlayer as fundedWith, ledgerTransactionCount as countLedgerTransactions, walletOf, type Player, postingRequestHash } from '../helpers/money.ts';
import { formatAmount, parseAmount, parseSignedAmount } from '../../src/money.ts';
import { getTransaction, transfer, walletAccount } from '../../server/domain/ledger.ts';

/**
 * Crypto withdrawals end to end through HTTP: players are funded by real deposits on the payment
 * simulator's chain, withdraw (paymentWithdraw), and the simulator settles the payout
 * (/dev/withdrawals/settle), calling the server's webhook over real HTTP with a signed payload, so the
 * server listens on a loopback port. The provider's refusals are the simulator's own: an outage, a hot
 * wallet too low, its own address as destination, payouts switched off. After each test the ledger must
 * prove itself.
 */

const SECRET = 'withdrawal-test-webhook-secret';

let server: TestServer;
beforeAll(async () => {
  // More than ten players sign up from one address here; the signup limit is tested in accounts.test.ts.
  server = await startTestServer({ PAYMENT_WEBHOOK_SECRET: SECRET, RATE_LIMIT: 'false' });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => server.close());
afterEach(() => expectLedgerBalanced(server));

const simulator = () => server.ctx.payments as SimulatorPaymentProvider;
const ledgerTransactionCount = () => countLedgerTransactions(server);
const ltcAddress = () => segwitAddress('ltc', 0, randomBytes(20));

/** A player with `amount` LTC available, deposited through the simulator's chain. */
async function fundedPlayer(amount: string) {
  const player = await fundedWith(server, amount);
  expect(await ltcWallet(player)).toEqual({ available: amount, pending: '0' });
  return player;
}

async function ltcWallet(player: Player): Promise<{ available: string; pending: string }> {
  const { available, pending } = await walletOf(server, player);
  return { available, pending };
}

function withdraw(player: Player, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return server.call('paymentWithdraw', { token: player.token, body: { currencyCode: 'LTC', ...body }, headers });
}

async function settle(spendRequestId: string, outcome: 'confirmed' | 'failed') {
  const res = await server.call('devWithdrawalsSettle', { body: { spendRequestId, outcome } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.payout.callbackStatus).toBe(200);
  return res.body.data.payout;
}

function webhook(body: Record<string, unknown>, signature: string) {
  return server.call('paymentWebhook', {
    params: { provider: 'simulator' },
    raw: { payload: JSON.stringify(body), contentType: 'application/json' },
    headers: { 'x-webhook-signature': signature },
  });
}

const signed = (body: Record<string, unknown>) => webhook(body, signWebhook(SECRET, JSON.stringify(body)));

/** The player's visible transactions, oldest first: [type, actionType, status, amount]. */
async function history(player: Player): Promise<[string, string, string, string][]> {
  const rows = await server.db.query<{ type: string; action_type: string; status: string; amount: string }>(
    'SELECT type, action_type, status, amount::text FROM ledger_transactions WHERE user_id = $1 AND type = $2 ORDER BY id',
    [player.user.id, 'withdraw'],
  );
  return rows.map((r) => [r.type, r.action_type, r.status, formatAmount(parseSignedAmount(r.amount))]);
}


describe('addresses', () => {
  it('are checked against the network format, checksum included', () => {
    const program = randomBytes(20);
    // BIP-173's example program on Litecoin, segwit v0 and v1 (bech32m), and the legacy base58check kinds.
    expect(isValidAddress('Litecoin', 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9')).toBe(true);
    expect(isValidAddress('Litecoin', 'LTC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KGMN4N9')).toBe(true);
    expect(isValidAddress('Litecoin', segwitAddress('ltc', 1, randomBytes(32)))).toBe(true);
    for (const version of [0x30, 0x32, 0x05]) expect(isValidAddress('Litecoin', base58CheckAddress(version, program))).toBe(true);
    expect(base58CheckAddress(0x30, program)).toMatch(/^L/);
    expect(base58CheckAddress(0x32, program)).toMatch(/^M/);
    expect(isValidAddress('Bitcoin', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBe(true);
    expect(isValidAddress('Tron TRC20', base58CheckAddress(0x41, program))).toBe(true);
    expect(isValidAddress('Ethereum', `0x${program.toString('hex')}`)).toBe(true);

    const good = segwitAddress('ltc', 0, program);
    const flipped = good.slice(0, -1) + (good.endsWith('q') ? 'p' : 'q');
    const legacy = base58CheckAddress(0x30, program);
    const legacyFlipped = legacy.slice(0, -1) + (legacy.endsWith('2') ? '3' : '2');
    for (const bad of [
      flipped, // checksum
      'ltc1qW508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9', // mixed case
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', // another network
      segwitAddress('ltc', 0, randomBytes(25)), // v0 programs are 20 or 32 bytes
      legacyFlipped,
      base58CheckAddress(0x00, program), // a Bitcoin 1... address
      'ltc1',
      '',
    ]) {
      expect(isValidAddress('Litecoin', bad), bad).toBe(false);
    }
    expect(isValidAddress('Monero', good)).toBe(false);
  });
});

describe('a withdrawal request', () => {
  it('refuses bad amounts, addresses, currencies and providers, and moves nothing', async () => {
    const player = await fundedPlayer('0.1');
    const before = await ledgerTransactionCount();
    const address = ltcAddress();
    const zero = await withdraw(player, { amount: '0', address });
    expect(zero.status).toBe(400);
    expect(zero.body.errors[0].fields).toEqual([{ field: 'amount', code: 'amount.positive' }]);
    // SPEC §8: over the 10000 ceiling is the contract's own code.
    expect(code(await withdraw(player, { amount: '10000.00000001', address }))).toEqual([422, 'MAXIMUM_WITHDRAW_AMOUNT_LIMIT']);
    expect(code(await withdraw(player, { amount: '9999999999999999999999', address }))).toEqual([422, 'MAXIMUM_WITHDRAW_AMOUNT_LIMIT']);
    expect(code(await withdraw(player, { amount: '10001', address, paymentProviderId: 999 }))).toEqual([404, 'NOT_FOUND']);
    const precise = await withdraw(player, { amount: '0.050000001', address });
    expect(precise.status).toBe(400);
    expect(code(await withdraw(player, { amount: '0.02999999', address }))).toEqual([422, 'MINIMUM_WITHDRAW_AMOUNT_LIMIT']);
    const flipped = address.slice(0, -1) + (address.endsWith('q') ? 'p' : 'q');
    expect(code(await withdraw(player, { amount: '0.05', address: flipped }))).toEqual([422, 'INVALID_ADDRESS']);
    expect(code(await withdraw(player, { amount: '0.05', address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' }))).toEqual([422, 'INVALID_ADDRESS']);
    expect(code(await withdraw(player, { amount: '0.05', address, currencyCode: 'XMR' }))).toEqual([422, 'CURRENCY_NOT_AVAILABLE']);
    expect(code(await withdraw(player, { amount: '0.05', address, paymentProviderId: 999 }))).toEqual([404, 'NOT_FOUND']);
    // The fee comes on top: 0.1 + 0.000006 is more than the wallet holds.
    expect(code(await withdraw(player, { amount: '0.1', address }))).toEqual([422, 'INSUFFICIENT_BALANCE']);
    await server.db.query("UPDATE payment_providers SET withdraw_allowed = false WHERE key = 'coinpayments'");
    try {
      expect(code(await withdraw(player, { amount: '0.05', address }))).toEqual([422, 'PAYMENT_PROVIDER_WITHDRAW_NOT_ALLOWED']);
    } finally {
      await server.db.query("UPDATE payment_providers SET withdraw_allowed = true WHERE key = 'coinpayments'");
    }
    expect(await ledgerTransactionCount()).toBe(before);
    expect(await ltcWallet(player)).toEqual({ available: '0.1', pending: '0' });
  });

  it('holds amount + fee, allows one at a time, and completes when the payout is sent', async () => {
    const player = await fundedPlayer('1');
    const address = ltcAddress();
    const res = await withdraw(player, { amount: '0.5', address, paymentProviderId: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'pending', amount: '0.5', fee: '0.000006', currencyCode: 'LTC', address });
    const spendRequestId = res.body.data.spendRequestId as string;
    expect(await ltcWallet(player)).toEqual({ available: '0.499994', pending: '0.500006' });
    expect(code(await withdraw(player, { amount: '0.1', address }))).toEqual([409, 'WITHDRAWAL_REQUEST_IN_PENDING']);

    const payout = await settle(spendRequestId, 'confirmed');
    expect(payout).toMatchObject({ spendRequestId, address, currencyCode: 'LTC', amount: '0.5', status: 'sent' });
    expect(await ltcWallet(player)).toEqual({ available: '0.499994', pending: '0' });
    expect(await history(player)).toEqual([
      ['withdraw', 'withdraw', 'pending', '0.500006'],
      ['withdraw', 'withdraw', 'completed', '0.5'],
      ['withdraw', 'withdrawFee', 'completed', '0.000006'],
    ]);
    const stored = await server.db.query<{ status: string; provider_tx_id: string }>('SELECT status, provider_tx_id FROM withdrawals WHERE spend_request_id = $1', [
      spendRequestId,
    ]);
    expect(stored).toEqual([{ status: 'completed', provider_tx_id: payout.txId }]);

    // Replayed and late callbacks move nothing: settling again, the same webhook, a contradicting one.
    const count = await ledgerTransactionCount();
    await settle(spendRequestId, 'failed');
    const replay = await signed({ type: 'withdrawal', spendRequestId, outcome: 'confirmed', txId: payout.txId });
    expect(replay.status).toBe(200);
    expect(replay.body.data.withdrawal).toEqual({
      spendRequestId,
      address,
      currencyCode: 'LTC',
      amount: '0.5',
      fee: '0.000006',
      status: 'completed',
      txId: payout.txId,
      changed: false,
    });
    const late = await signed({ type: 'withdrawal', spendRequestId, outcome: 'failed' });
    expect(late.body.data.withdrawal).toMatchObject({ status: 'completed', changed: false });
    expect(await ledgerTransactionCount()).toBe(count);
    expect(await ltcWallet(player)).toEqual({ available: '0.499994', pending: '0' });

    // The wallet is free again.
    const next = await withdraw(player, { amount: '0.1', address });
    expect(next.status).toBe(200);
    await settle(next.body.data.spendRequestId as string, 'confirmed');
    expect(await ltcWallet(player)).toEqual({ available: '0.399988', pending: '0' });
  });

  it('writes its hold as the ledger would post it (the same request hash and entries)', async () => {
    const player = await fundedPlayer('1');
    const res = await withdraw(player, { amount: '0.25', address: ltcAddress() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const wallet = await walletOf(server, player);
    const [row] = await server.db.query<{ hold_transaction_id: number }>(
      'SELECT hold_transaction_id FROM withdrawals WHERE wallet_id = $1 ORDER BY id DESC LIMIT 1',
      [wallet.id],
    );
    const hold = await getTransaction(server.db, { id: row!.hold_transaction_id });
    const total = parseAmount('0.250006');
    const posting = {
      kind: 'withdraw.request',
      at: new Date(),
      legs: transfer(walletAccount(wallet.id, 'available'), walletAccount(wallet.id, 'pending'), total),
      visible: { walletId: wallet.id, type: 'withdraw', actionType: 'withdraw', status: 'pending', amount: total },
    } as const;
    const byAmount = (a: { amount: bigint }, b: { amount: bigint }) => (a.amount < b.amount ? -1 : 1);
    expect(hold?.entries.map((e) => ({ account: e.account, amount: e.amount })).sort(byAmount)).toEqual([...posting.legs].sort(byAmount));
    expect(hold?.visible).toMatchObject({ beforeBalance: parseAmount('1'), afterBalance: parseAmount('0.749994') });
    const [stored] = await server.db.query<{ request_hash: string }>('SELECT request_hash FROM ledger_transactions WHERE id = $1', [hold!.id]);
    expect(stored!.request_hash).toBe(postingRequestHash(posting));
  });

  it('returns the funds when the payout fails', async () => {
    const player = await fundedPlayer('0.5');
    const res = await withdraw(player, { amount: '0.3', address: base58CheckAddress(0x30, randomBytes(20)) });
    expect(res.status).toBe(200);
    expect(await ltcWallet(player)).toEqual({ available: '0.199994', pending: '0.300006' });
    const payout = await settle(res.body.data.spendRequestId as string, 'failed');
    expect(payout).toMatchObject({ status: 'failed', txId: null });
    expect(await ltcWallet(player)).toEqual({ available: '0.5', pending: '0' });
    expect(await history(player)).toEqual([
      ['withdraw', 'withdraw', 'pending', '0.300006'],
      ['withdraw', 'withdrawRefund', 'failed', '0.300006'],
    ]);
    const replay = await signed({ type: 'withdrawal', spendRequestId: res.body.data.spendRequestId, outcome: 'confirmed' });
    expect(replay.body.data.withdrawal).toMatchObject({ status: 'failed', txId: null, changed: false });
    expect(await ltcWallet(player)).toEqual({ available: '0.5', pending: '0' });
  });

  it('stays allowed while the player is self-excluded, when deposits and play are not', async () => {
    const player = await fundedPlayer('0.5');
    const until = new Date(server.clock.now().getTime() + 30 * 24 * 60 * 60_000).toISOString();
    expect((await server.call('rgUpdateSelfExclusion', { token: player.token, body: { type: 'temporary', until } })).status).toBe(200);
    const login = await server.call('userLogin', { body: { email: player.payload.email, password: player.payload.password } });
    expect(login.status).toBe(200);
    const excluded = { ...player, token: login.body.data.accessToken as string };
    expect(code(await server.call('paymentDeposit', { token: excluded.token, body: { amount: '0.5', currencyCode: 'LTC' } }))).toEqual([403, 'SELF_EXCLUDED']);
    const res = await withdraw(excluded, { amount: '0.4', address: ltcAddress() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await ltcWallet(excluded)).toEqual({ available: '0.099994', pending: '0.400006' });
  });

  it('is refused while a bonus is being wagered', async () => {
    const player = await fundedPlayer('0.5');
    const offer = await server.db.query<{ id: number; currency_id: number }>(
      `INSERT INTO bonuses (type, name, amount, currency_id, wagering_multiplier, valid_days)
       SELECT 'joining', 'Withdrawal test bonus', 0.1, id, 20, 30 FROM currencies WHERE code = 'LTC' RETURNING id, currency_id`,
    );
    const claim = await server.call('bonusAvail', { token: player.token, body: { bonusId: offer[0]!.id, currencyId: offer[0]!.currency_id } });
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);
    const before = await ledgerTransactionCount();
    expect(code(await withdraw(player, { amount: '0.1', address: ltcAddress() }))).toEqual([422, 'CASHOUT_NOT_ALLOWED']);
    expect(await ledgerTransactionCount()).toBe(before);
    expect(await ltcWallet(player)).toEqual({ available: '0.5', pending: '0' });
  });
});

describe('the provider refusing a payout', () => {
  it('returns the funds and answers the refusal', async () => {
    const player = await fundedPlayer('1');
    const address = ltcAddress();
    const refused = async (expected: [number, string], body: Record<string, unknown> = { amount: '0.5', address }) => {
      expect(code(await withdraw(player, body))).toEqual(expected);
      expect(await ltcWallet(player)).toEqual({ available: '1', pending: '0' });
    };

    simulator().setOnline(false);
    try {
      await refused([502, 'COIN_PAYMENTS_SERVER_ERROR']);
    } finally {
      simulator().setOnline(true);
    }

    const [hot] = await server.db.query<{ balance: string }>("SELECT balance::text FROM simulator_hot_wallets WHERE currency_code = 'LTC'");
    await server.db.query("UPDATE simulator_hot_wallets SET balance = 0.4 WHERE currency_code = 'LTC'");
    try {
      await refused([422, 'NOT_ENOUGH_AMOUNT']);
    } finally {
      await server.db.query("UPDATE simulator_hot_wallets SET balance = $1 WHERE currency_code = 'LTC'", [hot!.balance]);
    }

    // The provider does not pay out to its own deposit addresses.
    await refused([422, 'INVALID_ADDRESS'], { amount: '0.5', address: player.depositAddress });

    await server.db.query("UPDATE simulator_hot_wallets SET payouts_enabled = false WHERE currency_code = 'LTC'");
    try {
      await refused([502, 'PAYMENT_ERROR']);
    } finally {
      await server.db.query("UPDATE simulator_hot_wallets SET payouts_enabled = true WHERE currency_code = 'LTC'");
    }

    expect((await history(player)).map(([, action, status]) => `${action}:${status}`)).toEqual([
      'withdraw:pending',
      'withdrawRefund:failed',
      'withdraw:pending',
      'withdrawRefund:failed',
      'withdraw:pending',
      'withdrawRefund:failed',
      'withdraw:pending',
      'withdrawRefund:failed',
    ]);
    // Nothing is left pending: the next request goes through.
    const res = await withdraw(player, { amount: '0.5', address });
    expect(res.status).toBe(200);
    await settle(res.body.data.spendRequestId as string, 'confirmed');
  });
});

describe('a provider that failed the payout by webhook before refusing its confirmation', () => {
  it('returns the funds once, by the webhook, and answers the refusal', async () => {
    const player = await fundedPlayer('1');
    const payments = simulator();
    const confirm = payments.confirmSpendRequest.bind(payments);
    payments.confirmSpendRequest = async (spendRequestId) => {
      const failed = await applyWithdrawalNotification(server.ctx, 'simulator', { spendRequestId, outcome: 'failed' });
      expect(failed).toMatchObject({ status: 'failed', changed: true });
      throw new PaymentProviderError('insufficient_funds', 'the payout failed');
    };
    try {
      expect(code(await withdraw(player, { amount: '0.5', address: ltcAddress() }))).toEqual([422, 'NOT_ENOUGH_AMOUNT']);
    } finally {
      payments.confirmSpendRequest = confirm;
    }
    expect(await ltcWallet(player)).toEqual({ available: '1', pending: '0' });
    expect((await history(player)).map(([, action, status]) => `${action}:${status}`)).toEqual(['withdraw:pending', 'withdrawRefund:failed']);
    const [row] = await server.db.query<{ status: string; failure: string }>('SELECT status, failure FROM withdrawals WHERE user_id = $1', [player.user.id]);
    expect(row).toEqual({ status: 'failed', failure: 'provider_failed' });
  });
});

describe('a confirmation whose answer is lost', () => {
  it('keeps the funds held and the withdrawal pending, so that the provider’s webhook settles it once', async () => {
    const player = await fundedPlayer('0.5');
    simulator().loseNextConfirmationAnswer();
    const res = await withdraw(player, { amount: '0.4', address: ltcAddress() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'pending', amount: '0.4' });
    expect(await ltcWallet(player)).toEqual({ available: '0.099994', pending: '0.400006' });
    const payout = await settle(res.body.data.spendRequestId as string, 'confirmed');
    expect(payout).toMatchObject({ status: 'sent' });
    expect(await ltcWallet(player)).toEqual({ available: '0.099994', pending: '0' });
  });
});

describe('webhooks', () => {
  it('refuses a bad signature and an unknown spend request, changing nothing', async () => {
    const player = await fundedPlayer('0.5');
    const res = await withdraw(player, { amount: '0.2', address: ltcAddress() });
    const spendRequestId = res.body.data.spendRequestId as string;
    const count = await ledgerTransactionCount();

    const body = { type: 'withdrawal', spendRequestId, outcome: 'failed' };
    expect(code(await webhook(body, signWebhook('not-the-secret', JSON.stringify(body))))).toEqual([401, 'INVALID_SIGNATURE']);
    expect(code(await signed({ type: 'withdrawal', spendRequestId: 'sp_unknown', outcome: 'confirmed' }))).toEqual([404, 'NOT_FOUND']);
    expect(code(await server.call('devWithdrawalsSettle', { body: { spendRequestId: 'sp_unknown', outcome: 'confirmed' } }))).toEqual([404, 'NOT_FOUND']);
    expect(await ledgerTransactionCount()).toBe(count);
    expect(await ltcWallet(player)).toEqual({ available: '0.299994', pending: '0.200006' });

    const taken = await signed(body);
    expect(taken.body.data.withdrawal).toMatchObject({ spendRequestId, status: 'failed', changed: true });
    expect(await ltcWallet(player)).toEqual({ available: '0.5', pending: '0' });
  });
});

describe('Idempotency-Key', () => {
  it('answers a replay with the first response and refuses the key with another body', async () => {
    const player = await fundedPlayer('1');
    const address = ltcAddress();
    const key = { 'Idempotency-Key': 'withdraw-7f3e9c2a' };
    const first = await withdraw(player, { amount: '0.4', address }, key);
    expect(first.status).toBe(200);
    const count = await ledgerTransactionCount();
    const again = await withdraw(player, { amount: '0.4', address }, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(code(await withdraw(player, { amount: '0.3', address }, key))).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await ledgerTransactionCount()).toBe(count);
    expect(await ltcWallet(player)).toEqual({ available: '0.599994', pending: '0.400006' });

    // The first response stands whatever became of the payout; a refusal replays as the refusal.
    await settle(first.body.data.spendRequestId as string, 'failed');
    expect((await withdraw(player, { amount: '0.4', address }, key)).body).toEqual(first.body);
    simulator().setOnline(false);
    try {
      expect(code(await withdraw(player, { amount: '0.4', address }, { 'Idempotency-Key': 'withdraw-outage' }))).toEqual([502, 'COIN_PAYMENTS_SERVER_ERROR']);
    } finally {
      simulator().setOnline(true);
    }
    const afterRefusal = await ledgerTransactionCount();
    expect(code(await withdraw(player, { amount: '0.4', address }, { 'Idempotency-Key': 'withdraw-outage' }))).toEqual([502, 'COIN_PAYMENTS_SERVER_ERROR']);
    expect(await ledgerTransactionCount()).toBe(afterRefusal);
    expect(await ltcWallet(player)).toEqual({ available: '1', pending: '0' });
  });
});

describe('Idempotency-Key: refusals and races', () => {
  const withdrawalCount = async (player: Player) =>
    (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM withdrawals WHERE user_id = $1', [player.user.id]))[0]!.n;

  it('remembers nothing of a request refused before its funds were held: the key may be tried again', async () => {
    const player = await fundedPlayer('1');
    const address = ltcAddress();
    const key = { 'Idempotency-Key': 'withdraw-retry' };
    // Refused by a check before the transaction, then by one inside it (the key's row rolls back with it).
    expect(code(await withdraw(player, { amount: '0.01', address }, key))).toEqual([422, 'MINIMUM_WITHDRAW_AMOUNT_LIMIT']);
    expect(code(await withdraw(player, { amount: '2', address }, key))).toEqual([422, 'INSUFFICIENT_BALANCE']);
    expect(await withdrawalCount(player)).toBe(0);
    const accepted = await withdraw(player, { amount: '0.4', address }, key);
    expect(accepted.status).toBe(200);
    expect((await withdraw(player, { amount: '0.4', address }, key)).body).toEqual(accepted.body);
    expect(code(await withdraw(player, { amount: '0.4', address: ltcAddress() }, key))).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await withdrawalCount(player)).toBe(1);

    // The key is the player's own: another player's request with it is a request of its own.
    const other = await fundedPlayer('1');
    expect((await withdraw(other, { amount: '0.4', address }, key)).status).toBe(200);
    expect(await ltcWallet(other)).toEqual({ available: '0.599994', pending: '0.400006' });
  });

  it('holds the funds once for concurrent requests with one key, whatever their bodies', async () => {
    const player = await fundedPlayer('1');
    const address = ltcAddress();
    const key = { 'Idempotency-Key': 'withdraw-race' };
    const amounts = ['0.4', '0.3', '0.4', '0.4', '0.3', '0.4'];
    const results = await Promise.all(amounts.map((amount) => withdraw(player, { amount, address }, key)));
    const accepted = results.filter((res) => res.status === 200);
    expect(accepted.length).toBeGreaterThan(0);
    const winner = accepted[0]!.body.data.amount as string;
    for (const [index, res] of results.entries()) {
      if (amounts[index] !== winner) expect(code(res)).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
      else if (res.status === 200) expect(res.body).toEqual(accepted[0]!.body);
      // Still with the provider when this one asked: no answer to repeat yet.
      else expect(code(res)).toEqual([409, 'WITHDRAWAL_REQUEST_IN_PENDING']);
    }
    expect(await withdrawalCount(player)).toBe(1);
    const held = parseSignedAmount(winner) + parseSignedAmount('0.000006');
    expect(await ltcWallet(player)).toEqual({ available: formatAmount(parseSignedAmount('1') - held), pending: formatAmount(held) });

    // Paid out once; a repeat afterwards answers the first response and pays nothing more.
    await settle(accepted[0]!.body.data.spendRequestId as string, 'confirmed');
    expect((await withdraw(player, { amount: winner, address }, key)).body).toEqual(accepted[0]!.body);
    expect(await ltcWallet(player)).toEqual({ available: formatAmount(parseSignedAmount('1') - held), pending: '0' });
    expect(await withdrawalCount(player)).toBe(1);
  });
});

describe('concurrent withdrawals', () => {
  it('accept exactly one of 50 requests for the whole balance', async () => {
    const player = await fundedPlayer('1');
    const address = ltcAddress();
    const results = await Promise.all(Array.from({ length: 50 }, () => withdraw(player, { amount: '0.999994', address })));
    const accepted = results.filter((res) => res.status === 200);
    expect(accepted).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 200)) {
      expect(['422 INSUFFICIENT_BALANCE', '409 WITHDRAWAL_REQUEST_IN_PENDING']).toContain(code(res).join(' '));
    }
    expect(await ltcWallet(player)).toEqual({ available: '0', pending: '1' });
    const rows = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM withdrawals WHERE user_id = $1', [player.user.id]);
    expect(rows[0]!.n).toBe(1);
    await settle(accepted[0]!.body.data.spendRequestId as string, 'confirmed');
    expect(await ltcWallet(player)).toEqual({ available: '0', pending: '0' });
  });
});
