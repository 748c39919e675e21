import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';

/**
 * Responsible gambling through HTTP: deposit, bet and loss limits with their 24-hour cooling-off,
 * the session limit, and self-exclusion (temporary and permanent) with what it does to sessions and
 * login. The server's clock only moves when a test moves it.
 */

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

type Player = Awaited<ReturnType<typeof registeredPlayer>>;

const EMPTY = { current: null, pending: null };
const EMPTY_KIND = { daily: EMPTY, weekly: EMPTY, monthly: EMPTY };
const NOTHING_USED = { daily: '0', weekly: '0', monthly: '0' };

async function login(player: Player) {
  return server.call('userLogin', { body: { email: player.payload.email, password: player.payload.password } });
}

async function freshToken(player: Player): Promise<string> {
  const res = await login(player);
  expect(res.status).toBe(200);
  return res.body.data.accessToken as string;
}

/** A self-excluded player's call refused as such. */
function refusedExcluded(res: { status: number; body: { errors: { description: string }[] } }): boolean {
  return res.status === 403 && res.body.errors[0]?.description === 'SELF_EXCLUDED';
}

async function getLimits(token: string) {
  const res = await server.call('rgGetLimits', { token });
  expect(res.status).toBe(200);
  return res.body.data.limits;
}

async function updateLimit(token: string, body: Record<string, unknown>) {
  return server.call('rgUpdateLimit', { token, body });
}

async function setLimit(token: string, body: Record<string, unknown>) {
  const res = await updateLimit(token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.success).toBe(true);
  return res.body.data.limits;
}

function fieldsOf(res: { status: number; body: any }) {
  expect(res.status).toBe(400);
  expect(res.body.errors[0].description).toBe('PLEASE_CHECK_REQUEST_DATA');
  return res.body.errors[0].fields as { field: string; code: string }[];
}

const inHours = (hours: number) => new Date(server.clock.now().getTime() + hours * HOUR).toISOString();

describe('limits', () => {
  let player: Player;
  let token: string;
  beforeAll(async () => {
    player = await registeredPlayer(server);
    token = player.token;
  });

  it('starts with no limits, no exclusion and no session limit', async () => {
    const limits = await getLimits(token);
    expect(limits).toEqual({
      currencyCode: 'LTC',
      deposit: EMPTY_KIND,
      bet: EMPTY_KIND,
      loss: EMPTY_KIND,
      usage: { deposit: NOTHING_USED, bet: NOTHING_USED, loss: NOTHING_USED },
      selfExclusion: { type: null, until: null },
      sessionLimitMinutes: null,
    });
  });

  it('needs a session', async () => {
    const res = await server.call('rgGetLimits');
    expect(res.status).toBe(401);
    expect(res.body.errors[0].description).toBe('ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
    const update = await updateLimit('not-a-token', { limitType: 'deposit', daily: '1' });
    expect(update.status).toBe(401);
  });

  it('applies a first limit at once, in canonical form', async () => {
    const limits = await setLimit(token, { limitType: 'deposit', daily: '1.50', weekly: '5', monthly: '15.00000000' });
    expect(limits.deposit).toEqual({
      daily: { current: '1.5', pending: null },
      weekly: { current: '5', pending: null },
      monthly: { current: '15', pending: null },
    });
    expect((await getLimits(token)).deposit).toEqual(limits.deposit);
  });

  it('applies a decrease at once', async () => {
    const limits = await setLimit(token, { limitType: 'deposit', daily: '0.5', weekly: '5', monthly: '15' });
    expect(limits.deposit.daily).toEqual({ current: '0.5', pending: null });
    expect(limits.deposit.weekly).toEqual({ current: '5', pending: null });
  });

  it('holds an increase and a removal for 24 hours, then applies them', async () => {
    const effectiveAt = inHours(24);
    const limits = await setLimit(token, { limitType: 'deposit', daily: '2', weekly: '5', monthly: null });
    expect(limits.deposit).toEqual({
      daily: { current: '0.5', pending: { value: '2', effectiveAt } },
      weekly: { current: '5', pending: null },
      monthly: { current: '15', pending: { value: null, effectiveAt } },
    });
    expect((await getLimits(token)).deposit).toEqual(limits.deposit);

    server.clock.advance(DAY - 1000);
    token = await freshToken(player);
    expect((await getLimits(token)).deposit.daily).toEqual({ current: '0.5', pending: { value: '2', effectiveAt } });

    server.clock.advance(1000);
    expect((await getLimits(token)).deposit).toEqual({
      daily: { current: '2', pending: null },
      weekly: { current: '5', pending: null },
      monthly: { current: null, pending: null },
    });
  });

  it('treats an absent period as "no limit" (a removal, so pending)', async () => {
    const limits = await setLimit(token, { limitType: 'deposit', daily: '2' });
    expect(limits.deposit.daily).toEqual({ current: '2', pending: null });
    expect(limits.deposit.weekly).toEqual({ current: '5', pending: { value: null, effectiveAt: inHours(24) } });
    expect(limits.deposit.monthly).toEqual(EMPTY);
  });

  it('cancels a pending change when the current value is sent again', async () => {
    const pending = await setLimit(token, { limitType: 'deposit', daily: '2', weekly: '8' });
    expect(pending.deposit.weekly).toEqual({ current: '5', pending: { value: '8', effectiveAt: inHours(24) } });

    const cancelled = await setLimit(token, { limitType: 'deposit', daily: '2', weekly: '5' });
    expect(cancelled.deposit.weekly).toEqual({ current: '5', pending: null });

    server.clock.advance(DAY + 1000);
    token = await freshToken(player);
    expect((await getLimits(token)).deposit.weekly).toEqual({ current: '5', pending: null });
  });

  it('does not restart the cooling-off when the same pending value is sent again', async () => {
    const effectiveAt = inHours(24);
    await setLimit(token, { limitType: 'deposit', daily: '3', weekly: '5' });
    server.clock.advance(12 * HOUR);
    // The SPA sends every period of the form: re-saving it must not postpone the change.
    const again = await setLimit(token, { limitType: 'deposit', daily: '3', weekly: '5' });
    expect(again.deposit.daily).toEqual({ current: '2', pending: { value: '3', effectiveAt } });

    // A different increase is a new request: its cooling-off starts now.
    const other = await setLimit(token, { limitType: 'deposit', daily: '4', weekly: '5' });
    expect(other.deposit.daily).toEqual({ current: '2', pending: { value: '4', effectiveAt: inHours(24) } });
    const back = await setLimit(token, { limitType: 'deposit', daily: '3', weekly: '5' });
    expect(back.deposit.daily.pending.effectiveAt).toBe(inHours(24));

    // A decrease while an increase is pending applies at once and drops the pending change.
    const lower = await setLimit(token, { limitType: 'deposit', daily: '1', weekly: '5' });
    expect(lower.deposit.daily).toEqual({ current: '1', pending: null });
  });

  it('enforces daily < weekly < monthly, reported on the later field', async () => {
    const before = (await getLimits(token)).deposit;
    expect(fieldsOf(await updateLimit(token, { limitType: 'deposit', daily: '5', weekly: '5' }))).toEqual([
      { field: 'weekly', code: 'limits.order' },
    ]);
    expect(fieldsOf(await updateLimit(token, { limitType: 'deposit', daily: '1', weekly: '10', monthly: '9.99999999' }))).toEqual([
      { field: 'monthly', code: 'limits.order' },
    ]);
    // Among the periods set: daily against monthly when weekly is not set.
    expect(fieldsOf(await updateLimit(token, { limitType: 'loss', daily: '10', weekly: null, monthly: '2' }))).toEqual([
      { field: 'monthly', code: 'limits.order' },
    ]);
    // Out of order with both earlier ones: one issue per field.
    expect(fieldsOf(await updateLimit(token, { limitType: 'bet', daily: '3', weekly: '2', monthly: '1' }))).toEqual([
      { field: 'weekly', code: 'limits.order' },
      { field: 'monthly', code: 'limits.order' },
    ]);
    // Nothing changed.
    const after = await getLimits(token);
    expect(after.deposit).toEqual(before);
    expect(after.bet).toEqual(EMPTY_KIND);
    expect(after.loss).toEqual(EMPTY_KIND);
  });

  it('refuses zero, negative, over-precise and non-numeric amounts with rule codes', async () => {
    const cases: [unknown, string][] = [
      ['0', 'limits.positive'],
      ['0.00000000', 'limits.positive'],
      ['-1', 'limits.positive'],
      ['0.123456789', 'amount.decimals'],
      ['1.000000001', 'amount.decimals'],
      ['abc', 'amount.format'],
      ['1e3', 'amount.format'],
      ['01', 'amount.format'],
      [' 1', 'amount.format'],
      ['', 'amount.format'],
      [1, 'type'],
    ];
    for (const [value, code] of cases) {
      const fields = fieldsOf(await updateLimit(token, { limitType: 'bet', daily: value }));
      expect(fields, `daily ${JSON.stringify(value)}`).toEqual([{ field: 'daily', code }]);
    }
    // Every refused period is named at once.
    const many = fieldsOf(await updateLimit(token, { limitType: 'bet', daily: '-1', weekly: 'x', monthly: '1.123456789' }));
    expect(many).toEqual([
      { field: 'daily', code: 'limits.positive' },
      { field: 'weekly', code: 'amount.format' },
      { field: 'monthly', code: 'amount.decimals' },
    ]);
    expect(fieldsOf(await updateLimit(token, { limitType: 'wager', daily: '1' }))).toEqual([{ field: 'limitType', code: 'enum' }]);
    expect(fieldsOf(await updateLimit(token, { daily: '1' }))).toEqual([{ field: 'limitType', code: 'required' }]);
    expect((await getLimits(token)).bet).toEqual(EMPTY_KIND);
  });

  it('keeps each kind separate', async () => {
    const deposit = (await getLimits(token)).deposit;
    const bet = await setLimit(token, { limitType: 'bet', daily: '0.1', weekly: '0.5', monthly: '1' });
    expect(bet.bet).toEqual({
      daily: { current: '0.1', pending: null },
      weekly: { current: '0.5', pending: null },
      monthly: { current: '1', pending: null },
    });
    expect(bet.deposit).toEqual(deposit);
    expect(bet.loss).toEqual(EMPTY_KIND);

    const loss = await setLimit(token, { limitType: 'loss', monthly: '3' });
    expect(loss.loss).toEqual({ daily: EMPTY, weekly: EMPTY, monthly: { current: '3', pending: null } });
    expect(loss.bet).toEqual(bet.bet);
    expect(loss.deposit).toEqual(deposit);

    // Raising the bet limits does not touch the loss limit that was just set.
    const raised = await setLimit(token, { limitType: 'bet', daily: '0.2', weekly: '0.5', monthly: '1' });
    expect(raised.bet.daily.pending).toEqual({ value: '0.2', effectiveAt: inHours(24) });
    expect(raised.loss).toEqual(loss.loss);
  });

  it('shows the session limit set through the profile', async () => {
    const set = await server.call('userUpdateSessionLimit', { token, body: { sessionLimitMinutes: 120 } });
    expect(set.status).toBe(200);
    expect((await getLimits(token)).sessionLimitMinutes).toBe(120);
    const removed = await server.call('userUpdateSessionLimit', { token, body: { sessionLimitMinutes: null } });
    expect(removed.status).toBe(200);
    expect((await getLimits(token)).sessionLimitMinutes).toBeNull();
  });

  it('keeps limits per player', async () => {
    const other = await registeredPlayer(server);
    const limits = await getLimits(other.token);
    expect(limits.deposit).toEqual(EMPTY_KIND);
    expect(limits.bet).toEqual(EMPTY_KIND);
    expect(limits.loss).toEqual(EMPTY_KIND);
  });
});

describe('self-exclusion', () => {
  it('refuses a temporary exclusion shorter than 24 hours or longer than 5 years', async () => {
    const player = await registeredPlayer(server);
    const exclude = (body: Record<string, unknown>) => server.call('rgUpdateSelfExclusion', { token: player.token, body });
    const now = server.clock.now();
    const yearsAhead = (years: number, extraMs = 0) => {
      const date = new Date(now);
      date.setUTCFullYear(date.getUTCFullYear() + years);
      return new Date(date.getTime() + extraMs).toISOString();
    };
    const range = [{ field: 'until', code: 'selfExclusion.range' }];
    expect(fieldsOf(await exclude({ type: 'temporary', until: inHours(23) }))).toEqual(range);
    expect(fieldsOf(await exclude({ type: 'temporary', until: new Date(now.getTime() + DAY - 1000).toISOString() }))).toEqual(range);
    expect(fieldsOf(await exclude({ type: 'temporary', until: inHours(-48) }))).toEqual(range);
    expect(fieldsOf(await exclude({ type: 'temporary', until: yearsAhead(5, DAY) }))).toEqual(range);
    expect(fieldsOf(await exclude({ type: 'temporary', until: yearsAhead(5, 1000) }))).toEqual(range);
    expect(fieldsOf(await exclude({ type: 'temporary', until: yearsAhead(6) }))).toEqual(range);
    // The schema: until is required for a temporary exclusion, and must be a date-time.
    expect((await exclude({ type: 'temporary' })).status).toBe(400);
    expect((await exclude({ type: 'temporary', until: 'tomorrow' })).status).toBe(400);
    expect((await exclude({ type: 'forever' })).status).toBe(400);

    // None of these excluded the player: the session still works.
    expect((await getLimits(player.token)).selfExclusion).toEqual({ type: null, until: null });
  });

  it('accepts exactly 5 years ahead', async () => {
    const player = await registeredPlayer(server);
    const until = new Date(server.clock.now());
    until.setUTCFullYear(until.getUTCFullYear() + 5);
    const res = await server.call('rgUpdateSelfExclusion', { token: player.token, body: { type: 'temporary', until: until.toISOString() } });
    expect(res.status).toBe(200);
    expect(res.body.data.selfExclusion).toEqual({ type: 'temporary', until: until.toISOString() });
    const token = await freshToken(player);
    expect(refusedExcluded(await server.call('casinoInitGame', { token, body: { gameId: 1 } }))).toBe(true);
  });

  it('a temporary exclusion ends every session and refuses play until it ends; the player may still sign in to their money', async () => {
    const player = await registeredPlayer(server);
    const other = await registeredPlayer(server);
    const second = await freshToken(player);
    const until = new Date(server.clock.now().getTime() + 3 * DAY);

    const res = await server.call('rgUpdateSelfExclusion', {
      token: player.token,
      body: { type: 'temporary', until: until.toISOString() },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ success: true, selfExclusion: { type: 'temporary', until: until.toISOString() } });

    // The token used and every other session of the player are revoked.
    for (const token of [player.token, second]) {
      const after = await server.call('rgGetLimits', { token });
      expect(after.status).toBe(401);
      expect(after.body.errors[0].description).toBe('ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
      const play = await server.call('casinoInitGame', { token, body: { gameId: 1 } });
      expect(play.status).toBe(401);
    }
    // It cannot be lifted by the player: a new session serves only their money until it ends.
    const excluded = await freshToken(player);
    expect(refusedExcluded(await server.call('casinoInitGame', { token: excluded, body: { gameId: 1 } }))).toBe(true);
    expect(refusedExcluded(await server.call('rgUpdateSelfExclusion', { token: excluded, body: { type: 'permanent' } }))).toBe(true);
    expect((await getLimits(excluded)).selfExclusion).toEqual({ type: 'temporary', until: until.toISOString() });

    // Another player is not affected.
    expect((await getLimits(other.token)).selfExclusion).toEqual({ type: null, until: null });
    const play = await server.call('casinoInitGame', { token: other.token, body: { gameId: 1 } });
    expect(play.status).toBe(200);

    server.clock.advance(3 * DAY - 1000);
    expect(refusedExcluded(await server.call('casinoInitGame', { token: await freshToken(player), body: { gameId: 1 } }))).toBe(true);

    server.clock.advance(1000);
    const token = await freshToken(player);
    expect((await getLimits(token)).selfExclusion).toEqual({ type: null, until: null });
    const again = await server.call('casinoInitGame', { token, body: { gameId: 1 } });
    expect(again.status).toBe(200);
    expect(again.body.data.gameSession.demo).toBe(false);
  });

  it('a permanent exclusion refuses play for good', async () => {
    const player = await registeredPlayer(server);
    const other = await registeredPlayer(server);
    const res = await server.call('rgUpdateSelfExclusion', { token: player.token, body: { type: 'permanent' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ success: true, selfExclusion: { type: 'permanent', until: null } });
    expect((await server.call('rgGetLimits', { token: player.token })).status).toBe(401);

    for (const years of [0, 1, 10]) {
      if (years > 0) server.clock.advance(years * 365 * DAY);
      const token = await freshToken(player);
      expect(refusedExcluded(await server.call('casinoInitGame', { token, body: { gameId: 1 } }))).toBe(true);
      expect((await getLimits(token)).selfExclusion).toEqual({ type: 'permanent', until: null });
    }
    // A temporary exclusion cannot replace it: the excluded session may not change it.
    const excluded = await freshToken(player);
    expect(refusedExcluded(await server.call('rgUpdateSelfExclusion', { token: excluded, body: { type: 'temporary', until: new Date(server.clock.now().getTime() + 2 * DAY).toISOString() } }))).toBe(true);
    const token = await freshToken(other);
    expect((await getLimits(token)).selfExclusion).toEqual({ type: null, until: null });
  });
});
