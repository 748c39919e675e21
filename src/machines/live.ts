import { fromCallback, type EventObject } from 'xstate';
import type { components } from '../api/schema.d.ts';

/*
 * The player's live updates (GET /user/events, Server-Sent Events), as the machines receive them. A
 * machine that shows something the server can change on its own (a balance, a deposit's confirmations,
 * a withdrawal's settlement, the notification badge) invokes the `liveEvents` actor beside its loading,
 * so that nothing that happens while it loads is missed, and handles the LIVE.* events it cares about.
 * The app provides the actor once for every machine (src/views/wiring.ts): every subscriber shares the
 * session's one stream, which reconnects with backoff; after a reconnect the machines are sent
 * LIVE.RECONNECTED and refetch what they show, since events may have been missed meanwhile.
 */

export type Wallet = components['schemas']['Wallet'];
export type Notification = components['schemas']['Notification'];

/** A deposit in flight or just settled (GET /payment/activity, the stream's `deposit` event). */
export type DepositActivity = components['schemas']['DepositActivity'];

/** A withdrawal request pending or just settled (GET /payment/activity, the stream's `withdrawal` event). */
export type WithdrawalActivity = components['schemas']['WithdrawalActivity'];

export type LiveEvent =
  | { type: 'LIVE.WALLETS'; wallets: Wallet[] }
  | { type: 'LIVE.DEPOSIT'; deposit: DepositActivity }
  | { type: 'LIVE.WITHDRAWAL'; withdrawal: WithdrawalActivity }
  | { type: 'LIVE.NOTIFICATION'; notification: Notification; unreadCount: number }
  /** The stream came back after a drop: what was shown may have changed meanwhile. */
  | { type: 'LIVE.RECONNECTED' };

/** The actors that never answer: they send events to the machine until it stops them. */
export const SUBSCRIPTION_ACTORS: readonly string[] = ['liveEvents'];

/** Whether an invoked actor is a subscription (no done or error outcome: it only sends events). */
export function isSubscription(src: string): boolean {
  return SUBSCRIPTION_ACTORS.includes(src);
}

/**
 * The placeholder of the `liveEvents` actor: a machine declares it, the app provides the real one (the
 * session's stream), tests a fake that sends what the path says. Run without either, it fails loudly.
 */
export const liveEventsNotProvided = fromCallback<EventObject>(() => {
  throw new Error('actor not provided: liveEvents');
});

/** The real `liveEvents` actor over a source of live events (the session's stream). */
export function liveEventsActor(subscribe: (listener: (event: LiveEvent) => void) => () => void) {
  return fromCallback<EventObject>(({ sendBack }) => subscribe((event) => sendBack(event)));
}
