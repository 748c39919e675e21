import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../src/api/schema.d.ts';
import { sqlState } from '../../server/db/db.ts';
import { assertCashoutAllowed } from '../../server/domain/bonuses.ts';
import { DomainError } from '../../server/domain/errors.ts';
import { postTransaction, systemAccount, transfer, walletAccount } from '../../server/domain/ledger.ts';
import { parseSignedAmount } from '../../src/money.ts';
import { newPlayer, registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';
import { chainTransfer, code, depositAddress, expectLedgerBalanced, ledgerTransactionCount as countLedgerTransactions, walletOf, type Player } from '../helpers/money.ts';

/**
 * Bonuses and referral rewards through HTTP, against the seeded catalogue (one LTC offer of each kind):
 * claiming, queueing, forfeiting, wagering (the game wallet's hook, called here the way a bet calls it),
 * a deposit bonus funded by a simulator deposit, lazy expiry as the server's clock moves, and referral
 * rewards up to the limit. After each test the ledger must prove itself.
 */

const DAY = 24 * 60 * 60_000;
const LTC = 1;

let server: TestServer;
let offers: Record<string, number>;

beforeAll(async () => {
  // Many players sign up from one address here; the signup limit is tested in accounts.test.ts. The
  // referral tests here count verified friends; a first deposit's part is in referrals.test.ts.
  server = await startTestServer({ PAYMENT_WEBHOOK_SECRET: 'bonus-test-webhook-secret', RATE_LIMIT: 'false', REFERRAL_REQUIRES_DEPOSIT: 'off' });
  // The payment simulator calls the webhook over real HTTP.
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const list = await server.call('bonusList', { query: { limit: 100 } });
  offers = Object.fromEntries((list.body.data.bonus.rows as { id: number; type: string }[]).map((row) => [row.type, row.id]));
});
afterAll(async () => server.close());
afterEach(() => expectLedgerBalanced(server));

const ltcWallet = (player: Player) => walletOf(server, player);

const claim = (player: Player, bonusId: number, currencyId = LTC, headers: Record<string, string> = {}) =>
  server.call('bonusAvail', { token: player.token, body: { bonusId, currencyId }, headers });

const forfeit = (player: Player, userBonusId: number, headers: Record<string, string> = {}) =>
  server.call('bonusCancel', { token: player.token, body: { userBonusId }, headers });

async function myBonuses(player: Player, status?: string) {
  const res = await server.call('bonusUserList', { token: player.token, query: { status } });
  expect(res.status).toBe(200);
  return res.body.data.userBonus.rows as { id: number; bonusId: number; status: string; amount: string; wageredAmount: string; amountToWager: string; expireAt: string | null }[];
}

/** A bet's wagering as game_wallet_play counts it (bonus_record_wagering), in a transaction of its own. */
async function recordWagering(player: Player, walletId: number, currencyId: number, amount: string): Promise<void> {
  await server.db.transaction((tx) =>
    tx.query('SELECT bonus_record_wagering($1, $2, $3, $4, $5)', [player.user.id, walletId, currencyId, amount, server.clock.now()]),
  );
}

const bet = async (player: Player, amount: string) => recordWagering(player, (await ltcWallet(player)).id, LTC, amount);

/** The running bonus of a wallet (bonus_running_id). */
const runningBonusId = async (walletId: number, at: Date) =>
  (await server.db.query<{ id: number | null }>('SELECT bonus_running_id($1, $2) AS id', [walletId, at]))[0]!.id;

/** Where the money of a round's bonus is now (bonus_money_home). */
const bonusMoneyHome = async (userBonusId: number | null, walletId: number, at: Date) =>
  (await server.db.query<{ home: string }>('SELECT bonus_money_home($1, $2, $3) AS home', [userBonusId, walletId, at]))[0]!.home;

const ledgerTransactionCount = () => countLedgerTransactions(server);

describe('the catalogue', () => {
  it('lists the offers by type and shows one, or INVALID_BONUS_ID', async () => {
    expect(Object.keys(offers).sort()).toEqual(['bet', 'daily', 'deposit', 'joining', 'loyalty', 'referral']);
    const deposits = await server.call('bonusList', { query: { type: 'deposit' } });
    expect(deposits.body.data.bonus.count).toBe(1);
    expect(deposits.body.data.bonus.rows[0]).toMatchObject({ percentage: '100', minDeposit: '0.01', amount: '1', currencyCode: 'LTC', wageringMultiplier: 30 });

    const joining = await server.call('bonusDetail', { query: { bonusId: offers.joining! } });
    expect(joining.body.data.bonus).toMatchObject({ type: 'joining', amount: '0.01', joiningAmount: '0.01', referralBonusAmount: null, validTill: null });
    const referral = await server.call('bonusDetail', { query: { bonusId: offers.referral! } });
    expect(referral.body.data.bonus).toMatchObject({ type: 'referral', amount: '0.001', referralBonusAmount: '0.001' });

    expect(code(await server.call('bonusDetail', { query: { bonusId: 99999 } }))).toEqual([404, 'INVALID_BONUS_ID']);
  });
});

describe('claiming', () => {
  it('refuses unknown offers, referral offers and other currencies', async () => {
    const player = await registeredPlayer(server);
    expect(code(await claim(player, 99999))).toEqual([404, 'INVALID_BONUS_ID']);
    expect(code(await claim(player, offers.referral!))).toEqual([422, 'INVALID_BONUS']);
    expect(code(await claim(player, offers.joining!, 2))).toEqual([422, 'CURRENCY_NOT_AVAILABLE']);
    await server.db.query('UPDATE bonuses SET active = false WHERE id = $1', [offers.loyalty]);
    try {
      expect(code(await claim(player, offers.loyalty!))).toEqual([422, 'INVALID_BONUS']);
    } finally {
      await server.db.query('UPDATE bonuses SET active = true WHERE id = $1', [offers.loyalty]);
    }
    expect(await myBonuses(player)).toEqual([]);
  });

  it('activates the first claim, queues the next, and starts it when the first is forfeited', async () => {
    const player = await registeredPlayer(server);
    const first = await claim(player, offers.joining!);
    expect(first.status).toBe(200);
    expect(first.body.data.userBonus).toMatchObject({ status: 'active', amount: '0.01', wageredAmount: '0', amountToWager: '0.1', currencyCode: 'LTC' });
    const claimedAt = Date.parse(first.body.data.userBonus.claimedAt as string);
    expect(Date.parse(first.body.data.userBonus.expireAt as string)).toBe(claimedAt + 7 * DAY);
    expect(await ltcWallet(player)).toMatchObject({ available: '0', bonus: '0.01' });

    const second = await claim(player, offers.loyalty!);
    expect(second.body.data.userBonus).toMatchObject({ status: 'queued', amount: '0', expireAt: null });
    expect(code(await claim(player, offers.loyalty!))).toEqual([409, 'BONUS_ALREADY_ACTIVE']);
    expect((await myBonuses(player, 'queued')).map((b) => b.id)).toEqual([second.body.data.userBonus.id]);

    const cancelled = await forfeit(player, first.body.data.userBonus.id as number);
    expect(cancelled.body.data).toEqual({ success: true });
    const rows = await myBonuses(player);
    expect(rows.map((b) => [b.bonusId, b.status, b.amount])).toEqual([
      [offers.loyalty, 'active', '0.005'],
      [offers.joining, 'forfeited', '0.01'],
    ]);
    expect(await ltcWallet(player)).toMatchObject({ available: '0', bonus: '0.005' });

    expect(code(await forfeit(player, first.body.data.userBonus.id as number))).toEqual([422, 'INVALID_BONUS']);
    expect(code(await forfeit(player, 99999))).toEqual([404, 'NOT_FOUND']);
    expect(code(await claim(player, offers.joining!))).toEqual([409, 'BONUS_ALREADY_AVAILED']);
  });
});

describe('wagering', () => {
  it('counts bets, blocks cashouts until done, then releases the bonus money and starts the next', async () => {
    const player = await registeredPlayer(server);
    const active = await claim(player, offers.bet!);
    expect(active.body.data.userBonus).toMatchObject({ status: 'active', amount: '0.002', amountToWager: '0.01' });
    await claim(player, offers.loyalty!);
    const wallet = await ltcWallet(player);

    await bet(player, '0.004');
    await bet(player, '0.001');
    // A rolled-back bet no longer counts.
    await bet(player, '-0.001');
    expect((await myBonuses(player, 'active'))[0]).toMatchObject({ wageredAmount: '0.004' });
    expect(await runningBonusId(wallet.id, server.clock.now())).not.toBeNull();
    await expect(assertCashoutAllowed(server.db, wallet.id, server.clock.now())).rejects.toMatchObject(new DomainError('CASHOUT_NOT_ALLOWED'));

    await bet(player, '0.006');
    const rows = await myBonuses(player);
    expect(rows.map((b) => [b.bonusId, b.status, b.wageredAmount])).toEqual([
      [offers.loyalty, 'active', '0'],
      [offers.bet, 'completed', '0.01'],
    ]);
    // The converted bet bonus is real money; the loyalty bonus now holds the bonus balance.
    expect(await ltcWallet(player)).toMatchObject({ available: '0.002', bonus: '0.005' });
    const conversions = await server.db.query<{ amount: string }>(
      "SELECT amount FROM ledger_transactions WHERE wallet_id = $1 AND action_type = 'bonusConversion'",
      [wallet.id],
    );
    expect(conversions.map((row) => parseSignedAmount(row.amount))).toEqual([200_000n]);
    // An unfunded deposit bonus is not running yet.
    const other = await registeredPlayer(server);
    await claim(other, offers.deposit!);
    expect(await runningBonusId((await ltcWallet(other)).id, server.clock.now())).toBeNull();

    // A bet in another wallet does not count.
    const btc = await server.db.query<{ id: number }>('SELECT id FROM wallets WHERE user_id = $1 AND currency_id = 2', [player.user.id]);
    await recordWagering(player, btc[0]!.id, 2, '1');
    expect((await myBonuses(player, 'active'))[0]).toMatchObject({ wageredAmount: '0' });
    await expect(assertCashoutAllowed(server.db, btc[0]!.id, server.clock.now())).resolves.toBeUndefined();
  });
});

describe('deposit bonus', () => {
  it('waits for a qualifying deposit, then credits its percentage', async () => {
    const player = await registeredPlayer(server);
    const claimed = await claim(player, offers.deposit!);
    expect(claimed.body.data.userBonus).toMatchObject({ status: 'active', amount: '0', amountToWager: '0' });

    const address = await server.call('paymentDeposit', { token: player.token, body: { amount: '0.5', currencyCode: 'LTC' } });
    expect(address.status).toBe(200);
    const send = async (amount: string) => {
      const transfer = await server.call('devChainTransfer', { body: { address: address.body.data.address, amount } });
      expect(transfer.status, JSON.stringify(transfer.body)).toBe(200);
      const confirmed = await server.call('devChainConfirm', { body: { txId: transfer.body.data.txId, confirmations: 6 } });
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    };
    // Under the offer's minimum (0.01): credited, but no bonus.
    await send('0.005');
    expect((await myBonuses(player, 'active'))[0]).toMatchObject({ amount: '0' });
    await send('0.5');
    expect((await myBonuses(player, 'active'))[0]).toMatchObject({ amount: '0.5', amountToWager: '15' });
    expect(await ltcWallet(player)).toMatchObject({ available: '0.505', bonus: '0.5' });
  });
});

describe('expiry', () => {
  it('expires a bonus lazily once its time is up, returns its money and starts the next', async () => {
    const player = await registeredPlayer(server);
    const daily = await claim(player, offers.daily!);
    expect(daily.body.data.userBonus).toMatchObject({ status: 'active', amount: '0.001' });
    await claim(player, offers.joining!);
    expect(await ltcWallet(player)).toMatchObject({ bonus: '0.001' });

    server.clock.advance(DAY + 1000);
    // Access tokens do not live a day: sign in again.
    const login = await server.call('userLogin', { body: { email: player.payload.email, password: player.payload.password } });
    player.token = login.body.data.accessToken as string;
    const rows = await myBonuses(player);
    expect(rows.map((b) => [b.bonusId, b.status])).toEqual([
      [offers.joining, 'active'],
      [offers.daily, 'expired'],
    ]);
    expect(await ltcWallet(player)).toMatchObject({ available: '0', bonus: '0.01' });
    const forfeits = await server.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger_transactions WHERE user_id = $1 AND action_type = 'bonusForfeit'",
      [player.user.id],
    );
    expect(forfeits[0]!.n).toBe(1);

    // A daily offer: once per UTC day.
    await forfeit(player, rows[0]!.id);
    expect((await claim(player, offers.daily!)).body.data.userBonus).toMatchObject({ status: 'active' });
    await forfeit(player, (await myBonuses(player, 'active'))[0]!.id);
    expect(code(await claim(player, offers.daily!))).toEqual([409, 'BONUS_ALREADY_AVAILED']);
  });
});

describe('referrals', () => {
  it('pays the reward per referred player up to the limit', async () => {
    const referrer = await registeredPlayer(server);
    const claimReward = (currencyId = LTC, headers: Record<string, string> = {}) =>
      server.call('bonusAvailReferral', { token: referrer.token, body: { currencyId }, headers });

    const unknown = await server.call('userSignup', { body: { ...newPlayer(), referralCode: 'NOSUCHCODE1' } });
    expect(code(unknown)).toEqual([422, 'REFERRAL_CODE_NOT_FOUND']);
    expect(code(await claimReward())).toEqual([422, 'INVALID_BONUS']);

    const referralCode = referrer.user.referralCode as string;
    for (let i = 0; i < 3; i += 1) await registeredPlayer(server, { referralCode });
    expect(code(await claimReward(999))).toEqual([422, 'CURRENCY_NOT_AVAILABLE']);

    await server.db.query('UPDATE settings SET referral_limit = 2');
    try {
      const headers = { 'Idempotency-Key': 'referral-1' };
      const paid = await claimReward(LTC, headers);
      expect(paid.body.data.userBonusWallet).toEqual({ currencyId: LTC, currencyCode: 'LTC', amount: '0.002', referredCount: 2 });
      const before = await ledgerTransactionCount();
      expect((await claimReward(LTC, headers)).body.data).toEqual(paid.body.data);
      expect(await ledgerTransactionCount()).toBe(before);
      expect(await ltcWallet(referrer)).toMatchObject({ available: '0.002', bonus: '0' });
      expect(code(await claimReward())).toEqual([422, 'REFERRAL_LIMIT_EXCEEDED']);

      // A higher limit pays for the third referred player only.
      await server.db.query('UPDATE settings SET referral_limit = 10');
      expect((await claimReward()).body.data.userBonusWallet).toMatchObject({ amount: '0.001', referredCount: 1 });
      expect(code(await claimReward())).toEqual([422, 'INVALID_BONUS']);
    } finally {
      await server.db.query('UPDATE settings SET referral_limit = 10');
    }
  });
});

describe('Idempotency-Key', () => {
  const key = (value: string) => ({ 'Idempotency-Key': value });
  const userBonusCount = async (player: Player) =>
    (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM user_bonuses WHERE user_id = $1', [player.user.id]))[0]!.n;

  it('bonusAvail: the same body replays the first answer; another body is refused and claims nothing', async () => {
    const player = await registeredPlayer(server);
    const first = await claim(player, offers.bet!, LTC, key('claim-1'));
    expect(first.status).toBe(200);
    const before = await ledgerTransactionCount();

    const replay = await claim(player, offers.bet!, LTC, key('claim-1'));
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual(first.body.data);
    expect(await ledgerTransactionCount()).toBe(before);
    expect(await userBonusCount(player)).toBe(1);

    // The key of the bet offer's claim sent with the loyalty offer: refused, and the loyalty offer is not claimed.
    expect(code(await claim(player, offers.loyalty!, LTC, key('claim-1')))).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await ledgerTransactionCount()).toBe(before);
    expect((await myBonuses(player)).map((b) => b.bonusId)).toEqual([offers.bet]);

    // A key is the player's own, for one operation: another player, or a forfeit, may use the same one.
    const other = await registeredPlayer(server);
    expect((await claim(other, offers.loyalty!, LTC, key('claim-1'))).body.data.userBonus).toMatchObject({ bonusId: offers.loyalty });
    expect(await forfeit(player, first.body.data.userBonus.id as number, key('claim-1'))).toMatchObject({ status: 200 });
  });

  it('bonusAvail: a refused request stores nothing, so its key may be tried again', async () => {
    const player = await registeredPlayer(server);
    expect(code(await claim(player, offers.joining!, 2, key('claim-retry')))).toEqual([422, 'CURRENCY_NOT_AVAILABLE']);
    const retried = await claim(player, offers.joining!, LTC, key('claim-retry'));
    expect(retried.body.data.userBonus).toMatchObject({ bonusId: offers.joining, status: 'active' });
    expect((await claim(player, offers.joining!, LTC, key('claim-retry'))).body.data).toEqual(retried.body.data);
  });

  it('bonusAvail: concurrent requests with one key have one effect', async () => {
    const player = await registeredPlayer(server);
    const bodies = [offers.bet!, offers.bet!, offers.loyalty!, offers.bet!, offers.loyalty!, offers.bet!];
    const results = await Promise.all(bodies.map((bonusId) => claim(player, bonusId, LTC, key('claim-race'))));
    const answered = results.filter((res) => res.status === 200);
    expect(answered.length).toBeGreaterThan(0);
    for (const res of results.filter((r) => r.status !== 200)) expect(code(res)).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    // Every success is the first answer, and every request with the other offer's body was refused.
    const claimed = answered[0]!.body.data.userBonus as { id: number; bonusId: number };
    for (const res of answered) expect(res.body.data).toEqual(answered[0]!.body.data);
    expect(answered).toHaveLength(bodies.filter((bonusId) => bonusId === claimed.bonusId).length);
    expect((await myBonuses(player)).map((b) => b.id)).toEqual([claimed.id]);
  });

  it('bonusCancel: the same body replays the first answer; another body is refused and the other bonus stays', async () => {
    const player = await registeredPlayer(server);
    const bet = (await claim(player, offers.bet!)).body.data.userBonus.id as number;
    const loyalty = (await claim(player, offers.loyalty!)).body.data.userBonus.id as number;

    expect((await forfeit(player, bet, key('forfeit-1'))).body.data).toEqual({ success: true });
    const before = await ledgerTransactionCount();
    const wallet = await ltcWallet(player);
    expect((await forfeit(player, bet, key('forfeit-1'))).body.data).toEqual({ success: true });
    expect(await ledgerTransactionCount()).toBe(before);

    // The key of bet's forfeit sent for the loyalty bonus: refused, and the loyalty bonus stays active.
    expect(code(await forfeit(player, loyalty, key('forfeit-1')))).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await ledgerTransactionCount()).toBe(before);
    expect(await ltcWallet(player)).toEqual(wallet);
    expect((await myBonuses(player)).map((b) => [b.id, b.status])).toEqual([
      [loyalty, 'active'],
      [bet, 'forfeited'],
    ]);
    expect((await forfeit(player, loyalty, key('forfeit-2'))).body.data).toEqual({ success: true });
    expect(await ltcWallet(player)).toMatchObject({ bonus: '0' });
  });

  it('bonusCancel: concurrent requests with one key forfeit once', async () => {
    const player = await registeredPlayer(server);
    const bet = (await claim(player, offers.bet!)).body.data.userBonus.id as number;
    const before = await ledgerTransactionCount();
    const results = await Promise.all(Array.from({ length: 5 }, () => forfeit(player, bet, key('forfeit-race'))));
    for (const res of results) expect(res.body.data).toEqual({ success: true });
    // One posting: the bonus money back to the pool.
    expect(await ledgerTransactionCount()).toBe(before + 1);
    expect((await myBonuses(player)).map((b) => b.status)).toEqual(['forfeited']);
  });

  it('bonusAvailReferral: the same body replays the first answer; another body is refused and pays nothing', async () => {
    const referrer = await registeredPlayer(server);
    const referralCode = referrer.user.referralCode as string;
    const reward = (currencyId: number, headers: Record<string, string>) =>
      server.call('bonusAvailReferral', { token: referrer.token, body: { currencyId }, headers });
    const status = async () => (await server.call('bonusReferral', { token: referrer.token })).body.data.referral as Record<string, unknown>;
    for (let i = 0; i < 2; i += 1) await registeredPlayer(server, { referralCode });

    const paid = await reward(LTC, key('referral-a'));
    expect(paid.body.data.userBonusWallet).toMatchObject({ amount: '0.002', referredCount: 2 });
    await registeredPlayer(server, { referralCode });
    const before = await ledgerTransactionCount();

    // The replay answers the first claim; the third friend is still to be paid for.
    expect((await reward(LTC, key('referral-a'))).body.data).toEqual(paid.body.data);
    expect(await ledgerTransactionCount()).toBe(before);
    expect(await status()).toMatchObject({ referredCount: 3, paidCount: 2, claimableCount: 1 });

    // Another body with the key is refused before anything is checked or paid.
    expect(code(await reward(999, key('referral-a')))).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await ledgerTransactionCount()).toBe(before);
    expect(await ltcWallet(referrer)).toMatchObject({ available: '0.002' });

    // Concurrent claims with a new key pay the third friend once.
    const results = await Promise.all(Array.from({ length: 4 }, () => reward(LTC, key('referral-b'))));
    for (const res of results) expect(res.body.data.userBonusWallet).toEqual({ currencyId: LTC, currencyCode: 'LTC', amount: '0.001', referredCount: 1 });
    expect(await ledgerTransactionCount()).toBe(before + 1);
    expect(await ltcWallet(referrer)).toMatchObject({ available: '0.003' });
    expect(await status()).toMatchObject({ referredCount: 3, paidCount: 3, claimableCount: 0 });
  });
});

describe('referral status', () => {
  it('counts the referred players, those paid for and those a claim would pay for, up to the limit', async () => {
    const referrer = await registeredPlayer(server);
    const status = async () => {
      const res = await server.call('bonusReferral', { token: referrer.token });
      expect(res.status).toBe(200);
      const { requirement, pendingCount, qualifiedCount, ...counts } = res.body.data.referral as components['schemas']['ReferralStatus'];
      // Every friend here is verified: all qualify.
      expect([requirement, pendingCount, qualifiedCount]).toEqual(['verifiedEmail', 0, counts.referredCount]);
      return counts;
    };
    const referralCode = referrer.user.referralCode as string;
    expect(await status()).toEqual({ referralCode, referredCount: 0, paidCount: 0, claimableCount: 0 });

    for (let i = 0; i < 3; i += 1) await registeredPlayer(server, { referralCode });
    expect(await status()).toEqual({ referralCode, referredCount: 3, paidCount: 0, claimableCount: 3 });

    await server.db.query('UPDATE settings SET referral_limit = 2');
    try {
      // Over the limit, a claim would pay for the limit only.
      expect(await status()).toMatchObject({ referredCount: 3, paidCount: 0, claimableCount: 2 });
      const paid = await server.call('bonusAvailReferral', { token: referrer.token, body: { currencyId: LTC } });
      expect(paid.body.data.userBonusWallet).toMatchObject({ referredCount: 2 });
      // At the limit: nothing more to claim however many sign up.
      expect(await status()).toEqual({ referralCode, referredCount: 3, paidCount: 2, claimableCount: 0 });
      await registeredPlayer(server, { referralCode });
      expect(await status()).toEqual({ referralCode, referredCount: 4, paidCount: 2, claimableCount: 0 });

      // A higher limit: the two not paid for yet become claimable; a claim pays them.
      await server.db.query('UPDATE settings SET referral_limit = 10');
      expect(await status()).toEqual({ referralCode, referredCount: 4, paidCount: 2, claimableCount: 2 });
      await server.call('bonusAvailReferral', { token: referrer.token, body: { currencyId: LTC } });
      expect(await status()).toEqual({ referralCode, referredCount: 4, paidCount: 4, claimableCount: 0 });

      // A limit lowered below what was paid never makes the count negative.
      await server.db.query('UPDATE settings SET referral_limit = 3');
      expect(await status()).toEqual({ referralCode, referredCount: 4, paidCount: 4, claimableCount: 0 });
    } finally {
      await server.db.query('UPDATE settings SET referral_limit = 10');
    }
    // Another player's referrals are not this player's.
    const other = await registeredPlayer(server);
    const mine = await server.call('bonusReferral', { token: other.token });
    expect(mine.body.data.referral).toEqual({
      referralCode: other.user.referralCode,
      requirement: 'verifiedEmail',
      referredCount: 0,
      pendingCount: 0,
      qualifiedCount: 0,
      paidCount: 0,
      claimableCount: 0,
    });
  });

  it('needs a signed-in player', async () => {
    expect(code(await server.call('bonusReferral', {}))).toEqual([401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED']);
  });
});

describe('the life cycle in the database (server/db/schema/1_function_bonus_*.sql)', () => {
  const userId = (player: Player) => player.user.id as number;
  /** Runs `sql` in a transaction of its own; its error, if any, is SQLSTATE and message. */
  const run = (sql: string, params: unknown[]) => server.db.transaction((tx) => tx.query(sql, params));
  const refusal = async (sql: string, params: unknown[]) => {
    try {
      await run(sql, params);
    } catch (error) {
      return sqlState(error);
    }
    return 'accepted';
  };
  /** A new offer, as the catalogue would hold it. */
  const offer = async (values: { type: string; amount?: string; percentage?: string; minDeposit?: string; currency?: string; multiplier?: number }) =>
    (
      await server.db.query<{ id: number }>(
        `INSERT INTO bonuses (type, name, amount, percentage, min_deposit, currency_id, wagering_multiplier, valid_days)
         SELECT $1, 'Life cycle test offer', $2, $3, $4, id, $5, 7 FROM currencies WHERE code = $6 RETURNING id`,
        [values.type, values.amount ?? null, values.percentage ?? null, values.minDeposit ?? null, values.multiplier ?? 10, values.currency ?? 'LTC'],
      )
    )[0]!.id;
  const userBonus = async (id: number) =>
    (
      await server.db.query<{ status: string; amount: string; wagered_amount: string; deposit_id: number | null }>(
        'SELECT status, amount::text, wagered_amount::text, deposit_id FROM user_bonuses WHERE id = $1',
        [id],
      )
    )[0]!;

  it('bonus_record_wagering: a rolled-back bet takes its stake off the wagering, never below zero, and never completes a bonus', async () => {
    const player = await registeredPlayer(server);
    const id = (await claim(player, offers.bet!)).body.data.userBonus.id as number;
    const wallet = await ltcWallet(player);
    const wager = (amount: string, currencyId = LTC) =>
      run('SELECT bonus_record_wagering($1, $2, $3, $4, $5)', [userId(player), wallet.id, currencyId, amount, server.clock.now()]);

    await wager('0.004');
    // Another currency than the bonus's: not counted.
    await wager('0.004', 2);
    expect(await userBonus(id)).toMatchObject({ status: 'active', wagered_amount: '0.00400000' });
    await wager('-0.01');
    expect(await userBonus(id)).toMatchObject({ status: 'active', wagered_amount: '0.00000000' });
    await wager('0');
    await wager('0.01');
    // Met: completed, its money available.
    expect(await userBonus(id)).toMatchObject({ status: 'completed', wagered_amount: '0.01000000' });
    expect(await ltcWallet(player)).toMatchObject({ available: '0.002', bonus: '0' });
    // A rollback after completion leaves the completed bonus as it is.
    await wager('-0.01');
    expect(await userBonus(id)).toMatchObject({ status: 'completed', wagered_amount: '0.01000000' });
  });

  it('bonus_money_home and bonus_running_id: the bonus balance while it runs, available once completed, the pool otherwise', async () => {
    const player = await registeredPlayer(server);
    const wallet = await ltcWallet(player);
    const now = () => server.clock.now();
    expect(await bonusMoneyHome(null, wallet.id, now())).toBe('pool');
    const first = (await claim(player, offers.bet!)).body.data.userBonus.id as number;
    const second = (await claim(player, offers.loyalty!)).body.data.userBonus.id as number;
    expect(await runningBonusId(wallet.id, now())).toBe(first);
    expect(await bonusMoneyHome(first, wallet.id, now())).toBe('bonus');
    expect(await bonusMoneyHome(null, wallet.id, now())).toBe('bonus');
    // Past its expire_at it no longer runs, though no one touched it yet.
    expect(await bonusMoneyHome(first, wallet.id, new Date(now().getTime() + 8 * DAY))).toBe('pool');
    expect(await runningBonusId(wallet.id, new Date(now().getTime() + 8 * DAY))).toBeNull();

    await bet(player, '0.01');
    expect(await bonusMoneyHome(first, wallet.id, now())).toBe('available');
    expect(await runningBonusId(wallet.id, now())).toBe(second);
    await forfeit(player, second);
    expect(await bonusMoneyHome(second, wallet.id, now())).toBe('pool');
    expect(await refusal('SELECT bonus_money_home($1, $2, $3)', [999_999_999, wallet.id, now()])).toBe('BN001');
  });

  it('refuses to end, credit or activate a bonus in the wrong state, and a deposit credit without its deposit (BN001)', async () => {
    const player = await registeredPlayer(server);
    const wallet = await ltcWallet(player);
    const active = (await claim(player, offers.bet!)).body.data.userBonus.id as number;
    const queued = (await claim(player, offers.loyalty!)).body.data.userBonus.id as number;
    const at = server.clock.now();
    const before = await ledgerTransactionCount();
    expect(await refusal('SELECT bonus_activate($1, $2)', [active, at])).toBe('BN001');
    expect(await refusal('SELECT bonus_fund($1, $2, $3, NULL)', [queued, '0.001', at])).toBe('BN001');
    expect(await refusal('SELECT bonus_fund($1, $2, $3, NULL)', [active, '0', at])).toBe('BN001');
    expect(await refusal('SELECT bonus_end($1, $2, $3)', [active, 'active', at])).toBe('BN001');
    expect(await refusal('SELECT bonus_apply_deposit(NULL, $1, $2, $3, $4, $5)', [userId(player), wallet.id, LTC, '1', at])).toBe('BN001');
    await forfeit(player, active);
    expect(await refusal('SELECT bonus_end($1, $2, $3)', [active, 'forfeited', at])).toBe('BN001');
    // The forfeit's posting and the credit of the bonus it started, nothing else.
    expect(await ledgerTransactionCount()).toBe(before + 2);
    expect(await userBonus(queued)).toMatchObject({ status: 'active' });
  });

  it('posts what postTransaction posted for a credit and an ending, so those postings replay on its rows', async () => {
    const player = await registeredPlayer(server);
    const wallet = await ltcWallet(player);
    const id = (await claim(player, offers.bet!)).body.data.userBonus.id as number;
    await bet(player, '0.004');
    await forfeit(player, id);
    const [row] = await server.db.query<{ credit: number; ended: number; at: Date; ended_at: Date }>(
      'SELECT credit_transaction_id AS credit, end_transaction_id AS ended, activated_at AS at, ended_at FROM user_bonuses WHERE id = $1',
      [id],
    );
    const amount = 200_000n;
    const credit = await server.db.transaction((tx) =>
      postTransaction(tx, {
        kind: 'bonus.credit',
        at: row!.at,
        legs: transfer(systemAccount(LTC, 'bonus_pool'), walletAccount(wallet.id, 'bonus'), amount),
        idempotency: { scope: 'bonus:credit', key: String(id) },
        visible: { walletId: wallet.id, type: 'bonus', actionType: 'bonus', status: 'completed', amount },
      }),
    );
    expect([credit.replayed, credit.transaction.id]).toEqual([true, row!.credit]);
    const ending = await server.db.transaction((tx) =>
      postTransaction(tx, {
        kind: 'bonus.forfeit',
        at: row!.ended_at,
        legs: transfer(walletAccount(wallet.id, 'bonus'), systemAccount(LTC, 'bonus_pool'), amount),
        idempotency: { scope: 'bonus:end', key: String(id) },
        visible: { walletId: wallet.id, type: 'bonus', actionType: 'bonusForfeit', status: 'completed', amount },
      }),
    );
    expect([ending.replayed, ending.transaction.id]).toEqual([true, row!.ended]);
    expect(await ltcWallet(player)).toMatchObject({ available: '0', bonus: '0' });
  });

  it('rounds a fixed amount down to its currency, and a deposit share down to 1e-8, then to the cap', async () => {
    const player = await registeredPlayer(server);
    const usdt = await offer({ type: 'loyalty', amount: '1.23456789', currency: 'USDT' });
    const claimed = await claim(player, usdt, 4);
    expect(claimed.body.data.userBonus, JSON.stringify(claimed.body)).toMatchObject({ status: 'active', amount: '1.234567', amountToWager: '12.34567' });
    await forfeit(player, claimed.body.data.userBonus.id as number);

    const uncapped = await offer({ type: 'deposit', percentage: '33.3333', minDeposit: '0.1' });
    const capped = await offer({ type: 'deposit', percentage: '33.3333', minDeposit: '0.1', amount: '0.03' });
    const first = (await claim(player, uncapped)).body.data.userBonus.id as number;
    const second = (await claim(player, capped)).body.data.userBonus.id as number;
    const address = await depositAddress(server, player, '0.5');
    const send = async (amount: string) => {
      const txId = await chainTransfer(server, address, amount);
      const confirmed = await server.call('devChainConfirm', { body: { txId, confirmations: 6 } });
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    };
    // Under the minimum: nothing.
    await send('0.09');
    expect(await userBonus(first)).toMatchObject({ status: 'active', amount: '0.00000000', deposit_id: null });
    // 0.12345678 × 33.3333 % = 0.0411522188...: 0.04115221.
    await send('0.12345678');
    expect(await userBonus(first)).toMatchObject({ status: 'active', amount: '0.04115221' });
    expect((await userBonus(first)).deposit_id).not.toBeNull();
    await forfeit(player, first);
    // The next one is capped at 0.03.
    await send('0.12345678');
    expect(await userBonus(second)).toMatchObject({ status: 'active', amount: '0.03000000' });
    expect(await ltcWallet(player)).toMatchObject({ available: '0.33691356', bonus: '0.03' });
  });

  it('a deposit bonus with nothing to wager converts at once, and the next queued bonus starts', async () => {
    const player = await registeredPlayer(server);
    const free = await offer({ type: 'deposit', percentage: '10', minDeposit: '0.01', multiplier: 0 });
    const first = (await claim(player, free)).body.data.userBonus.id as number;
    const next = (await claim(player, offers.loyalty!)).body.data.userBonus.id as number;
    const txId = await chainTransfer(server, await depositAddress(server, player, '0.5'), '0.5');
    expect((await server.call('devChainConfirm', { body: { txId, confirmations: 6 } })).status).toBe(200);
    expect(await userBonus(first)).toMatchObject({ status: 'completed', amount: '0.05000000' });
    expect(await userBonus(next)).toMatchObject({ status: 'active', amount: '0.00500000' });
    expect(await ltcWallet(player)).toMatchObject({ available: '0.55', bonus: '0.005' });
  });
});
