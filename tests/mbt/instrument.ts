import type * as XStateReact from '@xstate/react';
import type { ActorOptions as XStateActorOptions, AnyActorLogic, InspectionEvent } from 'xstate';

type Clock = NonNullable<XStateActorOptions<AnyActorLogic>['clock']>;

/*
 * The views create their actors with @xstate/react (useActorRef, useMachine). A model test replaces the
 * module with this wrapper (vi.mock in the test file) so that every actor a view creates reports its
 * microsteps to the running path, and runs on the path's simulated clock when the machine has delays.
 * The views themselves are untouched.
 *
 *   vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));
 */

type Listener = (event: InspectionEvent) => void;

const listeners = new Set<Listener>();
let clock: Clock | null = null;

/** Every inspection event of every actor the views create, until the returned function is called. */
export function listen(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function inspect(event: InspectionEvent): void {
  for (const listener of listeners) listener(event);
}

/** The clock the next actors are created with; null for the real one. */
export function useClock(next: Clock | null): void {
  clock = next;
}

interface ActorOptions {
  inspect?: unknown;
  clock?: Clock;
}

function withInspection<T>(options: T): T {
  const own = (options as ActorOptions | undefined)?.inspect;
  return {
    ...options,
    inspect: (event: InspectionEvent) => {
      if (typeof own === 'function') (own as Listener)(event);
      inspect(event);
    },
    ...(clock ? { clock } : {}),
  };
}

export function instrumented(original: typeof XStateReact): typeof XStateReact {
  const useActorRef = ((logic: unknown, options?: unknown, observer?: unknown) =>
    (original.useActorRef as (...args: unknown[]) => unknown)(logic, withInspection(options ?? {}), observer)) as typeof original.useActorRef;
  const useMachine = ((logic: unknown, options?: unknown) =>
    (original.useMachine as (...args: unknown[]) => unknown)(logic, withInspection(options ?? {}))) as typeof original.useMachine;
  return { ...original, useActorRef, useMachine };
}
