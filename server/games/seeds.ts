import { randomBytes } from 'node:crypto';
import { isClientSeed, newServerSeed, sha256Hex } from '../../src/fairness/random.ts';
import { maybeOne, one, type Queryable } from '../db/db.ts';
import { badHouseRequest } from './errors.ts';

/**
 * Provably fair seed pairs (house_seed_pairs): one active pair per player for real money, one per demo
 * session for play money, and beside it the next pair. The active pair's server seed stays secret until
 * the pair is rotated; its SHA-256 is shown before any bet. The nonce counts the pair's played rounds
 * from 0. The next pair's server seed is drawn when the active pair starts (its SHA-256 shown too); its
 * client seed is the player's to change at any time (the active one's until then), and rotating makes
 * that next pair active exactly as shown. So each server seed is fixed before the player picks the
 * client seed it is played with.
 */

/** Whose pair: a player's (real money) or a demo session's. */
export type SeedOwner = { userId: number } | { demoSessionId: string };

/** An active pair, with its next pair's seeds (a revealed row keeps none). */
export interface SeedPairRow {
  id: number;
  server_seed: string;
  server_seed_hash: string;
  client_seed: string;
  next_nonce: number;
  next_server_seed: string;
  next_server_seed_hash: string;
  next_client_seed: string;
  created_at: Date;
  revealed_at: Date | null;
}

export interface SeedsView {
  serverSeedHash: string;
  clientSeed: string;
  /** The nonce the next round will use (the pair's rounds played so far). */
  nonce: number;
  /** SHA-256 of the server seed the pair after this one will play with. */
  nextServerSeedHash: string;
  /** The client seed the pair after this one will play with. */
  nextClientSeed: string;
}

export interface RevealedSeedView {
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
  /** Rounds played with the pair: nonces 0 to rounds − 1. */
  rounds: number;
  revealedAt: string;
}

const PAIR = 'server_seed, server_seed_hash, client_seed';
const NEXT = 'next_server_seed, next_server_seed_hash, next_client_seed, created_at, revealed_at';
const COLUMNS = `id::int AS id, ${PAIR}, next_nonce, ${NEXT}`;
/** The same, returned by the update that takes a nonce: next_nonce is the one taken. */
const TAKEN_COLUMNS = `id::int AS id, ${PAIR}, next_nonce - 1 AS next_nonce, ${NEXT}`;

function ownerColumn(owner: SeedOwner): { column: 'user_id' | 'demo_session_id'; value: number | string } {
  return 'userId' in owner ? { column: 'user_id', value: owner.userId } : { column: 'demo_session_id', value: owner.demoSessionId };
}

/** A client seed the player did not choose: 16 random hex characters. */
export function defaultClientSeed(): string {
  return randomBytes(8).toString('hex');
}

export function seedsView(pair: SeedPairRow): SeedsView {
  return {
    serverSeedHash: pair.server_seed_hash,
    clientSeed: pair.client_seed,
    nonce: pair.next_nonce,
    nextServerSeedHash: pair.next_server_seed_hash,
    nextClientSeed: pair.next_client_seed,
  };
}

async function drawServerSeed(): Promise<{ seed: string; hash: string }> {
  const seed = newServerSeed();
  return { seed, hash: await sha256Hex(seed) };
}

/** The owner's first pair and the next one after it, with a client seed the player did not choose. */
async function insertFirstPair(db: Queryable, owner: SeedOwner, now: Date): Promise<void> {
  const { column, value } = ownerColumn(owner);
  const [active, next] = [await drawServerSeed(), await drawServerSeed()];
  const clientSeed = defaultClientSeed();
  // Two first calls at once: the partial unique index keeps one, the other finds it.
  await db.query(
    `INSERT INTO house_seed_pairs (${column}, server_seed, server_seed_hash, client_seed, next_server_seed, next_server_seed_hash, next_client_seed, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $4, $7)
     ON CONFLICT (${column}) WHERE revealed_at IS NULL AND ${column} IS NOT NULL DO NOTHING`,
    [value, active.seed, active.hash, clientSeed, next.seed, next.hash, now],
  );
}

/** How many times a statement on the active row is tried before giving up (each miss means a rotation ended). */
const ACTIVE_ROW_ATTEMPTS = 100;

/**
 * Runs `attempt`, a statement on the owner's active row, until it finds the row. It finds none when the
 * owner has no pair yet (the first pair is made, then it is tried again), or when it locks the row (FOR
 * UPDATE, UPDATE) and had to wait for a rotation: the row it waited for is no longer active, and the pair
 * made active was not there when the statement began. The next attempt, a statement of its own, sees it.
 */
async function onActiveRow<T>(db: Queryable, owner: SeedOwner, now: Date, attempt: () => Promise<T | undefined>): Promise<T> {
  for (let tries = 0; tries < ACTIVE_ROW_ATTEMPTS; tries++) {
    const found = await attempt();
    if (found) return found;
    await insertFirstPair(db, owner, now);
  }
  throw new Error(`no active seed pair after ${ACTIVE_ROW_ATTEMPTS} attempts`);
}

/** The owner's active pair, made on first use; `forUpdate` locks it (a round taking its nonce, a rotation). */
export async function activePair(db: Queryable, owner: SeedOwner, now: Date, forUpdate = false): Promise<SeedPairRow> {
  const { column, value } = ownerColumn(owner);
  const select = `SELECT ${COLUMNS} FROM house_seed_pairs WHERE ${column} = $1 AND revealed_at IS NULL${forUpdate ? ' FOR UPDATE' : ''}`;
  // One prepared statement per text: the owner's column and the lock make four.
  const prepared = `house_seed_pair_by_${column}${forUpdate ? '_for_update' : ''}`;
  return onActiveRow(db, owner, now, () => maybeOne<SeedPairRow>(db, select, [value], { prepared }));
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
  return onActiveRow(tx, owner, now, take);
}

function checkClientSeed(clientSeed: string): void {
  if (!isClientSeed(clientSeed)) throw badHouseRequest('clientSeed', 'clientSeed');
}

/**
 * Sets the client seed of the next pair, in one statement on the active row: the active pair (its seeds,
 * its nonce, a Mines round open with it) is not touched. Sent while a rotation runs, it waits for it and
 * sets the client seed of the pair after the one made active.
 */
export async function setNextClientSeed(db: Queryable, owner: SeedOwner, clientSeed: string, now: Date): Promise<SeedsView> {
  checkClientSeed(clientSeed);
  const { column, value } = ownerColumn(owner);
  const set = () =>
    maybeOne<SeedPairRow>(
      db,
      `UPDATE house_seed_pairs SET next_client_seed = $2 WHERE ${column} = $1 AND revealed_at IS NULL RETURNING ${COLUMNS}`,
      [value, clientSeed],
      { prepared: `house_seed_pair_next_client_seed_by_${column}` },
    );
  return seedsView(await onActiveRow(db, owner, now, set));
}

/**
 * Reveals the active pair `old` (locked by the caller, inside its transaction) and makes the next pair
 * active as it was shown: its server seed, and the client seed given here or else the next client seed
 * shown; the nonce back to 0 and a new next server seed drawn. The caller makes sure no round of the pair is
 * still open (Mines): its mines would be known.
 */
export async function rotatePair(
  tx: Queryable,
  owner: SeedOwner,
  old: SeedPairRow,
  clientSeed: string | undefined,
  now: Date,
): Promise<{ revealed: RevealedSeedView; seeds: SeedsView }> {
  if (clientSeed !== undefined) checkClientSeed(clientSeed);
  const { column, value } = ownerColumn(owner);
  const ended = await maybeOne(
    tx,
    `UPDATE house_seed_pairs SET revealed_at = $2, next_server_seed = NULL, next_server_seed_hash = NULL, next_client_seed = NULL
     WHERE id = $1 AND revealed_at IS NULL RETURNING id`,
    [old.id, now],
  );
  if (!ended) throw new Error('the seed pair to rotate is no longer active: it must be locked before');
  const chosen = clientSeed ?? old.next_client_seed;
  const next = await drawServerSeed();
  const fresh = await one<SeedPairRow>(
    tx,
    `INSERT INTO house_seed_pairs (${column}, server_seed, server_seed_hash, client_seed, next_server_seed, next_server_seed_hash, next_client_seed, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $4, $7) RETURNING ${COLUMNS}`,
    [value, old.next_server_seed, old.next_server_seed_hash, chosen, next.seed, next.hash, now],
  );
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
