import type { InspectionEvent, StateValue } from 'xstate';

/*
 * The live state of every running flow, for the /flows screen. The app passes `flowInspector` to its
 * actors (`createActor(machine, { inspect: flowInspector })`); each machine snapshot is kept here by the
 * machine's id, and shared with /flows open in other tabs over a BroadcastChannel. Kept tiny and free of
 * src/flows (ELK and the renderer): it ships in the player's bundle.
 */

export const FLOWS_CHANNEL = 'casino-flows';

/** A running machine's state, as posted on the channel. */
export interface LiveState {
  machine: string;
  value: StateValue;
}

/** Asks the other tabs to post every state they know (a /flows tab just opened). */
interface StatesRequest {
  request: 'states';
}

export type LiveStates = Readonly<Record<string, StateValue>>;

let states: LiveStates = {};
const listeners = new Set<() => void>();
let channel: BroadcastChannel | null | undefined;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isStateValue(value: unknown): value is StateValue {
  return typeof value === 'string' || (isRecord(value) && Object.values(value).every((nested) => nested === undefined || isStateValue(nested)));
}

function isLiveState(message: unknown): message is LiveState {
  return isRecord(message) && typeof message.machine === 'string' && isStateValue(message.value);
}

function post(message: LiveState | StatesRequest) {
  try {
    openChannel()?.postMessage(message);
  } catch {
    // A closed channel or an uncloneable value: the other tabs miss one update, this one still has it.
  }
}

/** Keeps a machine's state; `share` posts it to the other tabs. Unchanged states are not posted again. */
function store(machine: string, value: StateValue, share: boolean) {
  const current = states[machine];
  if (current !== undefined && JSON.stringify(current) === JSON.stringify(value)) return;
  states = { ...states, [machine]: value };
  for (const listener of listeners) listener();
  if (share) post({ machine, value });
}

function onMessage(message: MessageEvent<unknown>) {
  const data = message.data;
  if (isLiveState(data)) store(data.machine, data.value, false);
  else if (isRecord(data) && data.request === 'states') {
    for (const [machine, value] of Object.entries(states)) post({ machine, value });
  }
}

function openChannel(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(FLOWS_CHANNEL) : null;
    channel?.addEventListener('message', onMessage);
  }
  return channel;
}

/** The inspection observer: records the state of every machine actor of the system it is given to. */
export function flowInspector(inspectionEvent: InspectionEvent): void {
  if (inspectionEvent.type !== '@xstate.snapshot') return;
  const snapshot: unknown = inspectionEvent.snapshot;
  // Only machine snapshots (promise actors have no state value); the machine's id names the flow.
  if (!isRecord(snapshot) || !isRecord(snapshot.machine) || typeof snapshot.machine.id !== 'string') return;
  if (!isStateValue(snapshot.value)) return;
  store(snapshot.machine.id, snapshot.value, true);
}

/** Actor options with the flow inspector added: `createActor(machine, withFlowInspector({ input }))`. */
export function withFlowInspector<TOptions extends object>(options?: TOptions): TOptions & { inspect: typeof flowInspector } {
  return { ...(options ?? ({} as TOptions)), inspect: flowInspector };
}

/** The latest known state of each machine, by machine id (a new object whenever one changes). */
export function liveStates(): LiveStates {
  return states;
}

/** For useSyncExternalStore: listens to this tab's actors and to the other tabs. */
export function subscribeLiveStates(listener: () => void): () => void {
  openChannel();
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Asks the other tabs for the states they know. */
export function requestLiveStates(): void {
  post({ request: 'states' });
}
