import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Queryable } from '../db/db.ts';
import { maybeOne } from '../db/db.ts';
import { DomainError } from './errors.ts';

const ISSUER = 'casino-reference-server';
/** Claim on tokens whose lifetime was cut short by the player's session limit: its minutes. */
const SESSION_LIMIT_CLAIM = 'slm';

/** The signing secret: JWT_SECRET, else one generated once and kept in the data folder. */
export function loadJwtSecret(configured: string | null, dataDir: string): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  const path = join(dataDir, 'jwt-secret');
  if (!existsSync(path)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return new TextEncoder().encode(readFileSync(path, 'utf8').trim());
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

export interface TokenService {
  issue(db: Queryable, userId: number, now: Date, options?: IssueOptions): Promise<IssuedToken>;
  /**
   * The session behind a bearer token, or null when the token is bad, expired or revoked. A token that
   * the player's session limit ended throws 401 SESSION_EXPIRED instead.
   */
  verify(db: Queryable, token: string, now: Date): Promise<{ userId: number; sessionId: string } | null>;
  revoke(db: Queryable, sessionId: string, now: Date): Promise<void>;
  revokeAll(db: Queryable, userId: number, now: Date): Promise<void>;
}

export function createTokenService(secret: Uint8Array, ttlSeconds: number): TokenService {
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
      const accessToken = await new SignJWT(limited ? { [SESSION_LIMIT_CLAIM]: limitMinutes } : {})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(ISSUER)
        .setSubject(String(userId))
        .setJti(sessionId)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + lifetime)
        .sign(secret);
      return { accessToken, sessionId, expiresAt };
    },

    async verify(db, token, now) {
      let subject: string | undefined;
      let jti: string | undefined;
      try {
        const { payload } = await jwtVerify(token, secret, {
          issuer: ISSUER,
          algorithms: ['HS256'],
          currentDate: now,
        });
        subject = payload.sub;
        jti = payload.jti;
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
      const session = await maybeOne<{ user_id: number }>(
        db,
        'SELECT user_id FROM sessions WHERE id = $1 AND revoked_at IS NULL AND expires_at > $2',
        [jti, now],
      );
      if (!session || session.user_id !== Number(subject)) return null;
      return { userId: session.user_id, sessionId: jti };
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
