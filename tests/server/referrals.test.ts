import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../src/api/schema.d.ts';
import { latestLink, newPlayer, registeredPlayer, startTestServer, tokenFrom, type TestServer } from '../helpers/api.ts';
import { chainTransfer, code, depositAddress, expectLedgerBalanced, walletOf, type Player } from '../helpers/money.ts';

/**
 * Which referred friends count for the referral reward: a friend is pending until their email is verified
 * and (REFERRAL_REQUIRES_DEPOSIT on, the default) a deposit of at least the currency's minimum is
 * credited; a sign-up with the referrer's own mailbox is refused (SELF_REFERRAL) and never counts; the
 * claim pays for qualified friends only, once however many claims arrive together.
 */

const LTC = 1;
/** The seeded settings.referral_reward. */
const REWARD = '0.001';

let server: TestServer;

beforeAll(async () => {
  // Many players sign up from one address here; the signup limit is tested in accounts.test.ts.
  server = await startTestServer({ PAYMENT_WEBHOOK_SECRET: 'referral-test-webhook-secret', RATE_LIMIT: 'false' });
  // The payment simulator calls the webhook over real HTTP.
  await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => server.close());
afterEach(() => expectLedgerBalanced(server));

let serial = 0;
/** A unique local part for an email. */
const unique = (stem: string) => `${stem}${process.pid % 10000}x${(serial += 1)}${Math.floor(Math.random() * 1000)}`;

type Status = components['schemas']['ReferralStatus'];

async function status(player: Player): Promise<Status> {
  const res = await server.call('bonusReferral', { token: player.token });
  expect(res.status).toBe(200);
  return res.body.data.referral as Status;
}

const claim = (player: Player, headers: Record<string, string> = {}) =>
  server.call('bonusAvailReferral', { token: player.token, body: { currencyId: LTC }, headers });

/** A friend who signed up with `referralCode` and has not verified the email. */
async function unverifiedFriend(referralCode: string) {
  const payload = newPlayer({ referralCode });
  const res = await server.call('userSignup', { body: payload });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return payload;
}

/** `amount` LTC sent to the player's deposit address, confirmed `confirmations` times. */
async function deposit(player: Player, amount: string, confirmations = 6): Promise<void> {
  const txId = await chainTransfer(server, await depositAddress(server, player, '0.001'), amount);
  if (confirmations > 0) {
    const confirmed = await server.call('devChainConfirm', { body: { txId, confirmations } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  }
}

async function minimumDeposit(): Promise<string> {
  const rows = await server.db.query<{ min_deposit: string }>("SELECT min_deposit::text AS min_deposit FROM currencies WHERE code = 'LTC'");
  return rows[0]!.min_deposit;
}

describe('email_mailbox', () => {
  it('reads an address as the mailbox it delivers to: case and +tag aside, and for Gmail the dots', async () => {
    const cases: [string, string][] = [
      ['me@example.com', 'me@example.com'],
      ['Me@Example.COM', 'me@example.com'],
      ['me+1@example.com', 'me@example.com'],
      ['ME+Casino+2@example.com', 'me@example.com'],
      ['me+@example.com', 'me@example.com'],
      // Dots are the mailbox's own outside Gmail.
      ['m.e@example.com', 'm.e@example.com'],
      ['m.e@gmail.com', 'me@gmail.com'],
      ['M.E+promo@GMail.com', 'me@gmail.com'],
      ['m.e@googlemail.com', 'me@gmail.com'],
      ['m.e@mail.gmail.com', 'm.e@mail.gmail.com'],
      [' me@example.com ', 'me@example.com'],
    ];
    const rows = await server.db.query<{ email: string; mailbox: string }>(
      'SELECT e.email, email_mailbox(e.email) AS mailbox FROM unnest($1::text[]) AS e(email)',
      [cases.map(([email]) => email)],
    );
    expect(rows.map((row) => [row.email, row.mailbox])).toEqual(cases);
  });
});

describe('signing up with one\'s own referral code', () => {
  it('is refused with SELF_REFERRAL beside the referral code, for a +tag, Gmail dots or another case', async () => {
    const local = unique('rita');
    const gmailReferrer = await registeredPlayer(server, { email: `${local}@gmail.com` });
    const plainLocal = unique('bruno');
    const plainReferrer = await registeredPlayer(server, { email: `${plainLocal}@example.com` });
    const dotted = local.split('').join('.');
    const refused: [Player, string][] = [
      [gmailReferrer, `${local}+1@gmail.com`],
      [gmailReferrer, `${local}+2@gmail.com`],
      [gmailReferrer, `${dotted}@gmail.com`],
      [gmailReferrer, `${dotted.toUpperCase()}+x@GoogleMail.com`],
      [plainReferrer, `${plainLocal}+friend@example.com`],
      [plainReferrer, `${plainLocal.toUpperCase()}+3@EXAMPLE.com`],
    ];
    for (const [referrer, email] of refused) {
      const res = await server.call('userSignup', { body: newPlayer({ email, referralCode: referrer.user.referralCode }) });
      expect(code(res), email).toEqual([422, 'SELF_REFERRAL']);
      expect(res.body.errors[0].fields).toEqual([{ field: 'referralCode', code: 'selfReferral' }]);
      const made = await server.db.query('SELECT id FROM users WHERE lower(email) = lower($1)', [email]);
      expect(made, email).toEqual([]);
    }
    // Another mailbox with the code is a friend; the same mailbox without a code is an account of its own.
    for (const email of [`${plainLocal.slice(0, 2)}.${plainLocal.slice(2)}@example.com`, `${local}@example.com`]) {
      const res = await server.call('userSignup', { body: newPlayer({ email, referralCode: gmailReferrer.user.referralCode }) });
      expect(res.status, email).toBe(200);
    }
    expect((await server.call('userSignup', { body: newPlayer({ email: `${local}+solo@gmail.com` }) })).status).toBe(200);
    expect(await status(gmailReferrer)).toMatchObject({ referredCount: 2, pendingCount: 2, qualifiedCount: 0 });
    expect(await status(plainReferrer)).toMatchObject({ referredCount: 0, pendingCount: 0, qualifiedCount: 0 });
  });

  it('never counts a self-referral already recorded', async () => {
    const local = unique('carla');
    const referrer = await registeredPlayer(server, { email: `${local}@gmail.com` });
    const self = await registeredPlayer(server, { email: `${local}.alt@example.com`, referralCode: referrer.user.referralCode });
    await deposit(self, '0.01');
    expect(await status(referrer)).toMatchObject({ referredCount: 1, qualifiedCount: 1 });
    // The same mailbox written with dots, as an account made before the sign-up check existed.
    await server.db.query('UPDATE users SET email = $2 WHERE id = $1', [self.user.id, `${local.slice(0, 3)}.${local.slice(3)}+old@gmail.com`]);
    expect(await status(referrer)).toMatchObject({ referredCount: 0, pendingCount: 0, qualifiedCount: 0, claimableCount: 0 });
    expect(code(await claim(referrer))).toEqual([422, 'INVALID_BONUS']);
  });
});

describe('qualified friends', () => {
  it('counts a friend once the email is verified and a deposit of at least the minimum is credited', async () => {
    const referrer = await registeredPlayer(server);
    const referralCode = referrer.user.referralCode as string;
    expect(await status(referrer)).toEqual({
      referralCode,
      requirement: 'verifiedEmailAndDeposit',
      referredCount: 0,
      pendingCount: 0,
      qualifiedCount: 0,
      paidCount: 0,
      claimableCount: 0,
    });

    // Three sign-ups, none verified: three pending, nothing to claim.
    const unverified = [];
    for (let i = 0; i < 3; i += 1) unverified.push(await unverifiedFriend(referralCode));
    expect(await status(referrer)).toMatchObject({ referredCount: 3, pendingCount: 3, qualifiedCount: 0, claimableCount: 0 });
    expect(code(await claim(referrer))).toEqual([422, 'INVALID_BONUS']);

    // Verified without a deposit: still pending.
    const verify = await server.call('userVerifyEmail', { query: { token: tokenFrom(await latestLink(server, unverified[0]!.email)) } });
    expect(verify.status).toBe(200);
    const friend = await registeredPlayer(server, { referralCode });
    expect(await status(referrer)).toMatchObject({ referredCount: 4, pendingCount: 4, qualifiedCount: 0, claimableCount: 0 });

    // A deposit under the minimum is never credited, and one still waiting for confirmations is not yet.
    const minimum = await minimumDeposit();
    await deposit(friend, '0.00001');
    await deposit(friend, '0.5', 0);
    expect(await status(referrer)).toMatchObject({ pendingCount: 4, qualifiedCount: 0, claimableCount: 0 });
    expect(code(await claim(referrer))).toEqual([422, 'INVALID_BONUS']);
    expect(await walletOf(server, referrer)).toMatchObject({ available: '0' });

    // A credited deposit of exactly the minimum qualifies the friend.
    await deposit(friend, minimum);
    expect(await status(referrer)).toMatchObject({ referredCount: 4, pendingCount: 3, qualifiedCount: 1, paidCount: 0, claimableCount: 1 });

    // The claim pays for the qualified friend only.
    const paid = await claim(referrer);
    expect(paid.body.data.userBonusWallet).toEqual({ currencyId: LTC, currencyCode: 'LTC', amount: REWARD, referredCount: 1 });
    expect(await walletOf(server, referrer)).toMatchObject({ available: REWARD, bonus: '0' });
    expect(await status(referrer)).toMatchObject({ referredCount: 4, pendingCount: 3, qualifiedCount: 1, paidCount: 1, claimableCount: 0 });
    expect(code(await claim(referrer))).toEqual([422, 'INVALID_BONUS']);
  });

  it('with REFERRAL_REQUIRES_DEPOSIT off, counts a friend once the email is verified', async () => {
    const referrer = await registeredPlayer(server);
    const referralCode = referrer.user.referralCode as string;
    await unverifiedFriend(referralCode);
    await registeredPlayer(server, { referralCode });
    server.ctx.config.referralRequiresDeposit = false;
    try {
      expect(await status(referrer)).toMatchObject({ requirement: 'verifiedEmail', referredCount: 2, pendingCount: 1, qualifiedCount: 1, claimableCount: 1 });
      expect((await claim(referrer)).body.data.userBonusWallet).toMatchObject({ amount: REWARD, referredCount: 1 });
    } finally {
      server.ctx.config.referralRequiresDeposit = true;
    }
    expect(await status(referrer)).toMatchObject({ requirement: 'verifiedEmailAndDeposit', pendingCount: 2, qualifiedCount: 0, paidCount: 1, claimableCount: 0 });
  });
});

describe('claims at the same time', () => {
  it('pay the qualified friends once', async () => {
    const referrer = await registeredPlayer(server);
    const referralCode = referrer.user.referralCode as string;
    for (let i = 0; i < 2; i += 1) {
      const friend = await registeredPlayer(server, { referralCode });
      await deposit(friend, '0.01');
    }
    await unverifiedFriend(referralCode);
    expect(await status(referrer)).toMatchObject({ qualifiedCount: 2, pendingCount: 1, claimableCount: 2 });

    // Without a key and with keys of their own: nothing but the wallets' lock keeps them apart.
    const results = await Promise.all([claim(referrer), claim(referrer), claim(referrer, { 'Idempotency-Key': 'a' }), claim(referrer, { 'Idempotency-Key': 'b' })]);
    const paid = results.filter((res) => res.status === 200);
    expect(paid).toHaveLength(1);
    expect(paid[0]!.body.data.userBonusWallet).toMatchObject({ amount: '0.002', referredCount: 2 });
    for (const res of results.filter((r) => r.status !== 200)) expect(code(res)).toEqual([422, 'INVALID_BONUS']);
    expect(await walletOf(server, referrer)).toMatchObject({ available: '0.002' });
    const claims = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM referral_claims WHERE user_id = $1', [referrer.user.id]);
    expect(claims[0]!.n).toBe(1);
    expect(await status(referrer)).toMatchObject({ qualifiedCount: 2, paidCount: 2, claimableCount: 0 });
  });
});
