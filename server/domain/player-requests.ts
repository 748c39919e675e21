import { createHash } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { maybeOne, type Queryable } from '../db/db.ts';
import { DomainError } from './errors.ts';

/**
 * Player requests sent with an Idempotency-Key header (migration 0014_player_requests.sql): one row per
 * (player, operation, key), holding the hash of the request the key was first used with and what
 * answers a repeat of it: the first response (bonus requests), or the withdrawal the request made
 * (a withdrawal's answer follows the withdrawal, see withdrawals.ts `replay`).
 *
 * - The same key with the same request answers the first answer and changes nothing.
 * - The same key with another request is refused: 409 IDEMPOTENCY_KEY_REUSED.
 * - A request that failed stores nothing: its row is written in the request's own database transaction
 *   and rolls back with it, so the key may be tried again.
 *
 * Concurrency: the row is inserted first thing in the request's transaction (INSERT ... ON CONFLICT DO
 * NOTHING). A second request with the same key waits on that insert until the first's transaction ends:
 * committed, it finds the first's row and answers from it; rolled back, its own insert goes through and
 * it runs. Either way the request has one effect.
 */

/** The operations that take an Idempotency-Key header (openapi.yaml). */
export type PlayerOperation = 'paymentWithdraw' | 'bonusAvail' | 'bonusCancel' | 'bonusAvailReferral';

export type RequestField = string | number | boolean | null;

export interface PlayerRequest {
  userId: number;
  operation: PlayerOperation;
  key: string;
  requestHash: string;
}

/** A request made earlier with the key: its first response, or the withdrawal it made. */
export interface EarlierRequest {
  response: unknown;
  withdrawalId: number | null;
}

/**
 * SHA-256 (hex) of a request's canonical form: its body's fields as a JSON array in the operation's fixed
 * order, an absent optional field as null. Migration 0014 computes the same form in SQL for the answers
 * it carried over.
 */
export function requestHash(fields: readonly RequestField[]): string {
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** The request to remember, or null without an Idempotency-Key header. */
export function playerRequest(
  userId: number,
  operation: PlayerOperation,
  key: string | undefined,
  fields: readonly RequestField[],
): PlayerRequest | null {
  return key === undefined ? null : { userId, operation, key, requestHash: requestHash(fields) };
}

interface PlayerRequestRow {
  request_hash: string | null;
  response: unknown;
  withdrawal_id: number | null;
}

/** The earlier row as an answer: only for the same request. A row without a hash predates hashing and matches no request. */
function sameRequest(request: PlayerRequest, row: PlayerRequestRow): EarlierRequest {
  if (row.request_hash !== request.requestHash) throw new DomainError('IDEMPOTENCY_KEY_REUSED');
  return { response: row.response, withdrawalId: row.withdrawal_id };
}

function loadRow(db: Queryable, request: PlayerRequest): Promise<PlayerRequestRow | undefined> {
  return maybeOne<PlayerRequestRow>(
    db,
    'SELECT request_hash, response, withdrawal_id FROM player_requests WHERE user_id = $1 AND operation = $2 AND key = $3',
    [request.userId, request.operation, request.key],
  );
}

/**
 * The committed request made earlier with this key, when there is one (a read outside any transaction,
 * before the work a new request would do). Throws IDEMPOTENCY_KEY_REUSED when it was another request.
 */
export async function findEarlier(db: Queryable, request: PlayerRequest): Promise<EarlierRequest | undefined> {
  const row = await loadRow(db, request);
  return row ? sameRequest(request, row) : undefined;
}

/**
 * Takes the key for this request, first thing inside its transaction `tx`: undefined when it is this
 * request's now (the caller does the work and records its answer in the same transaction), else the
 * earlier request with the key, once its transaction committed. Throws IDEMPOTENCY_KEY_REUSED when that
 * was another request.
 */
export async function takeKey(tx: Queryable, request: PlayerRequest, at: Date): Promise<EarlierRequest | undefined> {
  const inserted = await tx.query(
    `INSERT INTO player_requests (user_id, operation, key, request_hash, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING RETURNING key`,
    [request.userId, request.operation, request.key, request.requestHash, at],
  );
  if (inserted.length > 0) return undefined;
  // The conflicting row is committed (the insert waited for it), so this statement's snapshot sees it.
  const row = await loadRow(tx, request);
  if (!row) throw new Error(`player request ${request.operation}/${request.key} conflicted but is not there`);
  return sameRequest(request, row);
}

/** Records the first response of a request whose key {@link takeKey} took. */
export async function recordResponse(tx: Queryable, request: PlayerRequest, response: unknown): Promise<void> {
  await tx.query('UPDATE player_requests SET response = $4::jsonb WHERE user_id = $1 AND operation = $2 AND key = $3', [
    request.userId,
    request.operation,
    request.key,
    JSON.stringify(response),
  ]);
}

/** Records the withdrawal a paymentWithdraw request whose key {@link takeKey} took has made. */
export async function recordWithdrawal(tx: Queryable, request: PlayerRequest, withdrawalId: number): Promise<void> {
  await tx.query('UPDATE player_requests SET withdrawal_id = $4 WHERE user_id = $1 AND operation = $2 AND key = $3', [
    request.userId,
    request.operation,
    request.key,
    withdrawalId,
  ]);
}

/**
 * Runs a player's request in one database transaction, once per Idempotency-Key: `run`'s result (JSON)
 * is stored with its effects and a repeat answers it; without a key (`request` null) it just runs.
 */
export async function oncePerKey<T>(ctx: AppContext, request: PlayerRequest | null, run: (tx: Queryable) => Promise<T>): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    if (request) {
      const earlier = await takeKey(tx, request, ctx.now());
      if (earlier) {
        if (earlier.response === null) throw new Error(`player request ${request.operation}/${request.key} has no response`);
        // Stored by this function from a T, read back as JSON.
        return earlier.response as T;
      }
    }
    const result = await run(tx);
    if (request) await recordResponse(tx, request, result);
    return result;
  });
}
