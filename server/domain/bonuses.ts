import type { components } from '../../src/api/schema.d.ts';
import { formatAmount, formatFixed, parseAmount, parseSignedAmount } from '../../src/money.ts';
import type { AppContext } from '../context.ts';
import { maybeOne, one, type Queryable } from '../db/db.ts';
import { DomainError } from './errors.ts';
import { getSettings, normalisePaging, type PageRequest } from './common.ts';
import { oncePerKey, playerRequest } from './player-requests.ts';
import {
  postTransaction,
  roundToCurrency,
  systemAccount,
  transfer,
  walletAccount,
  type IdempotencyKey,
} from './ledger.ts';

/**
 * Bonuses and referral rewards (migration 0009_bonuses.sql). The life cycle (one active bonus a player, later
 * claims queued; credit, wagering, conversion, forfeit, lazy expiry) is written once, as the database
 * functions server/db/schema/1_function_bonus_*.sql, which this module calls and the money operations written
 * in SQL call alike. Claims and forfeits sent with an Idempotency-Key header run once per key
 * (player-requests.ts). Locks: a bonus row changes only while its wallet row is locked; a player request
 * locks all the player's wallets in id order first (bonus_settle does, given no wallet).
 */

export type BonusDto = components['schemas']['Bonus'];
export type UserBonusDto = components['schemas']['UserBonus'];
export type UserBonusStatus = components['schemas']['UserBonusStatus'];
export type BonusType = components['schemas']['BonusType'];
export type UserBonusWalletDto = components['schemas']['UserBonusWallet'];
export type ReferralStatusDto = components['schemas']['ReferralStatus'];

const DAY_MS = 24 * 60 * 60_000;

/**
 * Idempotency key of a referral claim's posting, one per running total paid for. (A bonus's credit and its
 * ending are posted by bonus_fund and bonus_end under ('bonus:credit' | 'bonus:end', the user_bonus id).)
 */
const referralKey = (userId: number, referredCount: number): IdempotencyKey => ({ scope: 'referral', key: `${userId}:${referredCount}` });

// ---------------------------------------------------------------------------------------------------
// Rows

interface BonusRow {
  id: number;
  type: BonusType;
  name: string;
  description: string;
  amount: string | null;
  percentage: string | null;
  min_deposit: string | null;
  currency_id: number;
  currency_code: string;
  decimals: number;
  currency_enabled: boolean;
  wagering_multiplier: number;
  valid_days: number;
  valid_till: Date | null;
  active: boolean;
}

const BONUS_COLUMNS = `b.id, b.type, b.name, b.description, b.amount, b.percentage, b.min_deposit, b.currency_id,
  c.code AS currency_code, c.decimals, c.enabled AS currency_enabled, b.wagering_multiplier, b.valid_days, b.valid_till, b.active`;

interface UserBonusRow {
  id: number;
  user_id: number;
  bonus_id: number;
  wallet_id: number;
  currency_id: number;
  status: UserBonusStatus;
  amount: string;
  wagered_amount: string;
  amount_to_wager: string;
  claimed_at: Date;
  activated_at: Date | null;
  expire_at: Date | null;
  deposit_id: number | null;
}

const USER_BONUS_COLUMNS = `ub.id, ub.user_id, ub.bonus_id, ub.wallet_id, ub.currency_id, ub.status, ub.amount, ub.wagered_amount,
  ub.amount_to_wager, ub.claimed_at, ub.activated_at, ub.expire_at, ub.deposit_id`;

async function loadBonus(db: Queryable, bonusId: number): Promise<BonusRow | undefined> {
  return maybeOne<BonusRow>(db, `SELECT ${BONUS_COLUMNS} FROM bonuses b JOIN currencies c ON c.id = b.currency_id WHERE b.id = $1`, [bonusId]);
}

async function requireBonus(db: Queryable, bonusId: number): Promise<BonusRow> {
  const bonus = await loadBonus(db, bonusId);
  if (!bonus) throw new Error(`bonus ${bonusId} vanished`);
  return bonus;
}

/** Locks every wallet of the player, in id order (the order every player request takes them in). */
async function lockWallets(tx: Queryable, userId: number): Promise<void> {
  await tx.query('SELECT id FROM wallets WHERE user_id = $1 ORDER BY id FOR UPDATE', [userId]);
}

/**
 * The lazy rules (bonus_settle): expires the active bonus when its time is up, then activates queued
 * bonuses while none is active, every wallet of the player locked first. Returns the active bonus's id.
 */
async function settle(tx: Queryable, userId: number, at: Date): Promise<number | null> {
  return (await one<{ id: number | null }>(tx, 'SELECT bonus_settle($1, $2, NULL) AS id', [userId, at])).id;
}

// ---------------------------------------------------------------------------------------------------
// Hooks for the other money features

/** Refuses a cashout from `walletId` while a bonus's wagering blocks it (bonus_cashout_blocked). */
export async function assertCashoutAllowed(db: Queryable, walletId: number, now: Date): Promise<void> {
  const row = await one<{ blocked: boolean }>(db, 'SELECT bonus_cashout_blocked($1, $2) AS blocked', [walletId, now]);
  if (row.blocked) throw new DomainError('CASHOUT_NOT_ALLOWED');
}

// ---------------------------------------------------------------------------------------------------
// The catalogue

function amountOrNull(value: string | null): string | null {
  return value === null ? null : formatAmount(parseAmount(value));
}

function toBonusDto(row: BonusRow, referralReward: string): BonusDto {
  const amount = row.type === 'referral' ? referralReward : amountOrNull(row.amount);
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    description: row.description,
    amount,
    percentage: amountOrNull(row.percentage),
    minDeposit: amountOrNull(row.min_deposit),
    currencyCode: row.currency_code,
    wageringMultiplier: row.wagering_multiplier,
    validDays: row.valid_days,
    validTill: row.valid_till ? row.valid_till.toISOString() : null,
    joiningAmount: row.type === 'joining' ? amount : null,
    referralBonusAmount: row.type === 'referral' ? referralReward : null,
    active: row.active,
  };
}

/** bonusList: the active offers, newest first. */
export async function listBonuses(db: Queryable, filter: PageRequest & { type?: BonusType }): Promise<{ rows: BonusDto[]; count: number }> {
  const { limit, offset } = normalisePaging(filter);
  const settings = await getSettings(db);
  const type = filter.type ?? null;
  const rows = await db.query<BonusRow>(
    `SELECT ${BONUS_COLUMNS} FROM bonuses b JOIN currencies c ON c.id = b.currency_id
     WHERE b.active AND ($1::text IS NULL OR b.type = $1) ORDER BY b.id DESC LIMIT $2 OFFSET $3`,
    [type, limit, offset],
  );
  const total = await one<{ count: number }>(db, 'SELECT count(*) AS count FROM bonuses b WHERE b.active AND ($1::text IS NULL OR b.type = $1)', [type]);
  return { rows: rows.map((row) => toBonusDto(row, settings.referralReward)), count: total.count };
}

/** bonusDetail: one offer, active or not. */
export async function getBonus(db: Queryable, bonusId: number): Promise<BonusDto> {
  const row = await loadBonus(db, bonusId);
  if (!row) throw new DomainError('INVALID_BONUS_ID');
  const settings = await getSettings(db);
  return toBonusDto(row, settings.referralReward);
}

// ---------------------------------------------------------------------------------------------------
// The player's bonuses

async function toUserBonusDtos(db: Queryable, rows: readonly (UserBonusRow & { currency_code: string })[]): Promise<UserBonusDto[]> {
  const settings = await getSettings(db);
  const offers = new Map<number, BonusDto>();
  const result: UserBonusDto[] = [];
  for (const row of rows) {
    let offer = offers.get(row.bonus_id);
    if (!offer) {
      offer = toBonusDto(await requireBonus(db, row.bonus_id), settings.referralReward);
      offers.set(row.bonus_id, offer);
    }
    result.push({
      id: row.id,
      bonusId: row.bonus_id,
      bonus: offer,
      status: row.status,
      amount: formatAmount(parseSignedAmount(row.amount)),
      wageredAmount: formatAmount(parseSignedAmount(row.wagered_amount)),
      amountToWager: formatAmount(parseSignedAmount(row.amount_to_wager)),
      currencyId: row.currency_id,
      currencyCode: row.currency_code,
      claimedAt: row.claimed_at.toISOString(),
      expireAt: row.expire_at ? row.expire_at.toISOString() : null,
    });
  }
  return result;
}

async function loadUserBonus(db: Queryable, userBonusId: number): Promise<UserBonusDto> {
  const row = await one<UserBonusRow & { currency_code: string }>(
    db,
    `SELECT ${USER_BONUS_COLUMNS}, c.code AS currency_code FROM user_bonuses ub JOIN currencies c ON c.id = ub.currency_id WHERE ub.id = $1`,
    [userBonusId],
  );
  const [dto] = await toUserBonusDtos(db, [row]);
  if (!dto) throw new Error(`user bonus ${userBonusId} vanished`);
  return dto;
}

/** bonusUserList: applies the lazy expiry first, so the statuses shown are current. */
export async function listUserBonuses(
  ctx: AppContext,
  userId: number,
  filter: PageRequest & { status?: UserBonusStatus },
): Promise<{ rows: UserBonusDto[]; count: number }> {
  const { limit, offset } = normalisePaging(filter);
  const status = filter.status ?? null;
  return ctx.db.transaction(async (tx) => {
    await settle(tx, userId, ctx.now());
    const rows = await tx.query<UserBonusRow & { currency_code: string }>(
      `SELECT ${USER_BONUS_COLUMNS}, c.code AS currency_code FROM user_bonuses ub JOIN currencies c ON c.id = ub.currency_id
       WHERE ub.user_id = $1 AND ($2::text IS NULL OR ub.status = $2) ORDER BY ub.id DESC LIMIT $3 OFFSET $4`,
      [userId, status, limit, offset],
    );
    const total = await one<{ count: number }>(
      tx,
      'SELECT count(*) AS count FROM user_bonuses ub WHERE ub.user_id = $1 AND ($2::text IS NULL OR ub.status = $2)',
      [userId, status],
    );
    return { rows: await toUserBonusDtos(tx, rows), count: total.count };
  });
}

/** Days since the epoch in UTC: a daily offer can be claimed once per UTC day. */
function utcDay(at: Date): number {
  return Math.floor(at.getTime() / DAY_MS);
}

/** bonusAvail: claims an offer; it starts at once, or queues behind the active bonus. */
export async function claimBonus(
  ctx: AppContext,
  userId: number,
  input: { bonusId: number; currencyId: number },
  idempotencyKey?: string,
): Promise<UserBonusDto> {
  return oncePerKey(ctx, playerRequest(userId, 'bonusAvail', idempotencyKey, [input.bonusId, input.currencyId]), async (tx) => {
    const now = ctx.now();
    const bonus = await loadBonus(tx, input.bonusId);
    if (!bonus) throw new DomainError('INVALID_BONUS_ID');
    // Referral rewards are claimed with bonusAvailReferral; an offer past its end cannot be claimed.
    if (!bonus.active || bonus.type === 'referral' || (bonus.valid_till !== null && bonus.valid_till.getTime() <= now.getTime())) {
      throw new DomainError('INVALID_BONUS');
    }
    const wallet = await maybeOne<{ id: number }>(tx, 'SELECT id FROM wallets WHERE user_id = $1 AND currency_id = $2', [userId, input.currencyId]);
    if (input.currencyId !== bonus.currency_id || !bonus.currency_enabled || !wallet) throw new DomainError('CURRENCY_NOT_AVAILABLE');

    const active = await settle(tx, userId, now);
    const earlier = await tx.query<{ status: UserBonusStatus; claimed_at: Date }>(
      'SELECT status, claimed_at FROM user_bonuses WHERE user_id = $1 AND bonus_id = $2',
      [userId, bonus.id],
    );
    if (earlier.some((row) => row.status === 'active' || row.status === 'queued')) throw new DomainError('BONUS_ALREADY_ACTIVE');
    const availed = bonus.type === 'daily' ? earlier.some((row) => utcDay(row.claimed_at) === utcDay(now)) : earlier.length > 0;
    if (availed) throw new DomainError('BONUS_ALREADY_AVAILED');

    const inserted = await one<UserBonusRow>(
      tx,
      `INSERT INTO user_bonuses (user_id, bonus_id, wallet_id, currency_id, status, claimed_at) VALUES ($1, $2, $3, $4, 'queued', $5)
       RETURNING id, user_id, bonus_id, wallet_id, currency_id, status, amount, wagered_amount, amount_to_wager, claimed_at,
         activated_at, expire_at, deposit_id`,
      [userId, bonus.id, wallet.id, bonus.currency_id, now],
    );
    if (active === null) await settle(tx, userId, now);
    return loadUserBonus(tx, inserted.id);
  });
}

/** bonusCancel: forfeits an active or queued bonus; the next queued one activates. */
export async function forfeitBonus(ctx: AppContext, userId: number, userBonusId: number, idempotencyKey?: string): Promise<{ success: true }> {
  return oncePerKey(ctx, playerRequest(userId, 'bonusCancel', idempotencyKey, [userBonusId]), async (tx) => {
    const now = ctx.now();
    await settle(tx, userId, now);
    const row = await maybeOne<{ status: UserBonusStatus }>(tx, 'SELECT status FROM user_bonuses WHERE id = $1 AND user_id = $2 FOR UPDATE', [
      userBonusId,
      userId,
    ]);
    if (!row) throw new DomainError('NOT_FOUND');
    if (row.status !== 'active' && row.status !== 'queued') throw new DomainError('INVALID_BONUS');
    await tx.query("SELECT bonus_end($1, 'forfeited', $2)", [userBonusId, now]);
    await settle(tx, userId, now);
    return { success: true as const };
  });
}

/**
 * The player's referral counts, as {@link claimReferralReward} reckons them, in this one statement:
 * `referred` friends signed up with the player's code, `qualified` those who count for the reward (a
 * verified email and, when `requiresDeposit`, a credited deposit of at least its currency's minimum), `paid`
 * the running total the claims so far paid for. A sign-up with the player's own mailbox (email_mailbox,
 * server/db/schema/1_function_email_mailbox.sql) is no friend and counts nowhere.
 */
async function referralCounts(
  db: Queryable,
  userId: number,
  requiresDeposit: boolean,
): Promise<{ referred: number; qualified: number; paid: number }> {
  return one<{ referred: number; qualified: number; paid: number }>(
    db,
    `SELECT count(f.id)::int AS referred,
       count(f.id) FILTER (
         WHERE f.email_verified_at IS NOT NULL
           AND (NOT $2::boolean OR EXISTS (
             SELECT 1 FROM deposits d JOIN currencies c ON c.id = d.currency_id
             WHERE d.user_id = f.id AND d.status = 'credited' AND d.amount >= c.min_deposit))
       )::int AS qualified,
       (SELECT coalesce(max(rc.referred_count), 0) FROM referral_claims rc WHERE rc.user_id = $1)::int AS paid
     FROM users r
     LEFT JOIN users f ON f.referred_by_user_id = r.id AND email_mailbox(f.email) IS DISTINCT FROM email_mailbox(r.email)
     WHERE r.id = $1`,
    [userId, requiresDeposit],
  );
}

/**
 * bonusReferral: the player's code; the friends referred, pending and qualified; how many were paid for
 * and how many a claim would pay for now.
 */
export async function referralStatus(ctx: AppContext, userId: number): Promise<ReferralStatusDto> {
  const user = await one<{ referral_code: string }>(ctx.db, 'SELECT referral_code FROM users WHERE id = $1', [userId]);
  const settings = await getSettings(ctx.db);
  const requiresDeposit = ctx.config.referralRequiresDeposit;
  const counts = await referralCounts(ctx.db, userId, requiresDeposit);
  return {
    referralCode: user.referral_code,
    requirement: requiresDeposit ? 'verifiedEmailAndDeposit' : 'verifiedEmail',
    referredCount: counts.referred,
    pendingCount: counts.referred - counts.qualified,
    qualifiedCount: counts.qualified,
    paidCount: counts.paid,
    claimableCount: Math.max(0, Math.min(counts.qualified, settings.referralLimit) - counts.paid),
  };
}

/**
 * bonusAvailReferral: pays settings.referralReward for each qualified friend ({@link referralCounts}), up
 * to settings.referralLimit friends over all claims, into the wallet of `currencyId` (available money:
 * visible type referral). Each claim pays for the qualified friends not paid for yet. The player's wallets
 * are locked before the counts are read, so a second claim at the same time waits, then finds them paid.
 */
export async function claimReferralReward(
  ctx: AppContext,
  userId: number,
  input: { currencyId: number },
  idempotencyKey?: string,
): Promise<UserBonusWalletDto> {
  return oncePerKey(ctx, playerRequest(userId, 'bonusAvailReferral', idempotencyKey, [input.currencyId]), async (tx) => {
    const now = ctx.now();
    const wallet = await maybeOne<{ id: number; code: string; decimals: number }>(
      tx,
      `SELECT w.id, c.code, c.decimals FROM wallets w JOIN currencies c ON c.id = w.currency_id
       WHERE w.user_id = $1 AND w.currency_id = $2 AND c.enabled`,
      [userId, input.currencyId],
    );
    if (!wallet) throw new DomainError('CURRENCY_NOT_AVAILABLE');
    await lockWallets(tx, userId);
    const settings = await getSettings(tx);
    const counts = await referralCounts(tx, userId, ctx.config.referralRequiresDeposit);
    if (counts.paid >= settings.referralLimit) throw new DomainError('REFERRAL_LIMIT_EXCEEDED');
    const upTo = Math.min(counts.qualified, settings.referralLimit);
    const paying = upTo - counts.paid;
    if (paying <= 0) throw new DomainError('INVALID_BONUS');

    const amount = roundToCurrency(parseAmount(settings.referralReward) * BigInt(paying), wallet.decimals, 'down');
    let transactionId: number | null = null;
    if (amount > 0n) {
      const posted = await postTransaction(tx, {
        kind: 'referral.reward',
        at: now,
        legs: transfer(systemAccount(input.currencyId, 'bonus_pool'), walletAccount(wallet.id, 'available'), amount),
        idempotency: referralKey(userId, upTo),
        visible: { walletId: wallet.id, type: 'referral', actionType: 'referral', status: 'completed', amount },
      });
      transactionId = posted.transaction.id;
    }
    await tx.query(
      `INSERT INTO referral_claims (user_id, wallet_id, referred_count, paid_count, amount, transaction_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [userId, wallet.id, upTo, paying, formatFixed(amount), transactionId, now],
    );
    return { currencyId: input.currencyId, currencyCode: wallet.code, amount: formatAmount(amount), referredCount: paying };
  });
}
