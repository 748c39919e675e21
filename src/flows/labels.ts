import { noticeOf, type FlowAction, type FlowState, type FlowTransition, type Trigger } from './graph.ts';
import { operationOf } from './operations.ts';
import { textWidth, type TextStyle } from './text.ts';

/*
 * The words of a chart: what a state box and an edge label say, line by line, and how big they are.
 * Charts say what product cares about: events, guards, delays, calls, messages and routes. Context
 * bookkeeping (assign actions) is left out.
 */

export type LineKind = 'title' | 'event' | 'guard' | 'action' | 'invoke' | 'note';

export interface Line {
  text: string;
  kind: LineKind;
}

export const LINE_STYLE: Record<LineKind, TextStyle & { height: number }> = {
  title: { size: 14, bold: true, height: 20 },
  event: { size: 12, bold: true, height: 16 },
  guard: { size: 11, height: 15 },
  action: { size: 11, height: 15 },
  invoke: { size: 11, height: 15 },
  note: { size: 11, height: 15 },
};

export function linesSize(lines: readonly Line[]): { width: number; height: number } {
  let width = 0;
  let height = 0;
  for (const line of lines) {
    const style = LINE_STYLE[line.kind];
    width = Math.max(width, textWidth(line.text, style));
    height += style.height;
  }
  return { width, height };
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
}

/** One action as a chart line: `notify "Login successful!"`, `navigate to /`, `closeDialog`. */
export function actionText(action: FlowAction): string {
  if (action.name === 'notify') {
    const notice = noticeOf(action);
    return notice.key === null ? `notify ${notice.text}` : `notify "${notice.text}"`;
  }
  if (action.name === 'navigate' && typeof action.params?.to === 'string') return `navigate to ${action.params.to}`;
  if (action.params !== null) {
    const entries = Object.entries(action.params).map(([key, value]) => `${key}: ${describeValue(value)}`);
    return entries.length === 0 ? action.name : `${action.name}(${entries.join(', ')})`;
  }
  return action.name;
}

function delayText(trigger: Extract<Trigger, { kind: 'after' }>): string {
  if (trigger.ms === null) return `after ${trigger.delay}`;
  const amount = trigger.ms % 1000 === 0 && trigger.ms >= 1000 ? `${trigger.ms / 1000} s` : `${trigger.ms} ms`;
  return /^\d+$/.test(trigger.delay) ? `after ${amount}` : `after ${trigger.delay} (${amount})`;
}

export function triggerText(trigger: Trigger): string {
  switch (trigger.kind) {
    case 'event':
      return trigger.event;
    case 'always':
      return 'always';
    case 'after':
      return delayText(trigger);
    case 'done':
    case 'error':
      return `${trigger.kind}: ${operationOf(trigger.src)?.label ?? trigger.src}`;
    case 'stateDone':
      return 'done';
  }
}

function guardText(transition: FlowTransition): string | null {
  if (transition.guard !== null) return `[${transition.guard}]`;
  return transition.otherwise ? '[else]' : null;
}

/** An edge's label: its trigger, its guard, then the effects it runs. */
export function edgeLines(transition: FlowTransition): Line[] {
  const lines: Line[] = [{ text: triggerText(transition.trigger), kind: 'event' }];
  const guard = guardText(transition);
  if (guard !== null) lines.push({ text: guard, kind: 'guard' });
  for (const action of transition.actions) {
    if (action.effect) lines.push({ text: `/ ${actionText(action)}`, kind: 'action' });
  }
  return lines;
}

/** A state box's header: its name, then what happens while in it. */
export function stateLines(state: FlowState): Line[] {
  const lines: Line[] = [{ text: state.key, kind: 'title' }];
  if (state.kind === 'parallel') lines.push({ text: 'parallel: its regions run at the same time', kind: 'note' });
  for (const action of state.entry) {
    if (action.effect) lines.push({ text: `entry / ${actionText(action)}`, kind: 'action' });
  }
  for (const invoke of state.invokes) lines.push({ text: `invoke ${invoke.src}`, kind: 'invoke' });
  for (const transition of state.internal) {
    const guard = guardText(transition);
    const effects = transition.actions.filter((action) => action.effect);
    const ignored = transition.actions.length === 0;
    lines.push({
      text: `${triggerText(transition.trigger)}${guard === null ? '' : ` ${guard}`}${ignored ? ' (ignored)' : ''}`,
      kind: 'event',
    });
    for (const action of effects) lines.push({ text: `  / ${actionText(action)}`, kind: 'action' });
  }
  for (const action of state.exit) {
    if (action.effect) lines.push({ text: `exit / ${actionText(action)}`, kind: 'action' });
  }
  return lines;
}
