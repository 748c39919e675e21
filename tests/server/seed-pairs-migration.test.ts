import { describe, expect, it } from 'vitest';
import { isServerSeed, newServerSeed, sha256Hex } from '../../src/fairness/random.ts';
import type { Db } from '../../server/db/db.ts';
import { testMigration } from '../helpers/migrations.ts';
import { activePair, rotatePair, seedsView } from '../../server/games/seeds.ts';

/**
 * Migration 0034_next_seed_pair.sql on a database holding seed pairs of before: every active pair gets a
 * next server seed of its own, drawn and hashed in SQL the way src/fairness/random.ts draws and hashes one,
 * and the active client seed as the next one; a revealed pair gets none. A rotation then makes that next
 * pair active. On PGlite, or on the PostgreSQL server of TEST_DATABASE_URL in a database of its own.
 */

const MIGRATION = '0034_next_seed_pair.sql';
const AT = new Date('2026-01-02T03:04:05.000Z');

let db: Db;

interface PairRow {
  id: number;
  user_id: number;
  server_seed: string;
  client_seed: string;
  revealed: boolean;
  next_server_seed: string | null;
  next_server_seed_hash: string | null;
  next_client_seed: string | null;
}

const pairs = () =>
  db.query<PairRow>(
    `SELECT id::int AS id, user_id::int AS user_id, server_seed, client_seed, revealed_at IS NOT NULL AS revealed,
       next_server_seed, next_server_seed_hash, next_client_seed
     FROM house_seed_pairs ORDER BY id`,
  );

const players: number[] = [];

testMigration(MIGRATION, async (target) => {
  db = target;
  for (const name of ['first', 'second', 'third']) {
    const [user] = await db.query<{ id: number }>('INSERT INTO users (email, username, referral_code) VALUES ($1, $2, $3) RETURNING id::int AS id', [
      `${name}@example.com`,
      name,
      `${name.toUpperCase()}CODE`,
    ]);
    players.push(user!.id);
  }
  const insertPair = async (userId: number, clientSeed: string, revealedAt: Date | null) => {
    const seed = newServerSeed();
    await db.query(
      `INSERT INTO house_seed_pairs (user_id, server_seed, server_seed_hash, client_seed, next_nonce, created_at, revealed_at)
       VALUES ($1, $2, $3, $4, 3, $5, $6)`,
      [userId, seed, await sha256Hex(seed), clientSeed, AT, revealedAt],
    );
  };
  await insertPair(players[0]!, 'revealed-seed', AT);
  await insertPair(players[0]!, 'first-seed', null);
  await insertPair(players[1]!, 'second-seed', null);
  await insertPair(players[2]!, 'third-seed', null);
});

describe(MIGRATION, () => {
  it('draws a next server seed of its own for every active pair, its SHA-256 as sha256Hex takes it, and keeps the client seed', async () => {
    const rows = await pairs();
    const active = rows.filter((row) => !row.revealed);
    expect(active).toHaveLength(3);
    for (const row of active) {
      expect(isServerSeed(row.next_server_seed!)).toBe(true);
      expect(row.next_server_seed_hash).toBe(await sha256Hex(row.next_server_seed!));
      expect(row.next_client_seed).toBe(row.client_seed);
      expect(row.next_server_seed).not.toBe(row.server_seed);
    }
    expect(new Set(active.map((row) => row.next_server_seed)).size).toBe(3);
    const revealed = rows.filter((row) => row.revealed);
    expect(revealed.map((row) => [row.next_server_seed, row.next_server_seed_hash, row.next_client_seed])).toEqual([[null, null, null]]);
  });

  it('holds an active pair to its next seeds and a revealed one to none', async () => {
    const [first] = (await pairs()).filter((row) => !row.revealed);
    await expect(db.query('UPDATE house_seed_pairs SET next_client_seed = NULL WHERE id = $1', [first!.id])).rejects.toThrow(/house_seed_pairs_next/);
    await expect(db.query('UPDATE house_seed_pairs SET revealed_at = $2 WHERE id = $1', [first!.id, AT])).rejects.toThrow(/house_seed_pairs_next/);
  });

  it('rotates a migrated pair to the next pair drawn by the migration', async () => {
    const owner = { userId: players[1]! };
    const before = (await pairs()).find((row) => row.user_id === owner.userId && !row.revealed)!;
    const rotated = await db.transaction(async (tx) => rotatePair(tx, owner, await activePair(tx, owner, AT, true), undefined, AT));
    expect(rotated.revealed).toMatchObject({ serverSeed: before.server_seed, clientSeed: 'second-seed', rounds: 3 });
    expect(rotated.seeds).toMatchObject({ serverSeedHash: before.next_server_seed_hash, clientSeed: 'second-seed', nonce: 0 });
    const now = await activePair(db, owner, AT);
    expect(now.server_seed).toBe(before.next_server_seed);
    expect(seedsView(now)).toEqual(rotated.seeds);
  });
});
