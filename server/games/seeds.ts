import { randomBytes } from 'node:crypto';
import { isClientSeed, newServerSeed, sha256Hex } from '../../src/fairness/random.ts';
import { maybeOne, one, type Queryable } from '../db/db.ts';
import { badHouseRequest } from './errors.ts';

/**
 * Provably fair seed pairs (house_seed_pairs): one active pair per player for real money, one per demo
 * session for play money. The server seed stays secret until the pair is rotated; its SHA-256 is shown
 * before any bet. The nonce counts the pair's played rounds from 0.
 */

/** Whose pair: a player's (real money) or a demo session's. */
export type SeedOwner = { userId: number } | { demoSessionId: string };

export interface SeedPairRow {
  id: number;
  server_seed: string;
  server_seed_hash: string;
  client_seed: string;
  next_nonce: number;
  created_at: Date;
  revealed_at: Date | null;
}

export interface SeedsView {
  serverSeedHash: string;
  clientSeed: string;
  /** The nonce the next round will use (the pair's rounds played so far). */
  nonce: number;
}

export interface RevealedSeedView {
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
  /** Rounds played with the pair: nonces 0 to rounds − 1. */
  rounds: number;
  revealedAt: string;
}

const COLUMNS = 'id::int AS id, server_seed, server_seed_hash, client_seed, next_nonce, created_at, revealed_at';
/** The same, returned by the update that takes a nonce: next_nonce is the one taken. */
const TAKEN_COLUMNS = 'id::int AS id, server_seed, server_seed_hash, client_seed, next_nonce - 1 AS next_nonce, created_at, revealed_at';

function ownerColumn(owner: SeedOwner): { column: 'user_id' | 'demo_session_id'; value: number | string } {
  return 'userId' in owner ? { column: 'user_id', value: owner.userId } : { column: 'demo_session_id', value: owner.demoSessionId };
}

/** A client seed the player did not choose: 16 random hex characters. */
export function defaultClientSeed(): string {
  return randomBytes(8).toString('hex');
}

export function seedsView(pair: SeedPairRow): SeedsView {
  return { serverSeedHash: pair.server_seed_hash, clientSeed: pair.client_seed, nonce: pair.next_nonce };
}

async function insertPair(db: Queryable, owner: SeedOwner, clientSeed: string, now: Date): Promise<void> {
  const { column, value } = ownerColumn(owner);
  const serverSeed = newServerSeed();
  // Two first calls at once: the partial unique index keeps one, the other finds it.
  await db.query(
    `INSERT INTO house_seed_pairs (${column}, server_seed, server_seed_hash, client_seed, created_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (${column}) WHERE revealed_at IS NULL AND ${column} IS NOT NULL DO NOTHING`,
    [value, serverSeed, await sha256Hex(serverSeed), clientSeed, now],
  );
}

/** The owner's active pair, made on first use; `forUpdate` locks it (a round taking its nonce). */
export async function activePair(db: Queryable, owner: SeedOwner, now: Date, forUpdate = false): Promise<SeedPairRow> {
  const { column, value } = ownerColumn(owner);
  const select = `SELECT ${COLUMNS} FROM house_seed_pairs WHERE ${column} = $1 AND revealed_at IS NULL${forUpdate ? ' FOR UPDATE' : ''}`;
  // One prepared statement per text: the owner's column and the lock make four.
  const prepared = `house_seed_pair_by_${column}${forUpdate ? '_for_update' : ''}`;
  const found = await maybeOne<SeedPairRow>(db, select, [value], { prepared });
  if (found) return found;
  await insertPair(db, owner, defaultClientSeed(), now);
  return one<SeedPairRow>(db, select, [value], { prepared });
}

/**
 * Takes the active pair's next nonce for a round being played (inside the round's transaction): the pair as
 * it was, its next_nonce the one taken, and the pair locked and counted on in one statement.
 */
export async function takeNonce(tx: Queryable, owner: SeedOwner, now: Date): Promise<SeedPairRow> {
  const { column, value } = ownerColumn(owner);
  const take = () =>
    maybeOne<SeedPairRow>(
      tx,
      `UPDATE house_seed_pairs SET next_nonce = next_nonce + 1 WHERE ${column} = $1 AND revealed_at IS NULL
       RETURNING ${TAKEN_COLUMNS}`,
      [value],
      { prepared: `house_seed_pair_nonce_by_${column}` },
    );
  const taken = await take();
  if (taken) return taken;
  // The owner's first round: its pair is made, then counted on.
  await insertPair(tx, owner, defaultClientSeed(), now);
  const made = await take();
  if (!made) throw new Error('no active seed pair after making one');
  return made;
}

/**
 * Reveals the active pair's server seed and starts a new pair (a new server seed, nonce 0) with the client
 * seed given, or the old one. The caller makes sure no round of the pair is still open (Mines): its
 * mines would be known.
 */
export async function rotatePair(
  tx: Queryable,
  owner: SeedOwner,
  clientSeed: string | undefined,
  now: Date,
): Promise<{ revealed: RevealedSeedView; seeds: SeedsView }> {
  if (clientSeed !== undefined && !isClientSeed(clientSeed)) throw badHouseRequest('clientSeed', 'clientSeed');
  const old = await activePair(tx, owner, now, true);
  await tx.query('UPDATE house_seed_pairs SET revealed_at = $2 WHERE id = $1', [old.id, now]);
  await insertPair(tx, owner, clientSeed ?? old.client_seed, now);
  const fresh = await activePair(tx, owner, now);
  return {
    revealed: {
      serverSeed: old.server_seed,
      serverSeedHash: old.server_seed_hash,
      clientSeed: old.client_seed,
      rounds: old.next_nonce,
      revealedAt: now.toISOString(),
    },
    seeds: seedsView(fresh),
  };
}
