import type { AnyStateMachine, EventFromLogic, InputFrom } from 'xstate';

/*
 * What a flow can see, for the model-based tests (tests/mbt) and the /flows simulator: every event the
 * player can send, with example payloads, and every outcome of every actor the machine invokes. The model
 * tests walk the machine with these and fail when one is missing; the simulator offers the same choices.
 */

/** The outcomes of one invoked actor (by its `src`), each under a name shown to reviewers. */
export interface ActorOutcomes {
  /** Successful outputs, e.g. `{ 'signed in': session }`. */
  done: Record<string, unknown>;
  /** Failures the actor rejects with (ApiFailure instances), e.g. `{ 'wrong password': new ApiFailure(400, 'WRONG_PASSWORD') }`. */
  error: Record<string, unknown>;
}

export type EventsOf<TMachine extends AnyStateMachine> = {
  [K in EventFromLogic<TMachine>['type']]: readonly Extract<EventFromLogic<TMachine>, { type: K }>[];
};

export interface MachineFixtures<TMachine extends AnyStateMachine> {
  /** The input the flow starts with, when it takes one. */
  input?: InputFrom<TMachine>;
  /**
   * Every event type the machine accepts, each with one or more examples; between them they must take
   * every guarded alternative (a valid and an invalid form, ...).
   */
  events: EventsOf<TMachine>;
  /** Every actor `src` the machine invokes, with its outcomes. */
  actors: Record<string, ActorOutcomes>;
}
