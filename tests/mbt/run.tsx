import { act } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  fromPromise,
  SimulatedClock,
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type EventFromLogic,
  type EventObject,
  type InputFrom,
  type InspectionEvent,
  type SnapshotFrom,
} from 'xstate';
import type { TypedFixtures } from '../../src/flows/fixtures/typed.ts';
import { createTranslator, type Language, type Translator } from '../../src/i18n/index.ts';
import type { ApiActors } from '../../src/machines/actors.ts';
import { machines, type MachineName } from '../../src/machines/index.ts';
import { shareGooberSheet, type Harness } from '../unit/views/harness.tsx';
import { writeMachineReport } from './coverage.ts';
import { DeferredActors } from './fakes.ts';
import { listen, useClock } from './instrument.ts';
import {
  activeStateIds,
  buildModel,
  leafStateIds,
  machineShape,
  transitionKey,
  type ModelOptions,
  type ModelPath,
  type ModelStep,
} from './model.ts';
import { isApiActor } from './operations.ts';
import { isSubscription, type LiveEvent } from '../../src/machines/live.ts';
import type { LiveSource } from '../../src/views/wiring.ts';

/*
 * Runs a machine's model paths through the view that renders it. For every path: render the view with
 * deferred fake actors, then for every step do what the player does (config.events), settle the fake
 * call (done and error events) or move the simulated clock (delays); wait until the view's own actor has
 * taken exactly the transitions the model predicts and is in the same state with the same context; and
 * assert what the player sees in every state the machine is in (config.states, one assertion per state).
 * Only then do the step's transitions count as covered. The last test of each machine is its gate.
 */

export type UserEvents = ReturnType<typeof userEvent.setup>;

export interface View<TMachine extends AnyStateMachine> {
  user: UserEvents;
  t: Translator['t'];
  language: Language;
  input: InputFrom<TMachine>;
  /** Deferred fakes of every API actor the machine invokes, for the harness's `actors` option. */
  actors: Partial<ApiActors>;
  /**
   * A deferred call of an actor the view implements itself (an SDK), settled by the path; with the
   * actor's signal, a call whose actor was stopped is given up.
   */
  call<T>(src: string, input?: unknown, signal?: AbortSignal): Promise<T>;
  /** For actors the harness creates (settings, app): their transitions are recorded too. */
  inspect: (event: InspectionEvent) => void;
  /** The rendered view (set once `render` returns). */
  harness: Harness;
  /**
   * The session's live updates as the view's flows receive them (pass it to the harness as `live`);
   * `live.send(event)` is how a path's LIVE.* step happens.
   */
  live: LiveFake;
  /** The step being checked: the event (with the outcome it carries) and the snapshot it leads to. */
  step: ModelStep;
  /** Every step so far, this one included. */
  steps: ModelStep[];
}

type EventOf<TMachine extends AnyStateMachine, TType> = Extract<EventFromLogic<TMachine>, { type: TType }>;

export interface ModelTestConfig<TMachine extends AnyStateMachine> {
  fixtures: TypedFixtures<TMachine>;
  strategy?: ModelOptions['strategy'];
  /** What the view lets the player do in a snapshot (see ModelOptions.filterEvents). */
  filterEvents?: ModelOptions['filterEvents'];
  language?: Language;
  /** Renders the view at the start of each path (and may wait for it to get where the machine starts). */
  render(view: View<TMachine>): Harness | Promise<Harness>;
  /** The player action that sends each event the machine takes from outside. */
  events: { [K in EventFromLogic<TMachine>['type']]: (view: View<TMachine>, event: EventOf<TMachine, K>) => Promise<void> };
  /** What the player sees in each atomic or final state, by its path below the root (`form.editing`). */
  states: Record<string, (view: View<TMachine>, snapshot: SnapshotFrom<TMachine>) => void | Promise<void>>;
}

/** The output a done step settled its actor with (what a `done` state's assertion checks the view did with). */
export function outputOf<T>(step: ModelStep): T {
  if (step.kind.kind !== 'done') throw new Error(`${step.label} is not an actor's answer`);
  return (step.event as EventObject & { output: T }).output;
}

function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** The milliseconds of a delay, named ones resolved as the machine resolves them on entering the state. */
function delayOf(machine: AnyStateMachine, delay: string | number, entered: ModelStep): number {
  if (typeof delay === 'number') return delay;
  const named: unknown = (machine.implementations.delays as Record<string, unknown>)[delay];
  if (typeof named === 'number') return named;
  if (typeof named === 'function') return (named as (args: unknown) => number)({ context: entered.state.context, event: entered.event });
  throw new Error(`delay ${delay} is not defined in ${machine.id}`);
}

function hasDelays(machine: AnyStateMachine): boolean {
  const walk = (node: AnyStateNode): boolean =>
    ((node.after ?? []) as unknown[]).length > 0 || Object.values(node.states as Record<string, AnyStateNode>).some(walk);
  return walk(machine.root);
}

/**
 * The srcs the machine is running after a path's steps: one fake call must be waiting for each
 * (subscriptions aside). A state that invokes several actors stays while some have answered: those are
 * done (an answer since the state was last entered).
 */
function runningActors(steps: readonly ModelStep[]): string[] {
  const snapshot = steps[steps.length - 1]!.state;
  if (snapshot.status !== 'active') return [];
  const isActive = (step: ModelStep, node: AnyStateNode) => (step.state._nodes as AnyStateNode[]).includes(node);
  return (snapshot._nodes as AnyStateNode[])
    .flatMap((node) => {
      let entered = steps.length - 1;
      while (entered > 0 && isActive(steps[entered - 1]!, node)) entered -= 1;
      const answered = new Set(
        steps.slice(entered + 1).flatMap((step) => (step.kind.kind === 'done' || step.kind.kind === 'error' ? [step.kind.invokeId] : [])),
      );
      return (node.invoke as { id: string; src: unknown }[]).filter((invoke) => !answered.has(invoke.id)).map((invoke) => String(invoke.src));
    })
    .filter((src) => !isSubscription(src))
    .sort();
}

/** Whether the machine subscribes to live events in a snapshot. */
function subscribed(snapshot: AnyMachineSnapshot): boolean {
  return snapshot.status === 'active' && (snapshot._nodes as AnyStateNode[]).some((node) => (node.invoke as { src: unknown }[]).some((invoke) => isSubscription(String(invoke.src))));
}

/** The live events of a path: what the view's flows subscribed to, and the events the path sends them. */
export class LiveFake implements LiveSource {
  readonly listeners = new Set<(event: LiveEvent) => void>();
  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  /** Sends a live event to every subscriber, as the stream would. */
  async send(event: EventObject): Promise<void> {
    if (this.listeners.size === 0) throw new Error(`${event.type}: no flow is subscribed to live events`);
    await act(async () => {
      for (const listener of [...this.listeners]) listener(event as LiveEvent);
    });
  }
}

/** Lets promises settle and React render, until `done` holds (or says what never happened). */
async function until(done: () => boolean, what: () => string): Promise<void> {
  for (let round = 0; round < 100; round += 1) {
    if (done()) {
      await act(async () => {});
      return;
    }
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  }
  throw new Error(`timed out waiting for ${what()}`);
}

function compact(labels: string[]): string {
  const parts: string[] = [];
  for (let i = 0; i < labels.length; ) {
    const type = labels[i]!.split(' ')[0]!;
    let j = i;
    while (j < labels.length && labels[j]!.split(' ')[0] === type && !labels[j]!.startsWith('done') && !labels[j]!.startsWith('error')) j += 1;
    if (j - i >= 3) {
      parts.push(`${type} ×${j - i}`);
      i = j;
    } else {
      parts.push(labels[i]!);
      i += 1;
    }
  }
  return parts.join(' → ');
}

function pathName(path: ModelPath, index: number, total: number): string {
  const input = path.input === 'default' ? '' : `[${path.input}] `;
  const steps = path.steps.slice(1).map((step) => step.label);
  return `path ${index + 1}/${total}: ${input}${steps.length ? compact(steps) : 'start'}`;
}

interface Coverage {
  transitions: Set<string>;
  states: Set<string>;
}

async function runPath<TMachine extends AnyStateMachine>(
  machine: AnyStateMachine,
  config: ModelTestConfig<TMachine>,
  path: ModelPath,
  coverage: Coverage,
): Promise<void> {
  const deferred = new DeferredActors();
  const language = config.language ?? 'en';
  const translator = createTranslator(language);
  const apiActors: Record<string, unknown> = {};
  for (const src of Object.keys(config.fixtures.actors)) {
    if (isApiActor(src)) apiActors[src] = fromPromise(({ input, signal }) => deferred.call(src, input, signal));
  }

  // The view's actor of this machine, and what it did since the last check.
  let actor: AnyActorRef | null = null;
  const problems: string[] = [];
  let taken: string[] = [];
  const passedThrough = new Set<string>();
  const inspect = (event: InspectionEvent) => {
    const ref = event.actorRef as AnyActorRef & { logic?: { id?: string }; _parent?: unknown };
    if (ref.logic?.id !== machine.id) return;
    // An actor only counts once it runs: React may render a component and throw the render away (a
    // sibling suspending on a lazily loaded chunk), and the actor that render created never starts.
    if (event.type === '@xstate.actor') return;
    if (actor === null) actor = ref;
    else if (actor !== ref) problems.push(`the view ran a second ${machine.id} actor`);
    if (ref !== actor) return;
    if (event.type === '@xstate.microstep') {
      taken.push(...(event._transitions as AnyTransitionDefinition[]).map(transitionKey));
      for (const id of activeStateIds(event.snapshot as AnyMachineSnapshot)) passedThrough.add(id);
    }
  };
  const stopListening = listen(inspect);
  const clock = hasDelays(machine) ? new SimulatedClock() : null;
  useClock(clock);

  const view = {
    user: userEvent.setup({ delay: null }),
    t: translator.t,
    language,
    input: path.inputValue as InputFrom<TMachine>,
    actors: apiActors as Partial<ApiActors>,
    call: <T,>(src: string, input?: unknown, signal?: AbortSignal) => deferred.call<T>(src, input, signal),
    inspect,
    live: new LiveFake(),
    steps: [] as ModelStep[],
  } as Omit<View<TMachine>, 'harness' | 'step'> as View<TMachine>;

  const describeKeys = (keys: string[]) => (keys.length ? keys.join('; ') : 'none');
  let index = -1;
  const exec = async (testStep: { event: EventObject }) => {
    index += 1;
    const step = path.steps[index];
    if (!step || step.event !== testStep.event) throw new Error('the path and the model disagree');
    view.step = step;
    view.steps = path.steps.slice(0, index + 1);
    if (index === 0) {
      shareGooberSheet();
      view.harness = await config.render(view);
    } else if (step.kind.kind === 'done' || step.kind.kind === 'error') {
      const outcome =
        step.kind.kind === 'done'
          ? { done: true as const, output: (step.event as EventObject & { output: unknown }).output }
          : { done: false as const, error: (step.event as EventObject & { error: unknown }).error };
      const src = step.kind.src;
      await act(async () => deferred.settle(src, outcome));
    } else if (step.kind.kind === 'after') {
      if (!clock) throw new Error('a delay without a simulated clock');
      const ms = delayOf(machine, step.kind.delay, path.steps[index - 1]!);
      await act(async () => clock.increment(ms));
    } else {
      const perform = (config.events as Record<string, (view: View<TMachine>, event: EventObject) => Promise<void>>)[step.event.type];
      if (!perform) throw new Error(`no player action for ${step.event.type} in the model test of ${machine.id}`);
      await perform(view, step.event);
    }
    await until(
      () => problems.length > 0 || taken.length >= step.transitions.length,
      () => `the view's ${machine.id} actor to take ${describeKeys(step.transitions)} (took ${describeKeys(taken)})`,
    );
  };

  const check = async () => {
    const step = path.steps[index]!;
    if (problems.length) throw new Error(problems.join('\n'));
    if (!actor) throw new Error(`the view created no ${machine.id} actor`);
    const ref: AnyActorRef = actor;
    expect(taken, `transitions the view's ${machine.id} actor took on "${step.label}"`).toEqual(step.transitions);
    const snapshot = ref.getSnapshot() as AnyMachineSnapshot;
    expect(snapshot.value, 'state of the view\'s actor').toEqual(step.state.value);
    expect(plain(snapshot.context), 'context of the view\'s actor').toEqual(plain(step.state.context));
    if (deferred.violations.length) throw new Error(deferred.violations.join('\n'));
    expect(deferred.waiting().map((call) => call.src).sort(), 'calls waiting for an answer').toEqual(runningActors(path.steps.slice(0, index + 1)));
    if (subscribed(step.state)) expect(view.live.listeners.size, 'flows subscribed to live events').toBeGreaterThan(0);
    for (const leaf of leafStateIds(step.state)) {
      const key = leaf.slice(machine.id.length + 1);
      const assertion = config.states[key];
      if (!assertion) throw new Error(`no assertion for state ${key} in the model test of ${machine.id}`);
      await assertion(view, step.state as SnapshotFrom<TMachine>);
    }
    for (const key of taken) coverage.transitions.add(key);
    for (const id of [...passedThrough, ...activeStateIds(snapshot)]) coverage.states.add(id);
    taken = [];
    passedThrough.clear();
  };

  const events = Object.fromEntries(path.steps.map((step) => [step.event.type, exec]));
  try {
    await path.testPath.test({ events, states: { '*': check } });
  } finally {
    stopListening();
    useClock(null);
  }
}

/**
 * The model-based test of one machine, through its view: one test per path, then the gate, which fails
 * unless every state and every transition was taken by a path whose view assertions passed.
 */
export function describeModel<K extends MachineName>(name: K, config: ModelTestConfig<(typeof machines)[K]>): void {
  describeMachine(name, machines[name], config);
}

/** describeModel for any machine (the framework's own tests use a toy one); `report: false` writes no report. */
export function describeMachine<TMachine extends AnyStateMachine>(
  name: string,
  typedMachine: TMachine,
  config: ModelTestConfig<TMachine>,
  options: { report?: boolean } = {},
): void {
  const machine = typedMachine as AnyStateMachine;
  const fixtures = config.fixtures as TypedFixtures<AnyStateMachine>;
  const inputs = fixtures.inputs ?? { default: fixtures.input };
  const shape = machineShape(machine);
  const planning = performance.now();
  const plan = buildModel({
    machine,
    fixtures,
    inputs,
    ...(config.strategy ? { strategy: config.strategy } : {}),
    ...(config.filterEvents ? { filterEvents: config.filterEvents } : {}),
  });
  const planMs = performance.now() - planning;
  const coverage: Coverage = { transitions: new Set(), states: new Set() };
  let started: number | null = null;

  describe(`${name}: every path of the machine, through its view`, () => {
    it('has an assertion for every state the player can be in', () => {
      const leaves = shape.states.filter((id) => {
        const node = machine.getStateNodeById(id);
        return node.type === 'atomic' || node.type === 'final';
      });
      const keys = leaves.map((id) => id.slice(machine.id.length + 1));
      expect(keys.filter((key) => !(key in config.states)), 'states without an assertion').toEqual([]);
      expect(Object.keys(config.states).filter((key) => !keys.includes(key)), 'assertions for no state').toEqual([]);
    });

    plan.paths.forEach((path, index) => {
      it(pathName(path, index, plan.paths.length), async () => {
        started ??= performance.now();
        await runPath(machine, config, path, coverage);
      });
    });

    it('takes every state and every transition (coverage gate)', () => {
      const uncoveredStates = shape.states.filter((id) => !coverage.states.has(id));
      const uncoveredTransitions = shape.transitions.filter((t) => !coverage.transitions.has(t.key)).map((t) => t.label);
      if (options.report !== false) writeMachineReport({
        machine: name,
        states: { covered: shape.states.length - uncoveredStates.length, total: shape.states.length },
        transitions: { covered: shape.transitions.length - uncoveredTransitions.length, total: shape.transitions.length },
        paths: plan.paths.length,
        steps: plan.paths.reduce((sum, path) => sum + path.steps.length - 1, 0),
        ms: Math.round(planMs + (started === null ? 0 : performance.now() - started)),
        uncoveredStates,
        uncoveredTransitions,
        unreachable: plan.unreachable,
      });
      expect(plan.unreachable, 'transitions (and actor outcomes) no path of the model reaches').toEqual([]);
      expect(uncoveredStates, 'states no passing path went through').toEqual([]);
      expect(uncoveredTransitions, 'transitions no passing path took').toEqual([]);
    });
  });
}
