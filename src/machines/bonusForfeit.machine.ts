import { setup } from 'xstate';
import { notProvided, type Notice } from './effects.ts';
import { toFailure } from './failure.ts';
import type { UserBonus } from './bonuses.machine.ts';

/*
 * Forfeiting a bonus of the player's, active or queued (SPEC §4, §8, §9): a confirmation that says what
 * is lost (the bonus money left, the wagering done), then POST /bonus/cancel. When the answer says
 * success, "Bonus Forfeited." shows and the dialog closes (the screen then reads the lists again: the
 * oldest queued bonus is the active one now); a refusal shows its SPEC §8 message, or "Something went
 * wrong.", and the confirmation stays. Cancelling closes the dialog and changes nothing.
 */

export type ForfeitRequest = { userBonusId: number };

export interface BonusForfeitInput {
  bonus: UserBonus;
}

export interface BonusForfeitContext {
  bonus: UserBonus;
}

export type BonusForfeitEvent = { type: 'CONFIRM' } | { type: 'CANCEL' };

export const bonusForfeitMachine = setup({
  types: {
    context: {} as BonusForfeitContext,
    events: {} as BonusForfeitEvent,
    input: {} as BonusForfeitInput,
  },
  actors: {
    /** POST /bonus/cancel; answers only when the server says success. */
    forfeitBonus: notProvided<void, ForfeitRequest>('forfeitBonus'),
  },
  actions: {
    notify: (_, _params: Notice) => {},
    /** The confirmation goes away (its address with it). */
    close: () => {},
  },
}).createMachine({
  id: 'bonusForfeit',
  context: ({ input }) => ({ bonus: input.bonus }),
  initial: 'confirming',
  states: {
    confirming: {
      on: {
        CONFIRM: 'forfeiting',
        CANCEL: { target: 'cancelled', actions: 'close' },
      },
    },
    forfeiting: {
      invoke: {
        src: 'forfeitBonus',
        input: ({ context }) => ({ userBonusId: context.bonus.id }),
        onDone: {
          target: 'forfeited',
          actions: [{ type: 'notify', params: { tone: 'success', message: 'messages.bonusForfeited' } }, 'close'],
        },
        onError: {
          target: 'confirming',
          actions: { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, code: toFailure(event.error).code, fallback: 'bonus' as const }) },
        },
      },
    },
    cancelled: { type: 'final' },
    forfeited: { type: 'final' },
  },
});
