import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotency } from '../../server/domain/ledger.ts';
import { playableGame, signedGameWalletCall, startTestServer, type TestServer } from '../helpers/api.ts';
import { expectLedgerBalanced, fundedPlayer } from '../helpers/money.ts';

/**
 * The money path's references (migrations 0027 and 0028): what nine foreign keys held, checked once per
 * statement over the rows it wrote, and not at all for the batch functions' own writes, which check their
 * calls themselves. A row that refers to nothing is refused with the foreign key's name and code, a statement with
 * one such row among good ones writes none of them, and the rows referred to are never taken away.
 */

let server: TestServer;
let game: { id: number; providerId: number; secret: string };

beforeAll(async () => {
  server = await startTestServer({ PAYMENT_WEBHOOK_SECRET: 'reference-checks-test-webhook-secret' });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  game = await playableGame(server);
});
afterAll(async () => server.close());

interface Played {
  userId: number;
  walletId: number;
  currencyId: number;
  otherCurrencyId: number;
  sessionId: string;
  roundPk: number;
  actionId: number;
  ledgerId: number;
}

let sequence = 0;

/** A currency other than the given one: a wallet's id with it names no wallet of that player. */
async function otherCurrency(currencyId: number): Promise<number> {
  const [other] = await server.db.query<{ id: number }>('SELECT id FROM currencies WHERE id <> $1 ORDER BY id LIMIT 1', [currencyId]);
  return other!.id;
}

/** A funded player's real-money session, a bet played through the provider's signed call, and its rows. */
async function played(): Promise<Played> {
  const player = await fundedPlayer(server, '1');
  const init = await server.call('casinoInitGame', { token: player.token, body: { gameId: game.id, currencyCode: 'LTC' } });
  expect(init.status, JSON.stringify(init.body)).toBe(200);
  const sessionId = init.body.data.gameSession.sessionId as string;
  const bet = await signedGameWalletCall(server, game.secret, 'gameWalletBet', {
    sessionId,
    roundId: `ref-round-${(sequence += 1)}`,
    transactionId: `ref-bet-${sequence}`,
    amount: '0.1',
  });
  expect(bet.status, JSON.stringify(bet.body)).toBe(200);
  const [row] = await server.db.query<Omit<Played, 'otherCurrencyId' | 'sessionId'>>(
    `SELECT r.user_id AS "userId", r.wallet_id AS "walletId", r.currency_id AS "currencyId", r.id AS "roundPk", a.id AS "actionId",
       a.ledger_transaction_id AS "ledgerId"
     FROM game_rounds r JOIN game_wallet_actions a ON a.round_pk = r.id WHERE r.session_id = $1`,
    [sessionId],
  );
  return { ...row!, otherCurrencyId: await otherCurrency(row!.currencyId), sessionId };
}

const count = async (sql: string, params: unknown[]) => Number((await server.db.query<{ n: string }>(sql, params))[0]!.n);

function insertRound(p: Played, rows: { sessionId: string; userId: number; currencyId: number }[]) {
  const values = rows.map((_, k) => `($1, $${4 * k + 2}, $${4 * k + 3}, $${4 * k + 4}, ${p.walletId}, $${4 * k + 5}, ${game.id}, now(), now())`);
  return server.db.query(
    `INSERT INTO game_rounds (provider_id, round_id, session_id, user_id, wallet_id, currency_id, game_id, created_at, updated_at)
     VALUES ${values.join(', ')}`,
    [game.providerId, ...rows.flatMap((row) => [`ref-extra-${randomUUID()}`, row.sessionId, row.userId, row.currencyId])],
  );
}

describe('rows that refer to nothing', () => {
  it('are refused as the foreign keys refused them, by name', async () => {
    const p = await played();
    const good = { sessionId: p.sessionId, userId: p.userId, currencyId: p.currencyId };

    await expect(insertRound(p, [{ ...good, sessionId: 'x'.repeat(40) }])).rejects.toThrow(
      /violates foreign key constraint "game_rounds_session_id_fkey"/,
    );
    await expect(insertRound(p, [{ ...good, currencyId: p.otherCurrencyId }])).rejects.toThrow(
      /violates foreign key constraint "game_rounds_wallet_id_user_id_currency_id_fkey"/,
    );
    await expect(
      server.db.query(
        `INSERT INTO ledger_transactions (public_id, kind, request_hash, user_id, wallet_id, currency_id, type, action_type, status, amount,
           before_balance, after_balance, created_at)
         VALUES ($1, 'adjustment', 'hash', $2, $3, $4, 'deposit', 'deposit', 'completed', 1, 0, 1, now())`,
        [randomUUID(), p.userId, p.walletId, p.otherCurrencyId],
      ),
    ).rejects.toThrow(/violates foreign key constraint "ledger_transactions_wallet_id_user_id_currency_id_fkey"/);
    await expect(
      server.db.query(
        `INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
         SELECT $1, a.id, a.currency_id, 1 FROM ledger_accounts a WHERE a.wallet_id = $2 AND a.kind = 'available'`,
        [2 ** 40, p.walletId],
      ),
    ).rejects.toThrow(/violates foreign key constraint "ledger_entries_transaction_xact"/);
    const action = (roundPk: number, ledgerId: number | null) =>
      server.db.query(
        `INSERT INTO game_wallet_actions (round_pk, action, transaction_id, user_id, amount, bonus_amount, request_hash, ledger_transaction_id,
           available_after, bonus_after, created_at)
         VALUES ($1, 'win', $2, $3, 0, 0, 'hash', $4, 0, 0, now())`,
        [roundPk, `ref-win-${randomUUID()}`, p.userId, ledgerId],
      );
    await expect(action(2 ** 40, null)).rejects.toThrow(/violates foreign key constraint "game_wallet_actions_round_pk_fkey"/);
    await expect(action(p.roundPk, 2 ** 40)).rejects.toThrow(/violates foreign key constraint "game_wallet_actions_ledger_transaction_id_fkey"/);
    // The code is the foreign key's.
    await expect(insertRound(p, [{ ...good, sessionId: 'y'.repeat(40) }])).rejects.toMatchObject({ code: '23503' });

    // Rows that refer to what exists are written, the same statement's rows checked all together.
    await insertRound(p, [good, good]);
    await action(p.roundPk, p.ledgerId);
    expect(await count('SELECT count(*) AS n FROM game_rounds WHERE session_id = $1', [p.sessionId])).toBe(3);
  });

  it('fail their whole statement, the good rows beside them too', async () => {
    const p = await played();
    const good = { sessionId: p.sessionId, userId: p.userId, currencyId: p.currencyId };
    await expect(insertRound(p, [good, good, { ...good, userId: p.userId + 1_000_000 }, good])).rejects.toThrow(
      /game_rounds_wallet_id_user_id_currency_id_fkey/,
    );
    expect(await count('SELECT count(*) AS n FROM game_rounds WHERE session_id = $1', [p.sessionId])).toBe(1);
  });
});

describe('the rows referred to', () => {
  it('are kept, with their keys, and so are the references of rounds and calls', async () => {
    const p = await played();
    const refusals: [string, unknown[]][] = [
      ['DELETE FROM game_sessions WHERE id = $1', [p.sessionId]],
      ['UPDATE game_sessions SET id = $2 WHERE id = $1', [p.sessionId, 'z'.repeat(40)]],
      ['DELETE FROM wallets WHERE id = $1', [p.walletId]],
      ['UPDATE wallets SET user_id = (SELECT min(u.id) FROM users u WHERE u.id <> $2) WHERE id = $1', [p.walletId, p.userId]],
      ['DELETE FROM game_rounds WHERE id = $1', [p.roundPk]],
      ['UPDATE game_rounds SET id = id + 1000000 WHERE id = $1', [p.roundPk]],
      ['UPDATE game_rounds SET session_id = $2 WHERE id = $1', [p.roundPk, 'z'.repeat(40)]],
      ['DELETE FROM game_wallet_actions WHERE id = $1', [p.actionId]],
      ['UPDATE game_wallet_actions SET ledger_transaction_id = NULL WHERE id = $1', [p.actionId]],
    ];
    for (const [sql, params] of refusals) {
      await expect(server.db.query(sql, params), sql).rejects.toMatchObject({ code: '23503' });
    }
    // A statement that names a key column is refused, whatever it would change; other columns change as before.
    await expect(server.db.query('UPDATE wallets SET user_id = user_id WHERE id = $1', [p.walletId])).rejects.toThrow(
      /wallets does not change id, user_id, currency_id of its rows/,
    );
    await server.db.query('UPDATE game_sessions SET expires_at = expires_at WHERE id = $1', [p.sessionId]);
    await server.db.query('UPDATE game_rounds SET updated_at = updated_at WHERE id = $1', [p.roundPk]);
    expect(await count('SELECT count(*) AS n FROM game_wallet_actions WHERE round_pk = $1 AND ledger_transaction_id = $2', [p.roundPk, p.ledgerId])).toBe(1);
    await expectLedgerBalanced(server);
  });
});

describe('game_wallet_play_batch', () => {
  const batch = (p: Played, currencyId: number, roundId: string) => {
    const key = idempotency.game(roundId, 'bet');
    return [
      ['bet'],
      [p.walletId],
      [p.userId],
      [currencyId],
      [false],
      [game.providerId],
      [p.sessionId],
      [game.id],
      ['ref-game'],
      [roundId],
      [`${roundId}-bet`],
      ['0.01'],
      ['request-hash'],
      [randomUUID()],
      [key.scope],
      [key.key],
      ['ledger-hash'],
      [game.secret],
      server.clock.now(),
    ];
  };
  const SQL = 'SELECT out_status FROM game_wallet_play_batch($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)';

  it('leaves a call whose wallet is not its player’s in its currency to the server, writing nothing', async () => {
    const p = await played();
    const rows = await server.db.query<{ out_status: string }>(SQL, batch(p, p.otherCurrencyId, `ref-batch-${randomUUID()}`));
    expect(rows.map((row) => row.out_status)).toEqual(['changed']);
    expect(await count('SELECT count(*) AS n FROM game_rounds WHERE session_id = $1', [p.sessionId])).toBe(1);
  });

  it('vouches for its own write alone: a later statement of its transaction is checked', async () => {
    const p = await played();
    const roundId = `ref-batch-${randomUUID()}`;
    const outcome = await server.db
      .transaction(async (tx) => {
        const rows = await tx.query<{ out_status: string }>(SQL, batch(p, p.currencyId, roundId));
        expect(rows.map((row) => row.out_status)).toEqual(['done']);
        await tx.query(
          `INSERT INTO game_rounds (provider_id, round_id, session_id, user_id, wallet_id, currency_id, game_id, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now())`,
          [game.providerId, `${roundId}-after`, 'x'.repeat(40), p.userId, p.walletId, p.currencyId, game.id],
        );
        return 'written';
      })
      .catch((error: unknown) => String(error));
    expect(outcome).toMatch(/game_rounds_session_id_fkey/);
    // The batch's bet went with its transaction.
    expect(await count('SELECT count(*) AS n FROM game_rounds WHERE round_id = $1', [roundId])).toBe(0);

    const rows = await server.db.query<{ out_status: string }>(SQL, batch(p, p.currencyId, roundId));
    expect(rows.map((row) => row.out_status)).toEqual(['done']);
    expect(await count('SELECT count(*) AS n FROM game_rounds WHERE round_id = $1', [roundId])).toBe(1);
    await expectLedgerBalanced(server);
  });
});

/**
 * A deposit's references (migration 0028): its address, and its wallet with that wallet's player and
 * currency; a notification's player. deposit_notification_apply_batch vouches for its own write, as the game
 * wallet's batch does; every other statement is checked.
 */
describe('deposits and notifications', () => {
  interface Credited {
    userId: number;
    walletId: number;
    currencyId: number;
    addressId: number;
    depositId: number;
    otherCurrencyId: number;
  }

  /** A player funded through the payment simulator: a transfer seen, then credited, by signed webhooks. */
  async function credited(): Promise<Credited> {
    const player = await fundedPlayer(server, '1');
    const [row] = await server.db.query<Omit<Credited, 'otherCurrencyId'>>(
      `SELECT d.user_id AS "userId", d.wallet_id AS "walletId", d.currency_id AS "currencyId", d.deposit_address_id AS "addressId",
         d.id AS "depositId"
       FROM deposits d JOIN deposit_addresses a ON a.id = d.deposit_address_id WHERE a.address = $1 AND d.status = 'credited'`,
      [player.depositAddress],
    );
    return { ...row!, otherCurrencyId: await otherCurrency(row!.currencyId) };
  }

  const insertDeposits = (rows: { addressId: number; walletId: number; userId: number; currencyId: number }[]) =>
    server.db.query(
      `INSERT INTO deposits (provider, provider_tx_id, deposit_address_id, wallet_id, user_id, currency_id, amount, confirmations, status,
         created_at, updated_at)
       SELECT 'simulator', 'ref-transfer-' || gen_random_uuid(), r.address_id, r.wallet_id, r.user_id, r.currency_id, 1, 0, 'pending', now(), now()
       FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::integer[]) AS r(address_id, wallet_id, user_id, currency_id)`,
      [rows.map((r) => r.addressId), rows.map((r) => r.walletId), rows.map((r) => r.userId), rows.map((r) => r.currencyId)],
    );
  const depositsOf = (userId: number) => count('SELECT count(*) AS n FROM deposits WHERE user_id = $1', [userId]);
  const notify = (userIds: number[]) =>
    server.db.query(
      `INSERT INTO user_notifications (user_id, title, message) SELECT u, 'Reference check', 'A notice' FROM unnest($1::bigint[]) AS u`,
      [userIds],
    );

  it('refuse a transfer or a notice that refers to nothing, by the foreign key’s name, and its whole statement', async () => {
    const p = await credited();
    const good = { addressId: p.addressId, walletId: p.walletId, userId: p.userId, currencyId: p.currencyId };
    const before = await depositsOf(p.userId);

    await expect(insertDeposits([{ ...good, addressId: 2 ** 40 }])).rejects.toThrow(/violates foreign key constraint "deposits_deposit_address_id_fkey"/);
    await expect(insertDeposits([good, { ...good, currencyId: p.otherCurrencyId }])).rejects.toThrow(
      /violates foreign key constraint "deposits_wallet_user_currency"/,
    );
    await expect(insertDeposits([{ ...good, userId: p.userId + 1_000_000 }])).rejects.toMatchObject({ code: '23503' });
    expect(await depositsOf(p.userId)).toBe(before);
    await insertDeposits([good, good]);
    expect(await depositsOf(p.userId)).toBe(before + 2);

    const notices = await count('SELECT count(*) AS n FROM user_notifications WHERE user_id = $1', [p.userId]);
    await expect(notify([p.userId, 2 ** 40])).rejects.toThrow(/violates foreign key constraint "user_notifications_user_id_fkey"/);
    await notify([p.userId]);
    expect(await count('SELECT count(*) AS n FROM user_notifications WHERE user_id = $1', [p.userId])).toBe(notices + 1);
  });

  it('keep the rows they refer to, and their references', async () => {
    const p = await credited();
    const refusals: [string, unknown[]][] = [
      ['DELETE FROM deposit_addresses WHERE id = $1', [p.addressId]],
      ['UPDATE deposit_addresses SET id = id + 1000000 WHERE id = $1', [p.addressId]],
      ['DELETE FROM users WHERE id = $1', [p.userId]],
      ['UPDATE users SET id = id WHERE id = $1', [p.userId]],
      ['UPDATE deposits SET wallet_id = wallet_id WHERE id = $1', [p.depositId]],
      ['UPDATE deposits SET deposit_address_id = deposit_address_id WHERE id = $1', [p.depositId]],
      ['UPDATE user_notifications SET user_id = user_id WHERE user_id = $1', [p.userId]],
    ];
    for (const [sql, params] of refusals) {
      await expect(server.db.query(sql, params), sql).rejects.toMatchObject({ code: '23503' });
    }
    await expect(server.db.query('UPDATE users SET id = id WHERE id = $1', [p.userId])).rejects.toThrow(/users does not change id of its rows/);
    // Other columns change as before.
    await server.db.query('UPDATE deposits SET updated_at = updated_at WHERE id = $1', [p.depositId]);
    await server.db.query('UPDATE users SET updated_at = updated_at WHERE id = $1', [p.userId]);
    expect(await count('SELECT count(*) AS n FROM deposits WHERE id = $1 AND deposit_address_id = $2', [p.depositId, p.addressId])).toBe(1);
    await expectLedgerBalanced(server);
  });
});
