import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/db.ts';
import { testMigration } from '../helpers/migrations.ts';

/**
 * Migration 0031_one_open_mines_round.sql on a database where starts sent at once left several Mines rounds
 * open in one session: every open round but the newest of its session is ended as cashed at ×1, its stake
 * owed back as its win (real money: settling and stale, so the player's next call sends it through the
 * wallet; play money: paid here), and then the index holds one round in play per session. On PGlite, or on
 * the PostgreSQL server of TEST_DATABASE_URL in a database of its own.
 */

const MIGRATION = '0031_one_open_mines_round.sql';
const AT = new Date('2026-01-02T03:04:05.000Z');
const SEED = 'a'.repeat(64);

let db: Db;
const sessions = { real: 'r'.repeat(40), other: 'o'.repeat(40), demo: 'd'.repeat(40) };
let gameId: number;
let userId: number;

interface RoundRow {
  round_id: string;
  state: string;
  payout: string | null;
  multiplier: string | null;
  mines_end: string | null;
  win_transaction_id: string | null;
  stale: boolean;
}

const rounds = (sessionId: string) =>
  db.query<RoundRow>(
    `SELECT round_id, state, payout::text AS payout, multiplier, mines_end, win_transaction_id, updated_at < '2000-01-01' AS stale
     FROM house_rounds WHERE session_id = $1 ORDER BY id`,
    [sessionId],
  );

testMigration(MIGRATION, async (target) => {
  db = target;
  await db.query("INSERT INTO currencies (code, name, decimals, network, min_deposit, min_withdraw, withdraw_fee) VALUES ('LTC', 'Litecoin', 8, 'Litecoin', 0.001, 0.03, 0.000006)");
  [{ id: userId }] = (await db.query<{ id: number }>("INSERT INTO users (email, username, referral_code) VALUES ('p@example.com', 'p', 'PCODE1') RETURNING id::int AS id")) as [
    { id: number },
  ];
  const [provider] = await db.query<{ id: number }>("INSERT INTO providers (name, slug) VALUES ('House', 'house') RETURNING id");
  const [category] = await db.query<{ id: number }>("INSERT INTO categories (name, slug) VALUES ('Originals', 'originals') RETURNING id");
  [{ id: gameId }] = (await db.query<{ id: number }>(
    "INSERT INTO games (identifier, name, slug, provider_id, category_id, engine) VALUES ('house-mines', 'Mines', 'mines', $1, $2, 'mines') RETURNING id::int AS id",
    [provider!.id, category!.id],
  )) as [{ id: number }];
  for (const [id, demo] of [
    [sessions.real, false],
    [sessions.other, false],
    [sessions.demo, true],
  ] as const) {
    await db.query('INSERT INTO game_sessions (id, user_id, game_id, demo, currency_code, expires_at) VALUES ($1, $2, $3, $4, $5, $6)', [
      id,
      demo ? null : userId,
      gameId,
      demo,
      demo ? null : 'LTC',
      AT,
    ]);
  }
  const [pair] = await db.query<{ id: number }>(
    'INSERT INTO house_seed_pairs (user_id, server_seed, server_seed_hash, client_seed, next_nonce, created_at) VALUES ($1, $2, $2, $3, 10, $4) RETURNING id',
    [userId, SEED, 'client', AT],
  );
  const [demoPair] = await db.query<{ id: number }>(
    'INSERT INTO house_seed_pairs (demo_session_id, server_seed, server_seed_hash, client_seed, next_nonce, created_at) VALUES ($1, $2, $2, $3, 10, $4) RETURNING id',
    [sessions.demo, SEED, 'client', AT],
  );
  await db.query('INSERT INTO house_demo_balances (session_id, balance, updated_at) VALUES ($1, 990, $2)', [sessions.demo, AT]);
  let nonce = 0;
  const open = async (roundId: string, sessionId: string, bet: string, state = 'open') => {
    const demo = sessionId === sessions.demo;
    await db.query(
      `INSERT INTO house_rounds (round_id, session_id, game_id, user_id, demo, engine, currency_code, bet, params, seed_pair_id, nonce, outcome,
         state, bet_transaction_id, win_transaction_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'mines', $6, $7, '{"mineCount":3}', $8, $9, '{"mines":[1,2,3]}', $10, $11, $12, $13, $13)`,
      [roundId, sessionId, gameId, demo ? null : userId, demo, demo ? null : 'LTC', bet, demo ? demoPair!.id : pair!.id, (nonce += 1), state,
        demo ? null : `${roundId}:bet`, demo ? null : `${roundId}:win`, AT],
    );
  };
  // Three starts of one session went through at once; the table showed the newest.
  await open('hidden-1', sessions.real, '0.1');
  await open('hidden-2', sessions.real, '0.2');
  await open('shown', sessions.real, '0.3');
  // Another session of the player: one round, and one of its rounds already over.
  await open('alone', sessions.other, '0.4');
  await open('over', sessions.other, '0.5', 'settled');
  // Demo: two open at once.
  await open('demo-hidden', sessions.demo, '4');
  await open('demo-shown', sessions.demo, '6');
});

describe(MIGRATION, () => {
  it('ends every hidden real-money round as cashed at ×1, its stake owed back as a stale win; the newest stays open', async () => {
    const owed = { state: 'settling', multiplier: '1.00000000', mines_end: 'cashed', stale: true };
    expect(await rounds(sessions.real)).toEqual([
      { round_id: 'hidden-1', payout: '0.10000000', win_transaction_id: 'hidden-1:win', ...owed },
      { round_id: 'hidden-2', payout: '0.20000000', win_transaction_id: 'hidden-2:win', ...owed },
      { round_id: 'shown', state: 'open', payout: null, multiplier: null, mines_end: null, win_transaction_id: 'shown:win', stale: false },
    ]);
    expect((await rounds(sessions.other)).map((row) => [row.round_id, row.state])).toEqual([
      ['alone', 'open'],
      ['over', 'settled'],
    ]);
  });

  it('pays a hidden demo round back in play money', async () => {
    expect((await rounds(sessions.demo)).map((row) => [row.round_id, row.state, row.payout, row.win_transaction_id])).toEqual([
      ['demo-hidden', 'settled', '4.00000000', null],
      ['demo-shown', 'open', null, null],
    ]);
    const [balance] = await db.query<{ balance: string }>('SELECT balance::text AS balance FROM house_demo_balances WHERE session_id = $1', [sessions.demo]);
    expect(balance!.balance).toBe('994.00000000');
  });

  it('then holds one Mines round in play per session', async () => {
    const insert = (roundId: string, state: string) =>
      db.query(
        `INSERT INTO house_rounds (round_id, session_id, game_id, user_id, demo, engine, currency_code, bet, params, state, created_at, updated_at)
         VALUES ($1, $2, $3, $4, false, 'mines', 'LTC', 0.1, '{}', $5, $6, $6)`,
        [roundId, sessions.real, gameId, userId, state, AT],
      );
    await expect(insert('another', 'betting')).rejects.toThrow(/house_rounds_one_mines_in_play/);
    await db.query("UPDATE house_rounds SET state = 'settling' WHERE round_id = 'shown'");
    await insert('next', 'betting');
  });
});
