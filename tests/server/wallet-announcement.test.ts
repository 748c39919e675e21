import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/db.ts';
import { startTestServer, type TestServer } from '../helpers/api.ts';
import { fundedPlayer, walletOf } from '../helpers/money.ts';

/*
 * A wallet's change announced by its trigger (server/db/schema/3_trigger_wallets_announce.sql) only where
 * the server does not announce it itself: a transaction that says casino.announce = 'by_server', as every
 * money path does, queues no trigger event at all, and one that does not is announced once committed.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ PAYMENT_WEBHOOK_SECRET: 'wallet-announcement-test-webhook-secret' });
  // The simulated chain's webhooks reach the server over HTTP.
  await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => server.close());

class RolledBack extends Error {}

const sameJson = (payload: string, expected: object) => JSON.stringify(JSON.parse(payload)) === JSON.stringify(expected);

/** Moves the wallet's balance by one in a transaction that is rolled back: how often the trigger's function ran. */
async function triggerCalls(walletId: number, byServer: boolean): Promise<number> {
  let calls = -1;
  const move = async (tx: Queryable) => {
    await tx.query("SET LOCAL track_functions = 'pl'");
    if (byServer) await tx.query("SELECT set_config('casino.announce', 'by_server', true)");
    await tx.query('UPDATE wallets SET available = available + 1 WHERE id = $1', [walletId]);
    const [row] = await tx.query<{ calls: string | null }>("SELECT pg_stat_get_xact_function_calls('announce_wallet_change'::regproc) AS calls");
    calls = Number(row!.calls ?? 0);
    throw new RolledBack();
  };
  await expect(server.db.transaction(move)).rejects.toBeInstanceOf(RolledBack);
  return calls;
}

describe('wallet announcements', () => {
  it("calls no trigger function for a wallet moved where the server announces (casino.announce = 'by_server')", async () => {
    const player = await fundedPlayer(server, '1');
    const walletId = (await walletOf(server, player)).id;
    expect(await triggerCalls(walletId, true)).toBe(0);
    expect(await triggerCalls(walletId, false)).toBe(1);
  });

  it('announces a balance moved outside the money paths once committed, and nothing for one the server announces', async () => {
    const player = await fundedPlayer(server, '1');
    const walletId = (await walletOf(server, player)).id;
    const announced: string[] = [];
    const stop = await server.db.listen('casino_events', (payload) => announced.push(payload));
    try {
      await server.db.transaction(async (tx) => {
        await tx.query("SELECT set_config('casino.announce', 'by_server', true)");
        await tx.query('UPDATE wallets SET bonus = bonus + 1 WHERE id = $1', [walletId]);
      });
      await server.db.query('UPDATE wallets SET bonus = bonus - 1 WHERE id = $1', [walletId]);
      // Notifications arrive in the order their transactions committed: once the second is here, the first
      // would have come before it.
      const ours = () => announced.filter((payload) => sameJson(payload, { u: player.user.id, k: 'wallets', id: player.user.id })).length;
      await expect.poll(ours).toBeGreaterThan(0);
      expect(ours()).toBe(1);
    } finally {
      await stop();
    }
  });
});
