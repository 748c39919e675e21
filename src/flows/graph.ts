import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { errorMessageKey, FLOW_FALLBACK_KEYS, type FlowFallback } from '../api/errors.ts';
import { en } from '../i18n/en.ts';
import { messageAt } from '../i18n/index.ts';

/*
 * A machine read as a chart: its state nodes, its transitions and what each one does. Everything comes
 * from the machine object (its root StateNode and `implementations`), never from its source text, so a
 * chart cannot drift from the machine it shows.
 */

export type StateKind = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

/** What makes a transition happen. */
export type Trigger =
  | { kind: 'event'; event: string }
  | { kind: 'always' }
  /** `after`: `ms` is the delay in milliseconds when it is known (a number, or a named delay set to one). */
  | { kind: 'after'; delay: string; ms: number | null }
  /** An invoked actor settled: `src` names the actor, `invokeId` the invocation (`0.login.submitting`). */
  | { kind: 'done' | 'error'; src: string; invokeId: string }
  /** A compound state reached its final child (`onDone` of a state). */
  | { kind: 'stateDone' };

export interface FlowAction {
  name: string;
  /** False for context bookkeeping (assign): charts leave it out, it is no product effect. */
  effect: boolean;
  /** The action's params when they are a fixed object (`{ to: '/' }`); null when computed or absent. */
  params: Readonly<Record<string, unknown>> | null;
  /** True when the params are computed from the event or context at run time. */
  computed: boolean;
}

export interface FlowTransition {
  /** Unique in its chart. */
  id: string;
  source: string;
  /** Empty for a transition that stays in its state (it only runs actions, or is ignored). */
  targets: string[];
  trigger: Trigger;
  /** The event that takes it, as xstate names it (`SUBMIT`, `xstate.after.500.documents.waiting`); '' for always. */
  eventType: string;
  guard: string | null;
  /** An unguarded alternative after guarded ones for the same trigger: taken when none of them is. */
  otherwise: boolean;
  actions: FlowAction[];
}

export interface FlowInvoke {
  id: string;
  src: string;
}

export interface FlowState {
  /** The state node's id, e.g. `app.player.ready`; the machine's root has the machine's id. */
  id: string;
  key: string;
  parent: string | null;
  kind: StateKind;
  /** A region of a parallel state: all of its siblings are active together. */
  region: boolean;
  /** The child entered first, for compound states. */
  initial: string | null;
  children: string[];
  invokes: FlowInvoke[];
  entry: FlowAction[];
  exit: FlowAction[];
  /** Transitions without a target: they stay in this state. */
  internal: FlowTransition[];
}

export interface Notice {
  /** The catalogue key (`messages.loginSuccess`); null when the message is chosen at run time. */
  key: string | null;
  /** What the player reads, in English. */
  text: string;
  tone: string | null;
  /** The error code an error notice is about, when it is fixed. */
  code: string | null;
}

export interface FlowGraph {
  id: string;
  /** Every state node, parents before children, in the machine's order. */
  states: FlowState[];
  /** Transitions that go somewhere (the chart's edges). */
  edges: FlowTransition[];
  /** Every event a sender can send (not the machine's own done/after events). */
  events: string[];
  /** Every invoked actor `src`, in order of appearance. */
  invoked: string[];
  notices: Notice[];
  routes: string[];
  /** Every effect action name (non-assign), in order of appearance. */
  effects: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The `type` of an action or guard object, or of a built-in action function (`xstate.assign`). */
function typeOf(value: unknown): string | null {
  if (!isRecord(value) && typeof value !== 'function') return null;
  const type: unknown = (value as { type?: unknown }).type;
  return typeof type === 'string' ? type : null;
}

/** A guard's name as reviewers read it: `formInvalid`, `!formInvalid`, `a && b`. */
export function guardLabel(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const parts = (guard as { guards?: unknown }).guards;
    if (Array.isArray(parts)) {
      const labels = parts.map((part) => guardLabel(part) ?? 'guard');
      if (guard.name === 'not') return `!${labels[0] ?? 'guard'}`;
      if (guard.name === 'and') return labels.join(' && ');
      if (guard.name === 'or') return labels.join(' || ');
    }
    return guard.name !== '' ? guard.name : 'guard';
  }
  return typeOf(guard) ?? 'guard';
}

function isAssign(machine: AnyStateMachine, name: string): boolean {
  if (name === 'xstate.assign') return true;
  const implementations: Record<string, unknown> = machine.implementations.actions;
  const implementation = Object.hasOwn(implementations, name) ? implementations[name] : undefined;
  return typeOf(implementation) === 'xstate.assign';
}

function readAction(machine: AnyStateMachine, action: unknown): FlowAction {
  if (typeof action === 'string') return { name: action, effect: !isAssign(machine, action), params: null, computed: false };
  if (typeof action === 'function') {
    // Inline and built-in actions (assign(...), raise(...), sendTo(...)): their type, else their name.
    const builtin = typeOf(action);
    const name = builtin !== null ? builtin.replace(/^xstate\./, '') : action.name !== '' ? action.name : 'inline action';
    return { name, effect: builtin !== 'xstate.assign', params: null, computed: false };
  }
  const name = typeOf(action) ?? 'action';
  const params = isRecord(action) ? action.params : undefined;
  return {
    name,
    effect: !isAssign(machine, name),
    params: isRecord(params) && typeof params !== 'function' ? params : null,
    computed: typeof params === 'function',
  };
}

function delayOf(machine: AnyStateMachine, delay: unknown): { delay: string; ms: number | null } {
  if (typeof delay === 'number') return { delay: String(delay), ms: delay };
  if (typeof delay === 'string') {
    const delays: Record<string, unknown> = machine.implementations.delays;
    const value = Object.hasOwn(delays, delay) ? delays[delay] : undefined;
    return { delay, ms: typeof value === 'number' ? value : null };
  }
  return { delay: 'computed', ms: null };
}

function triggerOf(machine: AnyStateMachine, node: AnyStateNode, eventType: string, delay: unknown): Trigger {
  if (eventType.startsWith('xstate.after.')) return { kind: 'after', ...delayOf(machine, delay) };
  for (const kind of ['done', 'error'] as const) {
    const prefix = `xstate.${kind}.actor.`;
    if (eventType.startsWith(prefix)) {
      const invokeId = eventType.slice(prefix.length);
      const invoke = node.invoke.find((candidate) => candidate.id === invokeId);
      const src = invoke === undefined ? invokeId : typeof invoke.src === 'string' ? invoke.src : (typeOf(invoke.src) ?? 'actor');
      return { kind, src, invokeId };
    }
  }
  if (eventType.startsWith('xstate.done.state.')) return { kind: 'stateDone' };
  return { kind: 'event', event: eventType };
}

function configActions(actions: unknown): unknown[] {
  if (actions === undefined || actions === null) return [];
  return Array.isArray(actions) ? actions : [actions];
}

interface RawTransition {
  target?: readonly AnyStateNode[] | undefined;
  guard?: unknown;
  actions: readonly unknown[];
}

/** Reads a machine into a chart's graph. */
export function machineGraph(machine: AnyStateMachine): FlowGraph {
  const states: FlowState[] = [];
  const edges: FlowTransition[] = [];
  let count = 0;

  const readTransitions = (node: AnyStateNode, eventType: string, trigger: Trigger, list: readonly RawTransition[], internal: FlowTransition[]) => {
    let guarded = false;
    for (const raw of list) {
      const guard = guardLabel(raw.guard);
      const transition: FlowTransition = {
        id: `t${count++}`,
        source: node.id,
        targets: (raw.target ?? []).map((target) => target.id),
        trigger,
        eventType,
        guard,
        otherwise: guard === null && guarded,
        actions: raw.actions.map((action) => readAction(machine, action)),
      };
      if (guard !== null) guarded = true;
      if (transition.targets.length === 0) internal.push(transition);
      else edges.push(transition);
    }
  };

  const visit = (node: AnyStateNode, parent: AnyStateNode | null) => {
    const children = Object.values(node.states as Record<string, AnyStateNode>);
    const internal: FlowTransition[] = [];
    const initialTarget = node.type === 'compound' ? node.initial.target[0] : undefined;
    states.push({
      id: node.id,
      key: node.key,
      parent: parent?.id ?? null,
      kind: node.type,
      region: parent?.type === 'parallel',
      initial: initialTarget?.id ?? null,
      children: children.map((child) => child.id),
      invokes: node.invoke.map((invoke) => ({
        id: invoke.id,
        src: typeof invoke.src === 'string' ? invoke.src : (typeOf(invoke.src) ?? 'actor'),
      })),
      // From the config: the node's own lists also hold the raise/cancel pairs xstate adds for `after`.
      entry: configActions(node.config.entry).map((action) => readAction(machine, action)),
      exit: configActions(node.config.exit).map((action) => readAction(machine, action)),
      internal,
    });
    // Delayed transitions are in `transitions` too, under their xstate.after.* event; `after` has their delay.
    const delays = new Map<string, unknown>(node.after.map((after) => [after.eventType, after.delay]));
    for (const [eventType, list] of node.transitions as Map<string, RawTransition[]>) {
      readTransitions(node, eventType, triggerOf(machine, node, eventType, delays.get(eventType)), list, internal);
    }
    readTransitions(node, '', { kind: 'always' }, (node.always ?? []) as RawTransition[], internal);
    for (const child of children) visit(child, node);
  };
  visit(machine.root, null);

  const all = [...states.flatMap((state) => [...state.internal]), ...edges].sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
  const unique = <T>(values: T[]) => [...new Set(values)];
  const actions = [...states.flatMap((state) => [...state.entry, ...state.exit]), ...all.flatMap((transition) => transition.actions)];
  const notices = new Map<string, Notice>();
  for (const action of actions) {
    if (action.name !== 'notify') continue;
    const notice = noticeOf(action);
    const key = `${notice.key ?? ''}|${notice.text}`;
    if (!notices.has(key)) notices.set(key, notice);
  }
  return {
    id: machine.id,
    states,
    edges,
    events: unique(all.flatMap((transition) => (transition.trigger.kind === 'event' ? [transition.trigger.event] : []))),
    invoked: unique(states.flatMap((state) => state.invokes.map((invoke) => invoke.src))),
    notices: [...notices.values()],
    routes: unique(actions.flatMap((action) => (action.name === 'navigate' && typeof action.params?.to === 'string' ? [action.params.to] : []))),
    effects: unique(actions.filter((action) => action.effect).map((action) => action.name)),
  };
}

function isFallback(value: unknown): value is FlowFallback {
  return typeof value === 'string' && Object.hasOwn(FLOW_FALLBACK_KEYS, value);
}

/**
 * What a `notify` action shows, as far as its params say without running it: the catalogue key and its
 * English text. Computed params (a failure's code known only at run time) give no key.
 */
export function noticeOf(action: FlowAction): Notice {
  const params = action.params;
  const tone = typeof params?.tone === 'string' ? params.tone : null;
  if (params === null) return { key: null, text: "the failure's message", tone: 'error', code: null };
  if (typeof params.message === 'string') {
    return { key: params.message, text: messageAt(en, params.message) ?? params.message, tone, code: null };
  }
  const code = typeof params.code === 'string' ? params.code : null;
  const key = isFallback(params.fallback) ? errorMessageKey(code, params.fallback) : null;
  return { key, text: key === null ? (code ?? "the failure's message") : (messageAt(en, key) ?? key), tone, code };
}
