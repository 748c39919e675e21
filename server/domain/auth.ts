import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import { createSignupInput } from '../../src/rules/user.ts';
import { EncodedResetPasswordInput, EncodedPasswordChange } from '../../src/rules/auth.ts';
import { decodePassword } from '../../src/rules/password.ts';
import { validate } from '../../src/rules/validate.ts';
import type { PasswordHashing } from '../config.ts';
import type { AppContext } from '../context.ts';
import { DomainError, badRequest } from './errors.ts';
import { maybeOne, one, type Queryable } from '../db/db.ts';
import { LOGIN_BACKOFF, RATE_RULES, type RateRule } from './rate-limit.ts';
import { passwordResetEmail, verificationEmail, type MailMessage } from '../providers/mail.ts';
import type { SocialProfile } from '../providers/identity.ts';
import { checkRegion } from './profile.ts';
import { hashEmailToken, newEmailToken } from './tokens.ts';
import {
  findUserByEmail,
  findUserById,
  findUserByLogin,
  isPhoneTaken,
  isSelfExcluded,
  PERSONAL_COLUMNS,
  personalValues,
  type UserRow,
} from './users.ts';

// Argon2id is the library's Algorithm.Argon2id, a const enum that isolated modules cannot read.
const ARGON2ID = 2;
const VERIFY_EMAIL_TTL_MS = 48 * 60 * 60_000;
export const RESET_PASSWORD_TTL_MINUTES = 30;

/** An Argon2id hash at the configured cost; verify reads the cost back from the hash. */
export function hashPassword(plain: string, cost: PasswordHashing): Promise<string> {
  return hash(plain, { algorithm: ARGON2ID, memoryCost: cost.memoryKib, timeCost: cost.iterations, parallelism: cost.parallelism });
}

/**
 * A hash at the configured cost of a password nobody has, made once per cost: a login for an unknown
 * account, or one without a password, checks against it, so it takes as long as a wrong password does
 * and the time of the answer does not tell them apart.
 */
const dummyHashes = new Map<string, Promise<string>>();
function dummyHash(cost: PasswordHashing): Promise<string> {
  const key = `${cost.memoryKib}:${cost.iterations}:${cost.parallelism}`;
  let made = dummyHashes.get(key);
  if (!made) {
    made = hashPassword(randomBytes(18).toString('base64'), cost);
    dummyHashes.set(key, made);
  }
  return made;
}

/** Whether `password` is the one of `storedHash`; with no stored hash, the same work for a false. */
async function checkPassword(ctx: AppContext, storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash) return verify(storedHash, password);
  await verify(await dummyHash(ctx.config.passwordHashing), password);
  return false;
}

async function rateLimit(ctx: AppContext, key: string, rule: RateRule): Promise<void> {
  const retryAfter = await ctx.limiter.hit(key, rule, ctx.now());
  if (retryAfter !== null) throw new DomainError('RATE_LIMITED', undefined, retryAfter);
}

/**
 * For calls that answer the same whether or not the account exists: a per-account limit must not show
 * (a 429 would tell that the account exists), so over the limit the call quietly does nothing.
 */
async function withinQuietLimit(ctx: AppContext, key: string, rule: RateRule): Promise<boolean> {
  return (await ctx.limiter.hit(key, rule, ctx.now())) === null;
}

/** Social sign-ins share the per-client login limit (checked before the provider is asked). */
export async function limitSocialLogin(ctx: AppContext, ip: string): Promise<void> {
  await rateLimit(ctx, `login:ip:${ip}`, RATE_RULES.loginPerIp);
}

/** The availability checks of usernames and emails, per client. */
export async function limitCheckUser(ctx: AppContext, ip: string): Promise<void> {
  await rateLimit(ctx, `check-user:ip:${ip}`, RATE_RULES.checkUserPerIp);
}

/**
 * The growing delay on wrong passwords (LOGIN_BACKOFF): counts this attempt on the account and on the
 * account and address, or refuses it with 429 RATE_LIMITED and the seconds to wait, counting nothing.
 * The attempt is counted before the password is checked, so concurrent guesses cannot all pass the
 * check; a right password then takes its count back ({@link forgiveLogin}).
 */
async function startLoginAttempt(ctx: AppContext, account: string, ip: string): Promise<void> {
  const now = ctx.now();
  const pairKey = `login:fail:${account}:ip:${ip}`;
  const accountKey = `login:fail:${account}`;
  // The account's count holds back only addresses that have failed on it themselves.
  const failedHere = (await ctx.limiter.count(pairKey, now)) > 0;
  const pairWait = await ctx.limiter.attempt(pairKey, LOGIN_BACKOFF.perAccountAndIp, now);
  if (pairWait !== null) throw new DomainError('RATE_LIMITED', undefined, pairWait);
  const accountWait = await ctx.limiter.attempt(accountKey, LOGIN_BACKOFF.perAccount, now, failedHere);
  if (accountWait !== null) {
    // Not an attempt after all (its address has failed before: its own delay restarts from now).
    await ctx.limiter.forgive(pairKey);
    throw new DomainError('RATE_LIMITED', undefined, accountWait);
  }
}

/** A right password: the address's failures on the account are forgotten, and this attempt is not one. */
async function forgiveLogin(ctx: AppContext, account: string, ip: string): Promise<void> {
  await ctx.limiter.clear(`login:fail:${account}:ip:${ip}`);
  await ctx.limiter.forgive(`login:fail:${account}`);
}

/**
 * The account a login's wrong-password delays count on: the player's, or for a name no account has, the
 * name itself (lower case, as logins are compared). An unknown name is then slowed down like a known
 * account and costs the same counter queries, so neither its delays nor its time tell the two apart
 * beyond what the answer's code says.
 */
const loginAccount = (user: { id: number } | undefined, login: string) => (user ? `user:${user.id}` : `name:${login.toLowerCase()}`);

/**
 * Refuses players who may not hold a session: inactive ones. A self-excluded player may still sign in,
 * because their money stays theirs: that session serves only what {@link assertMayUse} lets through.
 */
export function assertMaySignIn(user: UserRow): void {
  if (!user.active) throw new DomainError('USER_INACTIVE');
}

/**
 * Every call of a session: an inactive account is refused; a self-excluded player reaches only the
 * operations openapi.yaml marks `x-while-self-excluded` (their profile, wallets, transactions, limits,
 * notifications, logout, and withdrawing their balance), everything else is 403 SELF_EXCLUDED.
 */
export function assertMayUse(user: UserRow, now: Date, allowedWhileSelfExcluded: boolean): void {
  assertMaySignIn(user);
  if (!allowedWhileSelfExcluded && isSelfExcluded(user, now)) throw new DomainError('SELF_EXCLUDED');
}

async function startSession(ctx: AppContext, db: Queryable, user: UserRow) {
  const now = ctx.now();
  const issued = await ctx.tokens.issue(db, user.id, now, { sessionLimitMinutes: user.session_limit_minutes });
  // A temporary self-exclusion that has ended is cleared, so the player no longer shows it (selfExcludedUntil).
  const updated = await one<UserRow>(
    db,
    `UPDATE users SET last_login_at = $2,
       self_excluded_until = CASE WHEN self_excluded_until <= $2 THEN NULL ELSE self_excluded_until END
     WHERE id = $1 RETURNING *`,
    [user.id, now],
  );
  return { accessToken: issued.accessToken, expiresAt: issued.expiresAt, user: updated };
}

export async function login(ctx: AppContext, input: { email: string; password: string }, ip: string) {
  await rateLimit(ctx, `login:ip:${ip}`, RATE_RULES.loginPerIp);
  const password = decodePassword(input.password);
  if (password === null) throw badRequest([{ field: 'password', code: 'password.encoding' }]);
  const name = input.email.trim();
  const user = await findUserByLogin(ctx.db, name);
  const account = loginAccount(user, name);
  await startLoginAttempt(ctx, account, ip);
  if (!user) {
    await checkPassword(ctx, null, password);
    throw new DomainError('USER_DOES_NOT_EXISTS');
  }
  if (!(await checkPassword(ctx, user.password_hash, password))) throw new DomainError('WRONG_PASSWORD');
  await forgiveLogin(ctx, account, ip);
  assertMaySignIn(user);
  if (!user.email_verified_at) throw new DomainError('EMAIL_NOT_VERIFIED');
  return startSession(ctx, ctx.db, user);
}

/** '$1, $2, ..., $n' */
function placeholders(count: number): string {
  return Array.from({ length: count }, (_, i) => `$${i + 1}`).join(', ');
}

function newReferralCode(): string {
  return randomBytes(6).toString('hex').toUpperCase();
}

async function createWallets(db: Queryable, userId: number): Promise<void> {
  await db.query(
    `INSERT INTO wallets (user_id, currency_id, selected)
     SELECT $1, c.id, row_number() OVER (ORDER BY c.sort_order, c.id) = 1
     FROM currencies c WHERE c.enabled
     ON CONFLICT (user_id, currency_id) DO NOTHING`,
    [userId],
  );
}

/** Makes the unused tokens of a purpose unusable (a newer link replaces them, or the password changed). */
async function retireTokens(db: Queryable, userId: number, purpose: 'verify_email' | 'reset_password', now: Date) {
  await db.query('UPDATE user_tokens SET used_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL', [
    userId,
    purpose,
    now,
  ]);
}

/**
 * Creates a verification token in the caller's transaction (older links stop working); the email goes
 * out after it commits.
 */
async function prepareVerification(ctx: AppContext, db: Queryable, user: UserRow): Promise<MailMessage> {
  await retireTokens(db, user.id, 'verify_email', ctx.now());
  const { token, hash: tokenHash } = newEmailToken();
  await db.query(
    "INSERT INTO user_tokens (user_id, purpose, token_hash, expires_at) VALUES ($1, 'verify_email', $2, $3)",
    [user.id, tokenHash, new Date(ctx.now().getTime() + VERIFY_EMAIL_TTL_MS)],
  );
  const link = `${ctx.config.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
  return verificationEmail({ to: user.email, firstName: user.first_name, link });
}

function uniqueViolation(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e.code !== '23505') return null;
  return e.constraint ?? e.message ?? '';
}

export async function signup(ctx: AppContext, body: unknown, ip: string): Promise<UserRow> {
  await rateLimit(ctx, `signup:ip:${ip}`, RATE_RULES.signupPerIp);
  // The age rule reads the server's clock, like every other rule with a date in it.
  const result = validate(createSignupInput({ passwords: 'base64', now: ctx.now }), body);
  if (!result.ok) throw badRequest(result.fields);
  const input = result.value;
  const password = decodePassword(input.password);
  if (password === null) throw badRequest([{ field: 'password', code: 'password.encoding' }]);
  await checkRegion(ctx.db, input.countryCode, input.stateCode);
  const passwordHash = await hashPassword(password, ctx.config.passwordHashing);
  try {
    const { user, message } = await ctx.db.transaction(async (tx) => {
      const taken = await maybeOne(
        tx,
        'SELECT id FROM users WHERE lower(email) = lower($1) OR lower(username) = lower($2) LIMIT 1',
        [input.email, input.username],
      );
      if (taken) throw new DomainError('USERNAME_OR_EMAIL_ALREADY_EXISTS');
      if (await isPhoneTaken(tx, input.phoneCode, input.phone)) throw new DomainError('PHONE_IS_TAKEN');
      let referrerId: number | null = null;
      if (input.referralCode) {
        // A player cannot refer themselves: the code's owner may not have the new account's mailbox
        // (email_mailbox, server/db/schema/1_function_email_mailbox.sql: case, a +tag, Gmail's dots aside).
        const referrer = await maybeOne<{ id: number; own: boolean }>(
          tx,
          'SELECT id, email_mailbox(email) = email_mailbox($2) AS own FROM users WHERE referral_code = upper($1)',
          [input.referralCode, input.email],
        );
        if (!referrer) throw new DomainError('REFERRAL_CODE_NOT_FOUND');
        if (referrer.own) throw new DomainError('SELF_REFERRAL', [{ field: 'referralCode', code: 'selfReferral' }]);
        referrerId = referrer.id;
      }
      const user = await one<UserRow>(
        tx,
        `INSERT INTO users (email, username, password_hash, ${PERSONAL_COLUMNS.join(', ')}, referral_code, referred_by_user_id)
         VALUES (${placeholders(3 + PERSONAL_COLUMNS.length + 2)}) RETURNING *`,
        [input.email.trim(), input.username, passwordHash, ...personalValues(input), newReferralCode(), referrerId],
      );
      await createWallets(tx, user.id);
      return { user, message: await prepareVerification(ctx, tx, user) };
    });
    await ctx.mail.send(message);
    return user;
  } catch (error) {
    // Two signups racing past the checks above meet the unique indexes instead.
    const constraint = uniqueViolation(error);
    if (constraint === null) throw error;
    if (constraint.includes('phone')) throw new DomainError('PHONE_IS_TAKEN');
    throw new DomainError('USERNAME_OR_EMAIL_ALREADY_EXISTS');
  }
}

export async function resendVerification(ctx: AppContext, email: string, ip: string): Promise<void> {
  await rateLimit(ctx, `forgot:ip:${ip}`, RATE_RULES.forgotPerIp);
  const user = await findUserByEmail(ctx.db, email);
  if (!user || user.email_verified_at) return;
  if (!(await withinQuietLimit(ctx, `verify:user:${user.id}`, RATE_RULES.forgotPerAccount))) return;
  const message = await ctx.db.transaction((tx) => prepareVerification(ctx, tx, user));
  await ctx.mail.send(message);
}

/** Marks a single-use token used and returns its user, or refuses with INVALID_TOKEN. */
async function consumeToken(tx: Queryable, token: string, purpose: 'verify_email' | 'reset_password', now: Date) {
  const row = await maybeOne<{ user_id: number }>(
    tx,
    `UPDATE user_tokens SET used_at = $3
     WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
     RETURNING user_id`,
    [hashEmailToken(token), purpose, now],
  );
  if (!row) throw new DomainError('INVALID_TOKEN');
  return row.user_id;
}

export async function verifyEmail(ctx: AppContext, token: string): Promise<UserRow> {
  return ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const already = await maybeOne<{ email_verified_at: Date | null }>(
      tx,
      `SELECT u.email_verified_at FROM user_tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = $1 AND t.purpose = 'verify_email'`,
      [hashEmailToken(token)],
    );
    if (already?.email_verified_at) throw new DomainError('EMAIL_ALREADY_VERIFIED');
    const userId = await consumeToken(tx, token, 'verify_email', now);
    return one<UserRow>(tx, 'UPDATE users SET email_verified_at = $2, updated_at = $2 WHERE id = $1 RETURNING *', [
      userId,
      now,
    ]);
  });
}

export async function forgotPassword(ctx: AppContext, email: string, ip: string): Promise<void> {
  await rateLimit(ctx, `forgot:ip:${ip}`, RATE_RULES.forgotPerIp);
  const user = await findUserByEmail(ctx.db, email);
  if (!user || !user.active) return; // the answer is the same, so accounts cannot be discovered here
  if (!(await withinQuietLimit(ctx, `forgot:user:${user.id}`, RATE_RULES.forgotPerAccount))) return;
  const { token, hash: tokenHash } = newEmailToken();
  await ctx.db.query(
    "INSERT INTO user_tokens (user_id, purpose, token_hash, expires_at) VALUES ($1, 'reset_password', $2, $3)",
    [user.id, tokenHash, new Date(ctx.now().getTime() + RESET_PASSWORD_TTL_MINUTES * 60_000)],
  );
  const link = `${ctx.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  await ctx.mail.send(
    passwordResetEmail({ to: user.email, firstName: user.first_name, link, expiresInMinutes: RESET_PASSWORD_TTL_MINUTES }),
  );
}

export async function resetPassword(ctx: AppContext, body: unknown): Promise<void> {
  const result = validate(EncodedResetPasswordInput, body);
  if (!result.ok) throw badRequest(result.fields);
  const plain = decodePassword(result.value.newPassword);
  if (plain === null) throw badRequest([{ field: 'newPassword', code: 'password.encoding' }]);
  // Checked before the token is consumed, so the player can pick another password with the same link.
  const holder = await maybeOne<{ password_hash: string | null }>(
    ctx.db,
    `SELECT u.password_hash FROM user_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.token_hash = $1 AND t.purpose = 'reset_password' AND t.used_at IS NULL AND t.expires_at > $2`,
    [hashEmailToken(result.value.token), ctx.now()],
  );
  if (!holder) throw new DomainError('INVALID_TOKEN');
  if (holder.password_hash && (await verify(holder.password_hash, plain))) throw new DomainError('SAME_PASSWORD');
  const passwordHash = await hashPassword(plain, ctx.config.passwordHashing);
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const userId = await consumeToken(tx, result.value.token, 'reset_password', now);
    // Following the emailed link proves the address too.
    await tx.query(
      'UPDATE users SET password_hash = $2, email_verified_at = COALESCE(email_verified_at, $3), updated_at = $3 WHERE id = $1',
      [userId, passwordHash, now],
    );
    // Other reset links sent before this one must not set the password again.
    await retireTokens(tx, userId, 'reset_password', now);
    await ctx.tokens.revokeAll(tx, userId, now);
  });
}

export async function changePassword(ctx: AppContext, userId: number, sessionId: string, body: unknown): Promise<void> {
  const result = validate(EncodedPasswordChange, body);
  if (!result.ok) throw badRequest(result.fields);
  const oldPassword = decodePassword(result.value.oldPassword);
  const newPassword = decodePassword(result.value.newPassword);
  if (oldPassword === null) throw badRequest([{ field: 'oldPassword', code: 'password.encoding' }]);
  if (newPassword === null) throw badRequest([{ field: 'newPassword', code: 'password.encoding' }]);
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new DomainError('USER_DOES_NOT_EXISTS');
  // Whoever holds a session must not be able to guess the password faster than at login.
  await rateLimit(ctx, `password:user:${userId}`, RATE_RULES.loginPerAccount);
  if (!user.password_hash || !(await verify(user.password_hash, oldPassword))) {
    throw new DomainError('WRONG_PASSWORD');
  }
  const passwordHash = await hashPassword(newPassword, ctx.config.passwordHashing);
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    await tx.query('UPDATE users SET password_hash = $2, updated_at = $3 WHERE id = $1', [userId, passwordHash, now]);
    await retireTokens(tx, userId, 'reset_password', now);
    // Other devices are signed out; this session stays.
    await tx.query('UPDATE sessions SET revoked_at = $3 WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL', [
      userId,
      sessionId,
      now,
    ]);
  });
}

export async function logout(ctx: AppContext, sessionId: string): Promise<void> {
  await ctx.tokens.revoke(ctx.db, sessionId, ctx.now());
}

/** Usernames for social sign-ups: from the email's local part, made alphanumeric and unique. */
async function freeUsername(db: Queryable, seed: string): Promise<string> {
  const base = (seed.replace(/[^A-Za-z0-9]/g, '') || 'player').slice(0, 14);
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidate = attempt === 0 && base.length >= 3 ? base : `${base}${randomBytes(3).readUIntBE(0, 3) % 1_000_000}`;
    const taken = await maybeOne(db, 'SELECT 1 FROM users WHERE lower(username) = lower($1)', [candidate]);
    if (!taken) return candidate;
  }
  throw new Error('No free username found');
}

/** Letters only, as the name rules want; social profiles may carry anything. */
function cleanName(value: string | null): string {
  return (value ?? '').replace(/[^\p{L}\p{M}' -]/gu, '').trim().slice(0, 50);
}

export async function socialLogin(ctx: AppContext, profile: SocialProfile) {
  const column = profile.provider === 'google' ? 'google_sub' : 'facebook_id';
  return ctx.db.transaction(async (tx) => {
    let user = await maybeOne<UserRow>(tx, `SELECT * FROM users WHERE ${column} = $1`, [profile.subject]);
    let isNewUser = false;
    if (!user && profile.email) {
      // An account with this email signs in its own way: linking here would let whoever registered the
      // address first (perhaps without proving it) share the account with the social identity.
      const byEmail = await maybeOne(tx, 'SELECT 1 FROM users WHERE lower(email) = lower($1)', [profile.email]);
      if (byEmail) throw new DomainError('EMAIL_ALREADY_EXISTS');
    }
    if (!user) {
      if (!profile.email || !profile.emailVerified) throw new DomainError('SOCIAL_LOGIN_FAILED');
      user = await one<UserRow>(
        tx,
        `INSERT INTO users (email, username, first_name, last_name, email_verified_at, referral_code, ${column})
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [
          profile.email,
          await freeUsername(tx, profile.email.split('@')[0] ?? ''),
          cleanName(profile.firstName),
          cleanName(profile.lastName),
          ctx.now(),
          newReferralCode(),
          profile.subject,
        ],
      );
      await createWallets(tx, user.id);
      isNewUser = true;
    }
    assertMaySignIn(user);
    return { ...(await startSession(ctx, tx, user)), isNewUser };
  });
}
