import { describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../server/db/db.ts';
import { testMigration } from '../helpers/migrations.ts';
import { DomainError } from '../../server/domain/errors.ts';
import { findEarlier, playerRequest, requestHash } from '../../server/domain/player-requests.ts';

/**
 * Migration 0014_player_requests.sql on a database holding the Idempotency-Key records of before: it
 * carries withdrawals' keys and hashes and the bonus answers into player_requests (a claim's request read
 * back from its answer, hashed in SQL the way player-requests.ts hashes it), then drops the old columns
 * and table. On PGlite, or on the PostgreSQL server of TEST_DATABASE_URL in a database of its own.
 */

const AT = new Date('2026-01-02T03:04:05.000Z');

let db: Db;

const one = async <T extends object>(sql: string, params: unknown[] = [], on: Queryable = db): Promise<T> => {
  const [row] = await on.query<T>(sql, params);
  if (!row) throw new Error(`no row: ${sql}`);
  return row;
};

let userId: number;
let withdrawalId: number;
const withdrawalFields = ['0.4', 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9', 'LTC', null] as const;
const claimed = { id: 7, bonusId: 3, currencyId: 1, status: 'active', amount: '0.01' };
const rewarded = { currencyId: 1, currencyCode: 'LTC', amount: '0.002', referredCount: 2 };

testMigration('0014_player_requests.sql', async (target) => {
  db = target;

  const currency = await one<{ id: number }>(
    `INSERT INTO currencies (code, name, decimals, network, min_deposit, min_withdraw, withdraw_fee) VALUES ('LTC', 'Litecoin', 8, 'Litecoin', 0.001, 0.03, 0.000006)
     RETURNING id`,
  );
  userId = (await one<{ id: number }>("INSERT INTO users (email, username, referral_code) VALUES ('old@example.com', 'old', 'OLDCODE1') RETURNING id")).id;
  const wallet = await one<{ id: number }>('INSERT INTO wallets (user_id, currency_id) VALUES ($1, $2) RETURNING id', [userId, currency.id]);
  // The hold as the ledger of that time wrote it: a transaction, its two entries, the cached pending balance.
  const hold = await db.transaction(async (tx) => {
    const posted = await one<{ id: number }>(
      `INSERT INTO ledger_transactions (public_id, kind, request_hash, created_at) VALUES (gen_random_uuid(), 'withdraw.request', 'old-hold', $1)
       RETURNING id`,
      [AT],
      tx,
    );
    await tx.query(
      `INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
       SELECT $1, a.id, a.currency_id, CASE a.kind WHEN 'pending' THEN 0.400006 ELSE -0.400006 END FROM ledger_accounts a
       WHERE (a.wallet_id = $2 AND a.kind = 'pending') OR (a.wallet_id IS NULL AND a.currency_id = $3 AND a.kind = 'adjustments')`,
      [posted.id, wallet.id, currency.id],
    );
    await tx.query('UPDATE wallets SET pending = pending + 0.400006 WHERE id = $1', [wallet.id]);
    return posted;
  });
  withdrawalId = (
    await one<{ id: number }>(
      `INSERT INTO withdrawals (provider, wallet_id, user_id, currency_id, address, amount, fee, status, idempotency_key, request_hash,
         hold_transaction_id, created_at, updated_at)
       VALUES ('simulator', $1, $2, $3, $4, 0.4, 0.000006, 'requested', 'withdraw-old', $5, $6, $7, $7) RETURNING id`,
      [wallet.id, userId, currency.id, withdrawalFields[1], requestHash(withdrawalFields), hold.id, AT],
    )
  ).id;

  for (const [operation, key, response] of [
    ['bonusAvail', 'claim-old', claimed],
    ['bonusAvailReferral', 'referral-old', rewarded],
    ['bonusCancel', 'forfeit-old', { success: true }],
  ] as const) {
    await db.query('INSERT INTO bonus_request_results (scope, key, response, created_at) VALUES ($1, $2, $3::jsonb, $4)', [
      `player:${userId}:${operation}`,
      key,
      JSON.stringify(response),
      AT,
    ]);
  }

});

describe('migration 0014_player_requests', () => {
  it('carries every key over, with its request hash and its answer', async () => {
    const rows = await db.query<{ operation: string; key: string; request_hash: string | null; response: unknown; withdrawal_id: number | null }>(
      'SELECT operation, key, request_hash, response, withdrawal_id FROM player_requests WHERE user_id = $1 ORDER BY operation',
      [userId],
    );
    expect(rows).toEqual([
      { operation: 'bonusAvail', key: 'claim-old', request_hash: requestHash([3, 1]), response: claimed, withdrawal_id: null },
      { operation: 'bonusAvailReferral', key: 'referral-old', request_hash: requestHash([1]), response: rewarded, withdrawal_id: null },
      { operation: 'bonusCancel', key: 'forfeit-old', request_hash: null, response: { success: true }, withdrawal_id: null },
      { operation: 'paymentWithdraw', key: 'withdraw-old', request_hash: requestHash(withdrawalFields), response: null, withdrawal_id: withdrawalId },
    ]);
  });

  it('answers the carried-over keys as player-requests.ts answers its own', async () => {
    const earlier = (operation: Parameters<typeof playerRequest>[1], key: string, fields: Parameters<typeof playerRequest>[3]) =>
      findEarlier(db, playerRequest(userId, operation, key, fields)!);
    const reused = new DomainError('IDEMPOTENCY_KEY_REUSED');

    expect(await earlier('bonusAvail', 'claim-old', [3, 1])).toEqual({ response: claimed, withdrawalId: null });
    await expect(earlier('bonusAvail', 'claim-old', [4, 1])).rejects.toEqual(reused);
    expect(await earlier('bonusAvailReferral', 'referral-old', [1])).toEqual({ response: rewarded, withdrawalId: null });
    await expect(earlier('bonusAvailReferral', 'referral-old', [2])).rejects.toEqual(reused);
    expect(await earlier('paymentWithdraw', 'withdraw-old', [...withdrawalFields])).toEqual({ response: null, withdrawalId });
    await expect(earlier('paymentWithdraw', 'withdraw-old', ['0.3', withdrawalFields[1], 'LTC', null])).rejects.toEqual(reused);
    // A forfeit's request cannot be read back from its answer: its key matches no request.
    await expect(earlier('bonusCancel', 'forfeit-old', [1])).rejects.toEqual(reused);
  });

  it('drops the records it replaces', async () => {
    const columns = await db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'withdrawals' AND column_name IN ('idempotency_key', 'request_hash')",
    );
    expect(columns).toEqual([]);
    expect(await one<{ old: string | null }>("SELECT to_regclass('bonus_request_results')::text AS old")).toEqual({ old: null });
  });
});
