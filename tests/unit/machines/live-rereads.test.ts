import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { ACTIVE, COMPLETED, OFFERS } from '../../../src/flows/fixtures/bonus.ts';
import { ADDRESS_PROOF, IDENTITY, PASSPORT_UNDER_REVIEW } from '../../../src/flows/fixtures/documents.ts';
import { notification } from '../../../src/flows/fixtures/notifications.ts';
import { CREDITED_WALLETS } from '../../../src/flows/fixtures/wallets.ts';
import { bonusesMachine, type UserBonus } from '../../../src/machines/bonuses.machine.ts';
import { documentsMachine, type Document } from '../../../src/machines/documents.machine.ts';
import { deferred, flush, type Deferred } from './fixtures.ts';

/*
 * A live update that comes while a list is being read again: that read may have been answered from before
 * the change (a round's win announced, the list asked for, then the next bet, which completes the bonus,
 * announced before the answer). The read starts over, and the first answer, arriving anyway, is never
 * shown: the list ends as the last change left it.
 */

/** Answers held until the test gives them, like a server that answers a stopped call anyway. */
function calls<T>() {
  const made: Deferred<T>[] = [];
  const actor = fromPromise<T, undefined>(() => {
    const answer = deferred<T>();
    made.push(answer);
    return answer.promise;
  });
  return { made, actor };
}

describe('a live update while a list is read again', () => {
  it('bonuses: the player\'s bonuses are asked again, and the stale answer is never shown', async () => {
    const mine = calls<UserBonus[]>();
    const actor = createActor(
      bonusesMachine.provide({
        actors: {
          loadBonusOffers: fromPromise(async () => OFFERS),
          loadUserBonuses: mine.actor,
          liveEvents: fromCallback(() => undefined),
        },
      }),
      { input: { tab: 'active' } },
    ).start();
    await flush();
    mine.made[0]!.resolve([ACTIVE]);
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');

    // A win moves the balance: read again.
    actor.send({ type: 'LIVE.WALLETS', wallets: CREDITED_WALLETS });
    expect(actor.getSnapshot().value).toBe('refreshing');
    expect(mine.made).toHaveLength(2);
    // The next bet, which completes the bonus, before that read's answer: read once more.
    actor.send({ type: 'LIVE.WALLETS', wallets: CREDITED_WALLETS });
    expect(mine.made).toHaveLength(3);
    expect(actor.getSnapshot().value).toBe('refreshing');

    // The first read's answer (the bonus still active) comes late, and is not shown.
    mine.made[1]!.resolve([ACTIVE]);
    await flush();
    expect(actor.getSnapshot().value).toBe('refreshing');
    mine.made[2]!.resolve([{ ...COMPLETED, id: ACTIVE.id, bonus: ACTIVE.bonus }]);
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.mine.map((bonus) => [bonus.id, bonus.status])).toEqual([[ACTIVE.id, 'completed']]);

    // A stream back from a drop while a read is on its way: the same.
    actor.send({ type: 'LIVE.WALLETS', wallets: CREDITED_WALLETS });
    actor.send({ type: 'LIVE.RECONNECTED' });
    expect(mine.made).toHaveLength(5);
    actor.stop();
  });

  it('documents: the list is read again, and the stale answer is never shown', async () => {
    const documents = calls<Document[]>();
    const actor = createActor(
      documentsMachine.provide({
        actors: {
          loadDocumentLabels: fromPromise(async () => [IDENTITY, ADDRESS_PROOF]),
          loadDocuments: documents.actor,
          liveEvents: fromCallback(() => undefined),
        },
      }),
      { input: { profileComplete: true } },
    ).start();
    await flush();
    documents.made[0]!.resolve([PASSPORT_UNDER_REVIEW]);
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');

    const review = { type: 'LIVE.NOTIFICATION', notification: { ...notification(26), read: false }, unreadCount: 1 } as const;
    actor.send(review);
    expect(actor.getSnapshot().value).toBe('reloading');
    expect(documents.made).toHaveLength(2);
    // A second review (the other document) before that read's answer: read once more.
    actor.send(review);
    expect(documents.made).toHaveLength(3);

    documents.made[1]!.resolve([PASSPORT_UNDER_REVIEW]);
    await flush();
    expect(actor.getSnapshot().value).toBe('reloading');
    const approved: Document = { ...PASSPORT_UNDER_REVIEW, status: 'Approved' };
    documents.made[2]!.resolve([approved]);
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.documents.map((document) => document.status)).toEqual(['Approved']);

    actor.send(review);
    actor.send({ type: 'LIVE.RECONNECTED' });
    expect(documents.made).toHaveLength(5);
    actor.stop();
  });
});
