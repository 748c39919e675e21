// @vitest-environment happy-dom
import { useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import type { TypedFixtures } from '../../src/flows/fixtures/typed.ts';
import { renderWithServices } from '../unit/views/harness.tsx';
import { buildModel, checkFixtures, FixtureError, machineShape } from './model.ts';
import { describeMachine, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

/*
 * The framework on a toy flow with what the product's machines will have: an invoke with a guarded
 * onDone, an eventless transition, and a named delay (a 500 ms refetch, like the document upload's).
 */
const toy = setup({
  types: { context: {} as { items: string[]; refetches: number }, events: {} as { type: 'START' } | { type: 'RETRY' } },
  actors: { load: fromPromise<string[]>(async () => []) },
  delays: { refetch: 500 },
  guards: { noItems: (_, params: { items: string[] }) => params.items.length === 0 },
  actions: {
    store: assign((_, params: { items: string[] }) => ({ items: params.items })),
    countRefetch: assign(({ context }) => ({ refetches: Math.min(context.refetches + 1, 2) })),
  },
}).createMachine({
  id: 'toy',
  context: { items: [], refetches: 0 },
  initial: 'idle',
  states: {
    idle: { on: { START: 'loading' } },
    loading: {
      invoke: {
        src: 'load',
        onDone: [
          { guard: { type: 'noItems', params: ({ event }) => ({ items: event.output }) }, target: 'empty' },
          { target: 'shown', actions: { type: 'store', params: ({ event }) => ({ items: event.output }) } },
        ],
        onError: 'failed',
      },
    },
    shown: { after: { refetch: 'refetching' } },
    refetching: { entry: 'countRefetch', always: [{ guard: ({ context }) => context.refetches > 1, target: 'idle' }, { target: 'loading' }] },
    empty: { type: 'final' },
    failed: { on: { RETRY: 'loading' } },
  },
});

const fixtures: TypedFixtures<typeof toy> = {
  events: { START: [{ type: 'START' }], RETRY: [{ type: 'RETRY' }] },
  actors: { load: { done: { 'two items': ['a', 'b'], none: [] }, error: { broken: new Error('broken') } } },
};

describe('the model', () => {
  it('counts every guarded alternative, eventless and delayed transition on its own', () => {
    const shape = machineShape(toy);
    expect(shape.states).toHaveLength(6);
    expect(shape.transitions.map((t) => t.key)).toEqual([
      'toy.idle START #0',
      'toy.loading xstate.done.actor.0.toy.loading #0',
      'toy.loading xstate.done.actor.0.toy.loading #1',
      'toy.loading xstate.error.actor.0.toy.loading #0',
      'toy.shown xstate.after.refetch.toy.shown #0',
      'toy.refetching always #0',
      'toy.refetching always #1',
      'toy.failed RETRY #0',
    ]);
  });

  it('says which fixtures are missing or stale', () => {
    const partial = { events: { START: [{ type: 'START' }], STOP: [{ type: 'STOP' }] }, actors: {} } as unknown as TypedFixtures<typeof toy>;
    expect(checkFixtures(toy, partial, { default: undefined })).toEqual([
      'no example of event RETRY',
      'fixture for event STOP, which the machine never handles',
      'no outcomes for actor load',
    ]);
    expect(() => buildModel({ machine: toy, fixtures: partial, inputs: { default: undefined } })).toThrow(FixtureError);
  });

  it('finds a path to every transition and outcome, delays included', () => {
    const plan = buildModel({ machine: toy, fixtures, inputs: { default: undefined } });
    expect(plan.unreachable).toEqual([]);
    const labels = plan.paths.map((path) => path.steps.slice(1).map((step) => step.label).join(' → '));
    expect(labels).toContain('START → done load: two items → after refetch in toy.shown → done load: two items → after refetch in toy.shown');
  });

  it('refuses a model that does not end (a context that keeps growing)', () => {
    const counter = setup({ types: { context: {} as { n: number }, events: {} as { type: 'ADD' } } }).createMachine({
      id: 'counter',
      context: { n: 0 },
      on: { ADD: { actions: assign(({ context }) => ({ n: context.n + 1 })) } },
    });
    const counterFixtures: TypedFixtures<typeof counter> = { events: { ADD: [{ type: 'ADD' }] }, actors: {} };
    expect(() => buildModel({ machine: counter, fixtures: counterFixtures, inputs: { default: undefined }, limit: 500 })).toThrow(/more than 500/);
  });

  it('reaches a transition that changes nothing, in a state the traversal reached more than one way', () => {
    // `c` is reached from `b` after X and after Y: one vertex, two snapshots. NOOP keeps either as it is.
    const shadow = setup({ types: { events: {} as { type: 'X' } | { type: 'Y' } | { type: 'GO' } | { type: 'NOOP' } } }).createMachine({
      id: 'shadow',
      initial: 'a',
      states: { a: { on: { X: 'b', Y: 'b' } }, b: { on: { GO: 'c' } }, c: { on: { NOOP: {} } } },
    });
    const events = { X: [{ type: 'X' }], Y: [{ type: 'Y' }], GO: [{ type: 'GO' }], NOOP: [{ type: 'NOOP' }] } as const;
    const plan = buildModel({ machine: shadow, fixtures: { events, actors: {} }, inputs: { default: undefined } });
    expect(plan.unreachable).toEqual([]);
    expect(plan.paths.map((path) => path.description)).toContain('X → GO → NOOP');
  });

  it('reports what its filters make unreachable', () => {
    const plan = buildModel({ machine: toy, fixtures, inputs: { default: undefined }, filterEvents: (_, event) => event.type !== 'RETRY' });
    expect(plan.unreachable).toEqual(['toy.failed RETRY #0']);
  });
});

function ToyView({ view }: { view: View<typeof toy> }) {
  const [machine] = useState(() => toy.provide({ actors: { load: fromPromise<string[]>(() => view.call('load')) } }));
  const actor = useActorRef(machine);
  const value = useSelector(actor, (s) => JSON.stringify(s.value));
  const items = useSelector(actor, (s) => s.context.items);
  return (
    <div>
      <p role="status">{value}</p>
      <ul>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <button type="button" onClick={() => actor.send({ type: 'START' })}>
        Start
      </button>
      <button type="button" onClick={() => actor.send({ type: 'RETRY' })}>
        Retry
      </button>
    </div>
  );
}

const seeState = (state: string) => () => expect(screen.getByRole('status').textContent).toBe(JSON.stringify(state));

// The runner on the toy: the delay elapses on the path's simulated clock, not on a timer.
describeMachine(
  'toy',
  toy,
  {
    fixtures,
    render: (view) => renderWithServices(<ToyView view={view} />),
    events: {
      START: (view) => view.user.click(screen.getByRole('button', { name: 'Start' })),
      RETRY: (view) => view.user.click(screen.getByRole('button', { name: 'Retry' })),
    },
    states: {
      idle: seeState('idle'),
      loading: seeState('loading'),
      shown: (_, snapshot) => {
        seeState('shown')();
        expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(snapshot.context.items);
      },
      refetching: seeState('refetching'),
      empty: seeState('empty'),
      failed: seeState('failed'),
    },
  },
  { report: false },
);
