import { describe, expect, it } from 'vitest';
import { fromPromise, setup } from 'xstate';
import { flowFixtures } from '../../src/flows/fixtures/index.ts';
import { machineGraph } from '../../src/flows/graph.ts';
import { activeStateIds, simulatorChoices, startSimulation, stepSimulation, valueText, type SimulatorFixtures } from '../../src/flows/simulate.ts';
import { machines, type MachineName } from '../../src/machines/index.ts';

const explode = () => {
  throw new Error('a side effect ran');
};

/** Every effect throws: the simulator must never run one. */
const uploadMachine = setup({
  types: { events: {} as { type: 'PICK'; file: string } | { type: 'SEND' } },
  actors: { scanDocument: fromPromise<{ id: number }>(async () => explode()) },
  actions: { notify: explode, navigate: explode },
  delays: { documentRefetch: 500 },
}).createMachine({
  id: 'upload',
  initial: 'picking',
  states: {
    picking: { on: { PICK: 'picked' } },
    picked: { entry: 'notify', on: { SEND: 'sending', PICK: 'picked' } },
    sending: {
      invoke: { src: 'scanDocument', onDone: { target: 'waiting', actions: 'navigate' }, onError: 'picked' },
    },
    waiting: { after: { documentRefetch: 'done' } },
    done: { type: 'final' },
  },
});

const fixtures: SimulatorFixtures = {
  events: { PICK: [{ type: 'PICK', file: 'passport.png' }], SEND: [{ type: 'SEND' }] },
  actors: { scanDocument: { done: { uploaded: { id: 1 } }, error: { 'too big': new Error('413') } } },
};

describe('the simulator', () => {
  const graph = machineGraph(uploadMachine);

  it('steps through events, operation outcomes and delays without running any effect', () => {
    let snapshot = startSimulation(uploadMachine, undefined);
    expect(simulatorChoices(graph, snapshot, fixtures).map((choice) => [choice.label, choice.detail])).toEqual([['PICK', 'file: "passport.png"']]);

    snapshot = stepSimulation(uploadMachine, snapshot, { type: 'PICK', file: 'passport.png' });
    snapshot = stepSimulation(uploadMachine, snapshot, { type: 'SEND' });
    expect(snapshot.value).toBe('sending');
    const outcomes = simulatorChoices(graph, snapshot, fixtures);
    expect(outcomes.map((choice) => [choice.kind, choice.label, choice.detail])).toEqual([
      ['done', 'done: scanDocument', 'uploaded'],
      ['error', 'error: scanDocument', 'too big'],
    ]);
    expect(outcomes[0]?.event).toEqual({ type: 'xstate.done.actor.0.upload.sending', output: { id: 1 } });

    const done = outcomes[0];
    if (done === undefined) throw new Error('no outcome');
    snapshot = stepSimulation(uploadMachine, snapshot, done.event);
    expect(snapshot.value).toBe('waiting');
    const delays = simulatorChoices(graph, snapshot, fixtures);
    expect(delays.map((choice) => [choice.kind, choice.label])).toEqual([['after', 'after documentRefetch (500 ms)']]);
    snapshot = stepSimulation(uploadMachine, snapshot, delays[0]?.event ?? { type: '' });
    expect(snapshot.status).toBe('done');
    expect(simulatorChoices(graph, snapshot, fixtures)).toEqual([]);
  });

  it('offers a generic outcome when the actor has no fixtures', () => {
    let snapshot = startSimulation(uploadMachine, undefined);
    snapshot = stepSimulation(uploadMachine, snapshot, { type: 'PICK', file: 'a' });
    snapshot = stepSimulation(uploadMachine, snapshot, { type: 'SEND' });
    expect(simulatorChoices(graph, snapshot, null).map((choice) => [choice.kind, choice.detail])).toEqual([
      ['done', 'answers (no fixture)'],
      ['error', 'no answer'],
    ]);
  });

  it('reads nested and parallel state values', () => {
    const register = machineGraph(machines.register);
    expect([...activeStateIds(register, { form: 'editing', countries: 'loaded' })].sort()).toEqual([
      'register.countries',
      'register.countries.loaded',
      'register.form',
      'register.form.editing',
    ]);
    expect(valueText({ form: 'editing', countries: 'loaded' })).toBe('form.editing + countries.loaded');
    const app = machineGraph(machines.app);
    expect([...activeStateIds(app, { player: 'ready' })].sort()).toEqual(['app.player', 'app.player.ready']);
  });

  it('starts every machine of the app, and offers a first step in each', () => {
    const all = flowFixtures as Partial<Record<MachineName, SimulatorFixtures>>;
    for (const [name, machine] of Object.entries(machines) as [MachineName, (typeof machines)[MachineName]][]) {
      const machineFixtures = all[name];
      const snapshot = startSimulation(machine, machineFixtures?.input ?? {});
      const choices = simulatorChoices(machineGraph(machine), snapshot, machineFixtures ?? null);
      expect(snapshot.status === 'done' || choices.length > 0, `${name} in ${valueText(snapshot.value)}`).toBe(true);
    }
  });
});
