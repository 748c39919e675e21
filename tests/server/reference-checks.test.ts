import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constraintOf } from '../../server/db/db.ts';
import { idempotency } from '../../server/domain/ledger.ts';
import { playableGame, signedGameWalletCall, startTestServer, type TestServer } from '../helpers/api.ts';
import { depositAddress, expectLedgerBalanced, fundedPlayer } from '../helpers/money.ts';

/**
 * The money tables' references are the database's foreign keys (migration 0037): a row that names a missing
 * wallet, game session, round, ledger transaction, deposit address or player is refused with the key's code
 * (23503) and name, whichever path writes it: a plain statement, the batch functions' writes, a transaction
 * that sets casino.references_checked (no setting turns a key off). A statement with one such row among good
 * ones writes none of them, and a row referred to cannot be taken away from under the rows that name it.
 */

let server: TestServer;
let game: { id: number; providerId: number; secret: string };

beforeAll(async () => {
  server = await startTestServer({ PAYMENT_WEBHOOK_SECRET: 'reference-checks-test-webhook-secret', RATE_LIMIT: 'false' });
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

/** What a write failed with: its code and the constraint it names ('written' when it was not refused). */
async function refusal(write: Promise<unknown>): Promise<{ code: unknown; constraint: string } | 'written'> {
  try {
    await write;
    return 'written';
  } catch (error) {
    return { code: (error as { code?: unknown }).code, constraint: constraintOf(error) };
  }
}
const refusedBy = (constraint: string) => ({ code: '23503', constraint });

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
    await expect(
      server.db.query(
        `WITH t AS (INSERT INTO ledger_transactions (public_id, kind, request_hash, created_at) VALUES ($1, 'adjustment', 'hash', now()) RETURNING id)
         INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
         SELECT t.id, a.id, a.currency_id, 1 FROM t, ledger_accounts a WHERE a.wallet_id = $2 AND a.kind = 'available'
         UNION ALL SELECT t.id, (2 ^ 40)::bigint, $3, -1 FROM t`,
        [randomUUID(), p.walletId, p.currencyId],
      ),
    ).rejects.toThrow(/violates foreign key constraint "ledger_entries_account_currency"/);
    const action = (roundPk: number, ledgerId: number | null) =>
      server.db.query(
        `INSERT INTO game_wallet_actions (round_pk, action, transaction_id, user_id, amount, bonus_amount, request_hash, ledger_transaction_id,
           available_after, bonus_after, created_at)
         VALUES ($1, 'win', $2, $3, 0, 0, 'hash', $4, 0, 0, now())`,
        [roundPk, `ref-win-${randomUUID()}`, p.userId, ledgerId],
      );
    await expect(action(2 ** 40, null)).rejects.toThrow(/violates foreign key constraint "game_wallet_actions_round_pk_fkey"/);
    await expect(action(p.roundPk, 2 ** 40)).rejects.toThrow(/violates foreign key constraint "game_wallet_actions_ledger_transaction_id_fkey"/);
    await expect(
      server.db.query(
        `INSERT INTO game_wallet_actions (round_pk, action, transaction_id, user_id, amount, bonus_amount, request_hash, available_after,
           bonus_after, created_at)
         VALUES ($1, 'win', $2, $3, 0, 0, 'hash', 0, 0, now())`,
        [p.roundPk, `ref-win-${randomUUID()}`, 2 ** 40],
      ),
    ).rejects.toThrow(/violates foreign key constraint "game_wallet_actions_user_id_fkey"/);
    const roundOf = (providerId: number, gameId: number) =>
      server.db.query(
        `INSERT INTO game_rounds (provider_id, round_id, session_id, user_id, wallet_id, currency_id, game_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now())`,
        [providerId, `ref-extra-${randomUUID()}`, p.sessionId, p.userId, p.walletId, p.currencyId, gameId],
      );
    await expect(roundOf(2 ** 30, game.id)).rejects.toThrow(/violates foreign key constraint "game_rounds_provider_id_fkey"/);
    await expect(roundOf(game.providerId, 2 ** 40)).rejects.toThrow(/violates foreign key constraint "game_rounds_game_id_fkey"/);
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
  it('stay while rows name them: a delete or a change of key is refused by the foreign key of the rows that name it', async () => {
    const p = await played();
    const refusals: [string, unknown[], string][] = [
      ['DELETE FROM game_sessions WHERE id = $1', [p.sessionId], 'game_rounds_session_id_fkey'],
      ['UPDATE game_sessions SET id = $2 WHERE id = $1', [p.sessionId, 'z'.repeat(40)], 'game_rounds_session_id_fkey'],
      ['DELETE FROM game_rounds WHERE id = $1', [p.roundPk], 'game_wallet_actions_round_pk_fkey'],
      ['UPDATE game_rounds SET session_id = $2 WHERE id = $1', [p.roundPk, 'z'.repeat(40)], 'game_rounds_session_id_fkey'],
      ['UPDATE game_rounds SET currency_id = $2 WHERE id = $1', [p.roundPk, p.otherCurrencyId], 'game_rounds_wallet_id_user_id_currency_id_fkey'],
      ['UPDATE game_wallet_actions SET ledger_transaction_id = $2 WHERE id = $1', [p.actionId, 2 ** 40], 'game_wallet_actions_ledger_transaction_id_fkey'],
      ['UPDATE game_wallet_actions SET round_pk = $2 WHERE id = $1', [p.actionId, 2 ** 40], 'game_wallet_actions_round_pk_fkey'],
    ];
    for (const [sql, params, constraint] of refusals) {
      expect(await refusal(server.db.query(sql, params)), sql).toEqual(refusedBy(constraint));
    }
    // Other columns change as before.
    await server.db.query('UPDATE game_sessions SET expires_at = expires_at WHERE id = $1', [p.sessionId]);
    await server.db.query('UPDATE game_rounds SET updated_at = updated_at WHERE id = $1', [p.roundPk]);
    expect(await count('SELECT count(*) AS n FROM game_wallet_actions WHERE round_pk = $1 AND ledger_transaction_id = $2', [p.roundPk, p.ledgerId])).toBe(1);
    await expectLedgerBalanced(server);
  });
});

describe('no session setting', () => {
  it('turns a foreign key off: with casino.references_checked on, a row that refers to nothing is still refused', async () => {
    const p = await played();
    const good = { sessionId: p.sessionId, userId: p.userId, currencyId: p.currencyId };
    const withSetting = (write: (tx: Pick<TestServer['db'], 'query'>) => Promise<unknown>) =>
      refusal(
        server.db.transaction(async (tx) => {
          await tx.query("SELECT set_config('casino.references_checked', 'on', true)");
          await write(tx);
        }),
      );
    expect(
      await withSetting((tx) =>
        tx.query(
          `INSERT INTO game_rounds (provider_id, round_id, session_id, user_id, wallet_id, currency_id, game_id, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now())`,
          [game.providerId, `ref-setting-${randomUUID()}`, 'x'.repeat(40), good.userId, p.walletId, good.currencyId, game.id],
        ),
      ),
    ).toEqual(refusedBy('game_rounds_session_id_fkey'));
    expect(
      await withSetting((tx) =>
        tx.query(
          `INSERT INTO ledger_transactions (public_id, kind, request_hash, user_id, wallet_id, currency_id, type, action_type, status, amount,
             before_balance, after_balance, created_at)
           VALUES ($1, 'adjustment', 'hash', $2, $3, $4, 'deposit', 'deposit', 'completed', 1, 0, 1, now())`,
          [randomUUID(), p.userId, p.walletId, p.otherCurrencyId],
        ),
      ),
    ).toEqual(refusedBy('ledger_transactions_wallet_id_user_id_currency_id_fkey'));
    expect(
      await withSetting((tx) =>
        tx.query(`INSERT INTO user_notifications (user_id, title, message) VALUES ($1, 'Reference check', 'A notice')`, [2 ** 40]),
      ),
    ).toEqual(refusedBy('user_notifications_user_id_fkey'));
    expect(await count('SELECT count(*) AS n FROM game_rounds WHERE session_id = $1', [p.sessionId])).toBe(1);
  });
});

describe('game_wallet_play', () => {
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
      [game.secret],
      [null],
      server.clock.now(),
    ];
  };
  const SQL = 'SELECT out_status FROM game_wallet_play($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)';

  it('leaves a call whose wallet is not its player’s in its currency to the server, writing nothing', async () => {
    const p = await played();
    const rows = await server.db.query<{ out_status: string }>(SQL, batch(p, p.otherCurrencyId, `ref-batch-${randomUUID()}`));
    expect(rows.map((row) => row.out_status)).toEqual(['changed']);
    expect(await count('SELECT count(*) AS n FROM game_rounds WHERE session_id = $1', [p.sessionId])).toBe(1);
  });

  it('has its write checked by the foreign keys: a session gone between its checks and its write fails the batch, writing nothing', async () => {
    const p = await played();
    const roundId = `ref-batch-${randomUUID()}`;
    // The session taken away as the batch writes its round, as a concurrent delete committed meanwhile would.
    await server.db.query(`CREATE FUNCTION reference_test_session_gone() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN DELETE FROM game_sessions WHERE id = NEW.session_id; RETURN NEW; END $$`);
    await server.db.query(`CREATE TRIGGER reference_test_session_gone BEFORE INSERT ON game_rounds
      FOR EACH ROW EXECUTE FUNCTION reference_test_session_gone()`);
    const fresh = await server.call('casinoInitGame', { token: (await fundedPlayer(server, '1')).token, body: { gameId: game.id, currencyCode: 'LTC' } });
    const sessionId = fresh.body.data.gameSession.sessionId as string;
    const [wallet] = await server.db.query<{ walletId: number; userId: number; currencyId: number }>(
      `SELECT w.id AS "walletId", w.user_id AS "userId", w.currency_id AS "currencyId" FROM game_sessions s
       JOIN currencies c ON c.code = s.currency_code JOIN wallets w ON w.user_id = s.user_id AND w.currency_id = c.id WHERE s.id = $1`,
      [sessionId],
    );
    try {
      const outcome = await refusal(server.db.query(SQL, batch({ ...p, ...wallet!, sessionId }, wallet!.currencyId, roundId)));
      expect(outcome).toEqual(refusedBy('game_rounds_session_id_fkey'));
    } finally {
      await server.db.query('DROP TRIGGER reference_test_session_gone ON game_rounds');
      await server.db.query('DROP FUNCTION reference_test_session_gone()');
    }
    expect(await count('SELECT count(*) AS n FROM game_rounds WHERE round_id = $1', [roundId])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM game_sessions WHERE id = $1', [sessionId])).toBe(1);
    await expectLedgerBalanced(server);
  });

  it('is checked like any statement, and so is a later statement of its transaction', async () => {
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
 * A deposit's references: its address, and its wallet with that wallet's player and currency; a
 * notification's player. deposit_notification_apply's write of a set is checked by the same foreign keys.
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
    const refusals: [string, unknown[], string][] = [
      ['DELETE FROM deposit_addresses WHERE id = $1', [p.addressId], 'deposits_deposit_address_id_fkey'],
      ['UPDATE deposit_addresses SET id = id + 1000000 WHERE id = $1', [p.addressId], 'deposits_deposit_address_id_fkey'],
      ['UPDATE deposits SET currency_id = $2 WHERE id = $1', [p.depositId, p.otherCurrencyId], 'deposits_wallet_user_currency'],
      ['UPDATE deposits SET deposit_address_id = $2 WHERE id = $1', [p.depositId, 2 ** 40], 'deposits_deposit_address_id_fkey'],
      ['UPDATE user_notifications SET user_id = $2 WHERE user_id = $1', [p.userId, 2 ** 40], 'user_notifications_user_id_fkey'],
    ];
    for (const [sql, params, constraint] of refusals) {
      expect(await refusal(server.db.query(sql, params)), sql).toEqual(refusedBy(constraint));
    }
    // A player is kept by every row that names them.
    expect(await refusal(server.db.query('DELETE FROM users WHERE id = $1', [p.userId]))).toMatchObject({ code: '23503' });
    // Other columns change as before.
    await server.db.query('UPDATE deposits SET updated_at = updated_at WHERE id = $1', [p.depositId]);
    await server.db.query('UPDATE users SET updated_at = updated_at WHERE id = $1', [p.userId]);
    expect(await count('SELECT count(*) AS n FROM deposits WHERE id = $1 AND deposit_address_id = $2', [p.depositId, p.addressId])).toBe(1);
    await expectLedgerBalanced(server);
  });

  it('are checked in deposit_notification_apply’s write: an address gone before it fails the set, writing nothing', async () => {
    const player = await fundedPlayer(server, '1');
    const address = await depositAddress(server, player);
    const txId = `ref-transfer-${randomUUID()}`;
    // The address taken away as the batch writes its deposit, as a concurrent delete committed meanwhile would.
    await server.db.query(`CREATE FUNCTION reference_test_address_gone() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN DELETE FROM deposit_addresses WHERE id = NEW.deposit_address_id; RETURN NEW; END $$`);
    await server.db.query(`CREATE TRIGGER reference_test_address_gone BEFORE INSERT ON deposits
      FOR EACH ROW EXECUTE FUNCTION reference_test_address_gone()`);
    try {
      const key = idempotency.deposit('simulator', txId);
      const outcome = await refusal(
        server.db.query('SELECT * FROM deposit_notification_apply($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)', [
          'simulator', [txId], [address], ['LTC'], ['0.5'], [0], 'LTC', key.scope, [key.key], server.clock.now(),
        ]),
      );
      expect(outcome).toEqual(refusedBy('deposits_deposit_address_id_fkey'));
    } finally {
      await server.db.query('DROP TRIGGER reference_test_address_gone ON deposits');
      await server.db.query('DROP FUNCTION reference_test_address_gone()');
    }
    expect(await count('SELECT count(*) AS n FROM deposits WHERE provider_tx_id = $1', [txId])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM deposit_addresses WHERE address = $1', [address])).toBe(1);
    await expectLedgerBalanced(server);
  });
});
