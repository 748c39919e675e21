import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine, type AnyEventObject, type StateValue } from 'xstate';
import { ApiFailure } from '../machines/failure.ts';
import { isSubscription } from '../machines/live.ts';
import type { ActorOutcomes } from './fixtures.ts';
import type { FlowGraph, FlowState, FlowTransition } from './graph.ts';
import { triggerText } from './labels.ts';
import { operationOf } from './operations.ts';

/*
 * The /flows simulator: a copy of a machine stepped with xstate's pure `transition`, so nothing runs. No
 * action implementation is called (the API, toasts, navigation and storage stay untouched) and no actor
 * is started; the reviewer settles invoked actors by choosing one of the outcomes the model tests use.
 */

/** What the simulator needs of a machine's fixtures (src/flows/fixtures.ts, MachineFixtures). */
export interface SimulatorFixtures {
  input?: unknown;
  inputs?: Readonly<Record<string, unknown>>;
  events: Readonly<Record<string, readonly AnyEventObject[]>>;
  actors: Readonly<Record<string, ActorOutcomes>>;
}

export interface Choice {
  kind: 'event' | 'after' | 'done' | 'error';
  /** The trigger, as the chart writes it: `SUBMIT`, `after 500 ms`, `done: POST /user/login`. */
  label: string;
  /** The example or outcome: `field: email, value: "anasilva"`, `wrong password`. */
  detail: string;
  event: AnyEventObject;
}

/** The ids of the states a state value is in, ancestors included (the machine's root excepted). */
export function activeStateIds(graph: FlowGraph, value: StateValue): Set<string> {
  const byId = new Map(graph.states.map((state) => [state.id, state]));
  const childByKey = (state: FlowState, key: string) =>
    state.children.map((id) => byId.get(id)).find((child): child is FlowState => child !== undefined && child.key === key);
  const active = new Set<string>();
  const visit = (state: FlowState, current: StateValue) => {
    const entries: [string, StateValue | null | undefined][] = typeof current === 'string' ? [[current, null]] : Object.entries(current);
    for (const [key, nested] of entries) {
      const child = childByKey(state, key);
      if (child === undefined) continue;
      active.add(child.id);
      if (nested !== null && nested !== undefined) visit(child, nested);
    }
  };
  const root = graph.states.find((state) => state.parent === null);
  if (root !== undefined) visit(root, value);
  return active;
}

function rootId(graph: FlowGraph): string {
  return graph.states.find((state) => state.parent === null)?.id ?? graph.id;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof Error) return value.message;
  return JSON.stringify(value) ?? String(value);
}

/** An example event's payload, for its button: `field: email, value: "anasilva"`. */
export function payloadText(event: AnyEventObject): string {
  return Object.entries(event)
    .filter(([key]) => key !== 'type')
    .map(([key, value]) => `${key}: ${describe(value)}`)
    .join(', ');
}

function enabled(snapshot: AnyMachineSnapshot, event: AnyEventObject): boolean {
  try {
    return snapshot.can(event);
  } catch {
    // A guard that cannot read this example: not something the reviewer can take.
    return false;
  }
}

/** Every step the reviewer can take from a snapshot: events, delays, and the outcomes of invoked actors. */
export function simulatorChoices(graph: FlowGraph, snapshot: AnyMachineSnapshot, fixtures: SimulatorFixtures | null): Choice[] {
  if (snapshot.status !== 'active') return [];
  const active = activeStateIds(graph, snapshot.value);
  active.add(rootId(graph));
  const transitions: FlowTransition[] = [
    ...graph.edges.filter((transition) => active.has(transition.source)),
    ...graph.states.filter((state) => active.has(state.id)).flatMap((state) => state.internal),
  ];
  const choices: Choice[] = [];

  const eventTypes = [...new Set(transitions.flatMap((transition) => (transition.trigger.kind === 'event' ? [transition.trigger.event] : [])))];
  for (const type of graph.events.filter((event) => eventTypes.includes(event))) {
    const examples = fixtures?.events[type] ?? [{ type }];
    for (const example of examples.length === 0 ? [{ type }] : examples) {
      if (enabled(snapshot, example)) choices.push({ kind: 'event', label: type, detail: payloadText(example), event: example });
    }
  }

  const delays = new Map<string, FlowTransition>();
  for (const transition of transitions) if (transition.trigger.kind === 'after' && !delays.has(transition.eventType)) delays.set(transition.eventType, transition);
  for (const [type, transition] of delays) {
    const event = { type };
    if (enabled(snapshot, event)) choices.push({ kind: 'after', label: triggerText(transition.trigger), detail: 'the time passes', event });
  }

  for (const state of graph.states.filter((candidate) => active.has(candidate.id))) {
    for (const invoke of state.invokes) {
      // A subscription never answers: what it sends comes as the machine's own LIVE.* events.
      if (isSubscription(invoke.src)) continue;
      const operation = operationOf(invoke.src)?.label ?? invoke.src;
      const outcomes = fixtures?.actors[invoke.src] ?? { done: { 'answers (no fixture)': undefined }, error: { 'no answer': new ApiFailure(0, null) } };
      for (const [name, output] of Object.entries(outcomes.done)) {
        const event = { type: `xstate.done.actor.${invoke.id}`, output };
        if (enabled(snapshot, event)) choices.push({ kind: 'done', label: `done: ${operation}`, detail: name, event });
      }
      for (const [name, error] of Object.entries(outcomes.error)) {
        const event = { type: `xstate.error.actor.${invoke.id}`, error };
        if (enabled(snapshot, event)) choices.push({ kind: 'error', label: `error: ${operation}`, detail: name, event });
      }
    }
  }
  return choices;
}

/** The machine's first snapshot, entered with `input`; nothing is run. */
export function startSimulation(machine: AnyStateMachine, input: unknown): AnyMachineSnapshot {
  const [snapshot] = initialTransition(machine, input);
  return snapshot;
}

/** The snapshot after `event`; the actions it would run are returned by xstate and dropped here. */
export function stepSimulation(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: AnyEventObject): AnyMachineSnapshot {
  const [next] = transition(machine, snapshot, event);
  return next;
}

/** A state value as one line: `player.ready`, `form.editing + countries.loaded`. */
export function valueText(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([key, nested]) => (nested === undefined || (typeof nested === 'object' && Object.keys(nested).length === 0) ? key : `${key}.${valueText(nested)}`))
    .join(' + ');
}
