import { describe, expect, it } from 'vitest';
import { assign, fromPromise, not, setup } from 'xstate';
import { machineChart } from '../../src/flows/chart.ts';
import { machineGraph, type FlowTransition } from '../../src/flows/graph.ts';
import { edgeLines, stateLines } from '../../src/flows/labels.ts';
import { chartSvg } from '../../src/flows/svg.ts';

/** A small document flow with every feature a chart draws. */
const documentsMachine = setup({
  types: { context: {} as { tries: number }, events: {} as { type: 'UPLOAD' } | { type: 'CANCEL' } | { type: 'FIELD.CHANGE' } },
  actors: {
    scanDocument: fromPromise<void>(async () => {}),
    login: fromPromise<void>(async () => {}),
  },
  actions: {
    notify: (_, _params: { tone: 'success' | 'error'; message: string }) => {},
    navigate: (_, _params: { to: string }) => {},
    closeDialog: () => {},
    countTry: assign(({ context }) => ({ tries: context.tries + 1 })),
  },
  guards: {
    tooManyTries: ({ context }) => context.tries > 3,
    hasFile: () => true,
  },
  delays: { documentRefetch: 500 },
}).createMachine({
  id: 'documents',
  context: { tries: 0 },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'FIELD.CHANGE': { actions: 'countTry' },
        UPLOAD: [{ guard: 'tooManyTries', target: 'blocked' }, { guard: not('hasFile') }, { target: 'uploading' }],
      },
    },
    uploading: {
      initial: 'sending',
      on: { CANCEL: { target: 'editing', actions: 'closeDialog' } },
      states: {
        sending: {
          entry: 'countTry',
          invoke: {
            src: 'scanDocument',
            onDone: { target: 'waiting', actions: { type: 'notify', params: { tone: 'success', message: 'messages.loginSuccess' } } },
            onError: { target: '#documents.editing', actions: { type: 'notify', params: ({ context }) => ({ tone: 'error', message: String(context.tries) }) } },
          },
        },
        waiting: {
          after: { documentRefetch: 'checking', 2000: { target: '#documents.blocked', guard: 'tooManyTries' } },
        },
        checking: {
          always: [{ guard: 'hasFile', target: '#documents.done' }, { target: 'sending' }],
        },
      },
    },
    blocked: { on: { CANCEL: {} } },
    done: { type: 'final', entry: { type: 'navigate', params: { to: '/' } } },
  },
});

function find(transitions: readonly FlowTransition[], predicate: (transition: FlowTransition) => boolean): FlowTransition {
  const found = transitions.find(predicate);
  if (found === undefined) throw new Error('no such transition');
  return found;
}

describe('machineGraph', () => {
  const graph = machineGraph(documentsMachine);
  const byId = new Map(graph.states.map((state) => [state.id, state]));

  it('reads every state, nested, with kinds and initial states', () => {
    expect(graph.states.map((state) => state.id)).toEqual([
      'documents',
      'documents.editing',
      'documents.uploading',
      'documents.uploading.sending',
      'documents.uploading.waiting',
      'documents.uploading.checking',
      'documents.blocked',
      'documents.done',
    ]);
    expect(byId.get('documents')?.initial).toBe('documents.editing');
    expect(byId.get('documents.uploading')).toMatchObject({ kind: 'compound', initial: 'documents.uploading.sending', parent: 'documents' });
    expect(byId.get('documents.uploading')?.children).toEqual([
      'documents.uploading.sending',
      'documents.uploading.waiting',
      'documents.uploading.checking',
    ]);
    expect(byId.get('documents.done')?.kind).toBe('final');
    expect(byId.get('documents.uploading.sending')?.invokes).toEqual([{ id: '0.documents.uploading.sending', src: 'scanDocument' }]);
  });

  it('reads guarded alternatives, the unguarded one after them as else, and higher-order guards', () => {
    const uploads = graph.states.flatMap((state) => state.internal).concat(graph.edges).filter((t) => t.trigger.kind === 'event' && t.trigger.event === 'UPLOAD');
    expect(uploads.map((t) => [t.guard, t.otherwise, t.targets])).toEqual(
      expect.arrayContaining([
        ['tooManyTries', false, ['documents.blocked']],
        ['!hasFile', false, []],
        [null, true, ['documents.uploading']],
      ]),
    );
  });

  it('reads delays, by number and by name with their milliseconds', () => {
    const waiting = graph.edges.filter((t) => t.source === 'documents.uploading.waiting');
    expect(waiting.map((t) => t.trigger)).toEqual(
      expect.arrayContaining([
        { kind: 'after', delay: 'documentRefetch', ms: 500 },
        { kind: 'after', delay: '2000', ms: 2000 },
      ]),
    );
    const named = find(waiting, (t) => t.trigger.kind === 'after' && t.trigger.delay === 'documentRefetch');
    expect(edgeLines(named)[0]?.text).toBe('after documentRefetch (500 ms)');
    const guarded = find(waiting, (t) => t.trigger.kind === 'after' && t.trigger.delay === '2000');
    expect(edgeLines(guarded).map((line) => line.text)).toEqual(['after 2 s', '[tooManyTries]']);
  });

  it('reads an invoke’s done and error edges, with the operation and the actions they run', () => {
    const done = find(graph.edges, (t) => t.trigger.kind === 'done');
    expect(done).toMatchObject({
      source: 'documents.uploading.sending',
      targets: ['documents.uploading.waiting'],
      trigger: { kind: 'done', src: 'scanDocument', invokeId: '0.documents.uploading.sending' },
    });
    const error = find(graph.edges, (t) => t.trigger.kind === 'error');
    expect(error.targets).toEqual(['documents.editing']);
    expect(error.actions).toEqual([{ name: 'notify', effect: true, params: null, computed: true }]);
    // An actor missing from the operations table shows under its own name.
    expect(edgeLines(done).map((line) => line.text)).toEqual(['done: scanDocument', '/ notify "Login successful!"']);
  });

  it('reads always transitions, and transitions of a compound state', () => {
    const always = graph.edges.filter((t) => t.trigger.kind === 'always');
    expect(always.map((t) => [t.guard, t.otherwise, t.targets])).toEqual([
      ['hasFile', false, ['documents.done']],
      [null, true, ['documents.uploading.sending']],
    ]);
    expect(find(graph.edges, (t) => t.source === 'documents.uploading')).toMatchObject({
      trigger: { kind: 'event', event: 'CANCEL' },
      targets: ['documents.editing'],
      actions: [{ name: 'closeDialog', effect: true }],
    });
  });

  it('keeps transitions without a target in their state, and marks assign actions as no effect', () => {
    const editing = byId.get('documents.editing');
    expect(editing?.internal.map((t) => t.trigger)).toEqual([
      { kind: 'event', event: 'FIELD.CHANGE' },
      { kind: 'event', event: 'UPLOAD' },
    ]);
    expect(editing?.internal[0]?.actions).toEqual([{ name: 'countTry', effect: false, params: null, computed: false }]);
    const blocked = byId.get('documents.blocked');
    expect(blocked === undefined ? [] : stateLines(blocked).map((line) => line.text)).toEqual(['blocked', 'CANCEL (ignored)']);
  });

  it('lists events, invoked actors, messages, routes and effects', () => {
    expect(graph.events).toEqual(['FIELD.CHANGE', 'UPLOAD', 'CANCEL']);
    expect(graph.invoked).toEqual(['scanDocument']);
    expect(graph.routes).toEqual(['/']);
    expect(graph.notices).toEqual([
      { key: 'messages.loginSuccess', text: 'Login successful!', tone: 'success', code: null },
      { key: null, text: "the failure's message", tone: 'error', code: null },
    ]);
    expect(graph.effects).toEqual(['navigate', 'closeDialog', 'notify']);
  });
});

describe('the chart of a small machine', () => {
  it('draws compound states as boxes around their children, the initial marker and every edge', async () => {
    const { chart } = await machineChart(documentsMachine);
    const node = (id: string) => chart.nodes.find((candidate) => candidate.id === id);
    const uploading = node('documents.uploading');
    const waiting = node('documents.uploading.waiting');
    expect(uploading && waiting && waiting.x > uploading.x && waiting.x + waiting.width < uploading.x + uploading.width).toBe(true);
    expect(node('documents.uploading#initial')).toBeDefined();
    const svg = chartSvg(chart, { active: new Set(['documents.uploading', 'documents.uploading.waiting']) });
    expect(svg).toContain('data-state="documents.uploading.waiting"');
    expect(svg).toMatch(/class="flow-state flow-atomic flow-active" data-state="documents.uploading.waiting"/);
    expect(svg).toContain('after documentRefetch (500 ms)');
    expect(svg).toContain('[else]');
    expect(svg).toContain('flow-final');
  });
});
