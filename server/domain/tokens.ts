import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Db, Queryable } from '../db/db.ts';
import { maybeOne } from '../db/db.ts';
import { DomainError } from './errors.ts';
import type { UserRow } from './users.ts';

const ISSUER = 'casino-reference-server';
/** Claim on tokens whose lifetime was cut short by the player's session limit: its minutes. */
const SESSION_LIMIT_CLAIM = 'slm';

/** The signing secret of one server on its own: JWT_SECRET, else one generated once and kept in the data folder. */
export function loadJwtSecret(configured: string | null, dataDir: string): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  const path = join(dataDir, 'jwt-secret');
  if (!existsSync(path)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return new TextEncoder().encode(readFileSync(path, 'utf8').trim());
}

/** The keys access tokens are signed and checked with. */
export interface SigningKeys {
  /** The key new tokens are signed with, and its id (the token's kid) when keys are kept by id. */
  current(): Promise<{ kid: string | null; secret: Uint8Array }>;
  /** The key that signed a token with this kid, or null when there is none (unknown or retired). */
  find(kid: string | undefined): Promise<Uint8Array | null>;
}

/** One secret for every token (JWT_SECRET, or the data folder's). */
export function singleKey(secret: Uint8Array): SigningKeys {
  return { current: () => Promise.resolve({ kid: null, secret }), find: () => Promise.resolve(secret) };
}

/** Keys read again this often, so that a key inserted or retired by the operator is seen by every server. */
const KEYS_RELOAD_MS = 60_000;
/** A token naming a key this server does not know makes it read the keys again, at most this often. */
const KEYS_MISS_RELOAD_MS = 1_000;

/**
 * The keys every server on one PostgreSQL database shares (table jwt_keys, migration 0017): the first
 * server to need one makes it, under an advisory lock so that servers starting together make one, and the
 * others read it. New tokens are signed with the newest key not retired and name it (kid); a token is
 * accepted while its key is not retired.
 */
export function databaseKeys(db: Db): SigningKeys {
  interface Loaded {
    at: number;
    byId: Map<string, Uint8Array>;
    newest: { kid: string; secret: Uint8Array };
  }
  let loaded: Loaded | null = null;
  let loading: Promise<Loaded> | null = null;
  const read = (q: Queryable) =>
    q.query<{ id: number; secret: string }>('SELECT id, secret FROM jwt_keys WHERE retired_at IS NULL ORDER BY id');

  async function load(): Promise<Loaded> {
    let rows = await read(db);
    if (rows.length === 0) {
      rows = await db.transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(hashtext('jwt_keys'))");
        const found = await read(tx);
        if (found.length > 0) return found;
        return tx.query<{ id: number; secret: string }>('INSERT INTO jwt_keys (secret) VALUES ($1) RETURNING id, secret', [
          randomBytes(48).toString('base64url'),
        ]);
      });
    }
    const byId = new Map(rows.map((row) => [String(row.id), new TextEncoder().encode(row.secret)] as const));
    const last = rows[rows.length - 1]!;
    return { at: Date.now(), byId, newest: { kid: String(last.id), secret: byId.get(String(last.id))! } };
  }

  async function keys(olderThanMs: number): Promise<Loaded> {
    if (loaded && Date.now() - loaded.at < olderThanMs) return loaded;
    if (!loading) {
      loading = load().finally(() => {
        loading = null;
      });
    }
    loaded = await loading;
    return loaded;
  }

  return {
    async current() {
      return (await keys(KEYS_RELOAD_MS)).newest;
    },
    async find(kid) {
      if (kid === undefined || !/^\d{1,9}$/.test(kid)) return null;
      return (await keys(KEYS_RELOAD_MS)).byId.get(kid) ?? (await keys(KEYS_MISS_RELOAD_MS)).byId.get(kid) ?? null;
    },
  };
}

export interface IssuedToken {
  accessToken: string;
  sessionId: string;
  expiresAt: Date;
}

export interface IssueOptions {
  /** The player's responsible-gambling session limit: the token ends this many minutes after login. */
  sessionLimitMinutes?: number | null;
}

export interface VerifiedSession {
  userId: number;
  sessionId: string;
  user: UserRow | undefined;
}

/** The session's own columns beside the account's (users.*), under names no column of users has. */
interface SessionAndUser extends Partial<UserRow> {
  of_session_user_id: number;
  of_session_revoked: boolean;
  of_session_by_inactivation: boolean;
}

export interface TokenService {
  issue(db: Queryable, userId: number, now: Date, options?: IssueOptions): Promise<IssuedToken>;
  /**
   * The session behind a bearer token, with its player's account as it is now (undefined: the account is
   * gone), or null when the token is bad, expired or revoked. A token that the player's session limit
   * ended throws 401 SESSION_EXPIRED instead, and one whose account was made inactive (and still is) 403
   * USER_INACTIVE.
   */
  verify(db: Queryable, token: string, now: Date): Promise<VerifiedSession | null>;
  revoke(db: Queryable, sessionId: string, now: Date): Promise<void>;
  revokeAll(db: Queryable, userId: number, now: Date): Promise<void>;
}

/**
 * A secret as the HMAC key jose signs and checks with, imported once per secret: given the bytes, jose
 * imports them again at every call, which cost more than the signature itself (every signed-in request
 * checks one).
 */
const hmacKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function hmacKey(secret: Uint8Array): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    hmacKeys.set(secret, key);
  }
  return key;
}

/** Tokens whose signature and claims were checked, kept at most this many (the oldest leave first). */
const VERIFIED_TOKENS_LIMIT = 10_000;

/** What a checked token needs checked again at its next use: its key still in use, and its expiry. */
interface VerifiedToken {
  kid: string | undefined;
  key: Uint8Array;
  exp: number;
  sub: string | undefined;
  jti: string | undefined;
}

export function createTokenService(signing: Uint8Array | SigningKeys, ttlSeconds: number): TokenService {
  const keys = signing instanceof Uint8Array ? singleKey(signing) : signing;
  // A player's requests carry the same token until it ends: its signature, checked once, is not checked
  // again while the key that signed it is still the one in use (a key retired or reloaded is a new check).
  // Its expiry is; the session behind it is read at every request, as before.
  const verified = new Map<string, VerifiedToken>();
  const stillVerified = async (token: string, now: Date): Promise<VerifiedToken | null> => {
    const entry = verified.get(token);
    if (!entry) return null;
    if (entry.exp > Math.floor(now.getTime() / 1000) && (await keys.find(entry.kid)) === entry.key) return entry;
    verified.delete(token);
    return null;
  };
  const remember = (token: string, entry: VerifiedToken) => {
    if (verified.size >= VERIFIED_TOKENS_LIMIT) {
      const oldest = verified.keys().next();
      if (!oldest.done) verified.delete(oldest.value);
    }
    verified.set(token, entry);
  };
  /** The token's subject and id once its signature and claims hold (jose's errors otherwise). */
  const checked = async (token: string, now: Date): Promise<{ sub?: string | undefined; jti?: string | undefined }> => {
    const known = await stillVerified(token, now);
    if (known) return known;
    let used: { kid: string | undefined; key: Uint8Array } | undefined;
    const { payload } = await jwtVerify(
      token,
      async (header: { kid?: string }) => {
        const key = await keys.find(header.kid);
        if (!key) throw new joseErrors.JWKSNoMatchingKey();
        used = { kid: header.kid, key };
        return hmacKey(key);
      },
      { issuer: ISSUER, algorithms: ['HS256'], currentDate: now },
    );
    if (used && payload.exp !== undefined) remember(token, { ...used, exp: payload.exp, sub: payload.sub, jti: payload.jti });
    return payload;
  };
  return {
    async issue(db, userId, now, options = {}) {
      const sessionId = randomUUID();
      const issuedAt = Math.floor(now.getTime() / 1000);
      const limitMinutes = options.sessionLimitMinutes ?? null;
      const limited = limitMinutes !== null && limitMinutes * 60 < ttlSeconds;
      const lifetime = limited ? limitMinutes * 60 : ttlSeconds;
      const expiresAt = new Date((issuedAt + lifetime) * 1000);
      await db.query('INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
        sessionId,
        userId,
        now,
        expiresAt,
      ]);
      const { kid, secret } = await keys.current();
      const accessToken = await new SignJWT(limited ? { [SESSION_LIMIT_CLAIM]: limitMinutes } : {})
        .setProtectedHeader(kid === null ? { alg: 'HS256' } : { alg: 'HS256', kid })
        .setIssuer(ISSUER)
        .setSubject(String(userId))
        .setJti(sessionId)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + lifetime)
        .sign(await hmacKey(secret));
      return { accessToken, sessionId, expiresAt };
    },

    async verify(db, token, now) {
      let subject: string | undefined;
      let jti: string | undefined;
      try {
        ({ sub: subject, jti } = await checked(token, now));
      } catch (error) {
        // jose reports expiry only after checking the signature, so the payload it hands back is ours.
        if (error instanceof joseErrors.JWTExpired && typeof error.payload[SESSION_LIMIT_CLAIM] === 'number') {
          const { sub, jti } = error.payload;
          if (!sub || !jti || !/^\d+$/.test(sub)) return null;
          // A session the player ended (logout) or that was revoked is just gone, not "expired by the limit".
          const ended = await maybeOne(db, 'SELECT 1 FROM sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL', [
            jti,
            Number(sub),
          ]);
          if (ended) throw new DomainError('SESSION_EXPIRED');
          return null;
        }
        if (error instanceof joseErrors.JOSEError) return null;
        throw error;
      }
      if (!subject || !jti || !/^\d+$/.test(subject)) return null;
      // The session and its player's account in one statement: every signed-in request needs both.
      const row = await maybeOne<SessionAndUser>(
        db,
        `SELECT s.user_id AS of_session_user_id, s.revoked_at IS NOT NULL AS of_session_revoked,
                s.revoked_by_inactivation AS of_session_by_inactivation, u.*
         FROM sessions s LEFT JOIN users u ON u.id = s.user_id
         WHERE s.id = $1 AND s.expires_at > $2`,
        [jti, now],
        // Every signed-in request asks this: planned once per connection.
        { prepared: 'session_of_token' },
      );
      if (!row || row.of_session_user_id !== Number(subject)) return null;
      const { of_session_user_id: userId, of_session_revoked: revoked, of_session_by_inactivation: byInactivation, ...account } = row;
      const user = account.id === null || account.id === undefined ? undefined : (account as UserRow);
      if (revoked) {
        // Ended by the account's inactivation (migration 0017): the reason is told while it lasts.
        if (byInactivation && user?.active === false) throw new DomainError('USER_INACTIVE');
        return null;
      }
      return { userId, sessionId: jti, user };
    },

    async revoke(db, sessionId, now) {
      await db.query('UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [sessionId, now]);
    },

    async revokeAll(db, userId, now) {
      await db.query('UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, now]);
    },
  };
}

/** Single-use email tokens: the player gets the random value, the database keeps only its hash. */
export function newEmailToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashEmailToken(token) };
}

export function hashEmailToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
