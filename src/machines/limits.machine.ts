import { assign, setup } from 'xstate';
import type { components, operations } from '../api/schema.d.ts';
import { LIMIT_KINDS, LIMIT_PERIODS, limitPeriodCodes, type LimitKind, type LimitPeriod } from '../rules/limitChecks.ts';
import { notProvided, type ErrorCode, type Notice } from './effects.ts';
import { toFailure } from './failure.ts';

/*
 * The deposit, bet and loss limits of the responsible-gambling page (SPEC §2, §4 "Limits update: on
 * success a has-changes flag is reset", §5, §8). The settings load first; each of the nine fields holds
 * the limit the player chose: the one in force, or the one waiting out its 24-hour cooling-off (so that
 * saving the form again keeps that change and its date; sending the limit in force would cancel it). The
 * SPEC §5 rules are checked as the player types, for the three periods of the kind typed in (a period's
 * order depends on the others). Save is enabled by the has-changes flag; it sends one request per kind
 * that changed (the API sets the three periods of one kind at once), in order, and stops at the first
 * refusal, which shows its SPEC §8 message or "Something went wrong". Once all are saved: the toast,
 * and the flag is reset. A decrease applies at once; an increase or a removal comes back as pending
 * with the time it takes effect. A self-excluded player (signed in again for their money) sees the
 * limits without the form: the server refuses a change until the exclusion ends.
 */

export type ResponsibleGambling = components['schemas']['ResponsibleGambling'];
export type LimitUpdate = operations['rgUpdateLimit']['requestBody']['content']['application/json'];

export type LimitField = `${LimitKind}.${LimitPeriod}`;
export const LIMIT_FIELDS: readonly LimitField[] = LIMIT_KINDS.flatMap((kind) => LIMIT_PERIODS.map((period) => `${kind}.${period}` as const));

export type LimitValues = Record<LimitField, string>;

export interface LimitsContext {
  limits: ResponsibleGambling | null;
  /** What the player typed; '' for no limit. */
  values: LimitValues;
  /** What the server holds for each field: the pending change when there is one, else the limit in force. */
  saved: LimitValues;
  /** Rule codes per field: absent until checked, [] when it passes. */
  fieldErrors: Partial<Record<LimitField, readonly string[]>>;
  /** The last load or save was refused or got no answer (errorCode holds its code, if it had one). */
  failed: boolean;
  errorCode: ErrorCode | null;
  /** SPEC §4: the form differs from what is saved (enables Save); reset when the save succeeds. */
  hasChanges: boolean;
}

export type LimitsEvent =
  | { type: 'FIELD.CHANGE'; field: LimitField; value: string }
  | { type: 'SAVE' }
  | { type: 'RETRY' };

/** The value a field starts from: the chosen limit (pending, else in force), '' for none. */
function chosen(limits: ResponsibleGambling, kind: LimitKind, period: LimitPeriod): string {
  const { current, pending } = limits[kind][period];
  return (pending ? pending.value : current) ?? '';
}

export function savedValues(limits: ResponsibleGambling): LimitValues {
  return Object.fromEntries(
    LIMIT_FIELDS.map((field) => {
      const [kind, period] = field.split('.') as [LimitKind, LimitPeriod];
      return [field, chosen(limits, kind, period)];
    }),
  ) as LimitValues;
}

const fieldOf = (kind: LimitKind, period: LimitPeriod): LimitField => `${kind}.${period}`;

/** The SPEC §5 codes of one kind's three fields, as the server checks them (src/rules/limitChecks.ts). */
export function kindCodes(values: LimitValues, kind: LimitKind): Record<LimitField, string[]> {
  const byPeriod = limitPeriodCodes(Object.fromEntries(LIMIT_PERIODS.map((period) => [period, values[fieldOf(kind, period)]])));
  return Object.fromEntries(LIMIT_PERIODS.map((period) => [fieldOf(kind, period), byPeriod[period]])) as Record<LimitField, string[]>;
}

function allCodes(values: LimitValues): Partial<Record<LimitField, string[]>> {
  return Object.assign({}, ...LIMIT_KINDS.map((kind) => kindCodes(values, kind))) as Partial<Record<LimitField, string[]>>;
}

const differs = (values: LimitValues, saved: LimitValues, fields: readonly LimitField[] = LIMIT_FIELDS) =>
  fields.some((field) => values[field] !== saved[field]);

/** The kinds whose fields differ from what is saved, in page order. */
export function changedKinds(context: Pick<LimitsContext, 'values' | 'saved'>): LimitKind[] {
  return LIMIT_KINDS.filter((kind) => differs(context.values, context.saved, LIMIT_PERIODS.map((period) => fieldOf(kind, period))));
}

/** The request that saves one kind: every period, null for no limit. */
export function limitUpdate(values: LimitValues, kind: LimitKind): LimitUpdate {
  const value = (period: LimitPeriod) => (values[fieldOf(kind, period)] === '' ? null : values[fieldOf(kind, period)]);
  return { limitType: kind, daily: value('daily'), weekly: value('weekly'), monthly: value('monthly') };
}

const EMPTY = Object.fromEntries(LIMIT_FIELDS.map((field) => [field, ''])) as LimitValues;

/** The state that saves one kind: then the next kind, or back to the form with the refusal. */
function saveKind(kind: LimitKind) {
  return {
    invoke: {
      src: 'saveLimits',
      input: ({ context }: { context: LimitsContext }) => limitUpdate(context.values, kind),
      onDone: { target: 'next', actions: { type: 'storeSaved', params: ({ event }: { event: { output: ResponsibleGambling } }) => ({ kind, limits: event.output }) } },
      onError: { target: '#limits.editing', actions: { type: 'storeSaveFailure', params: ({ event }: { event: { error: unknown } }) => ({ kind, error: event.error }) } },
    },
  } as const;
}

export const limitsMachine = setup({
  types: {
    context: {} as LimitsContext,
    events: {} as LimitsEvent,
  },
  actors: {
    /** GET /responsible-gambling/get-limits */
    loadLimits: notProvided<ResponsibleGambling, undefined>('loadLimits'),
    /** POST /responsible-gambling/update-limit (one kind). */
    saveLimits: notProvided<ResponsibleGambling, LimitUpdate>('saveLimits'),
  },
  actions: {
    notify: (_, _params: Notice) => {},
    storeLimits: assign((_, params: { limits: ResponsibleGambling }) => {
      const saved = savedValues(params.limits);
      return { limits: params.limits, saved, values: saved, fieldErrors: {}, failed: false, errorCode: null, hasChanges: false };
    }),
    storeLoadFailure: assign((_, params: { error: unknown }) => ({ failed: true, errorCode: toFailure(params.error).code })),
    /** A field changed: the three fields of its kind are checked again (the order rule relates them). */
    changeField: assign(({ context }, params: { field: LimitField; value: string }) => {
      const values = { ...context.values, [params.field]: params.value };
      const kind = params.field.split('.')[0] as LimitKind;
      return { values, fieldErrors: { ...context.fieldErrors, ...kindCodes(values, kind) }, hasChanges: differs(values, context.saved) };
    }),
    showFieldErrors: assign(({ context }) => ({ fieldErrors: allCodes(context.values) })),
    clearFailure: assign({ failed: false, errorCode: null }),
    /** One kind saved: what the server holds now, for that kind's fields (the others keep what was typed). */
    storeSaved: assign(({ context }, params: { kind: LimitKind; limits: ResponsibleGambling }) => {
      const server = savedValues(params.limits);
      const fields = LIMIT_PERIODS.map((period) => fieldOf(params.kind, period));
      const pick = (source: LimitValues) => Object.fromEntries(fields.map((field) => [field, source[field]]));
      const saved = { ...context.saved, ...pick(server) } as LimitValues;
      const values = { ...context.values, ...pick(server) } as LimitValues;
      return { limits: params.limits, saved, values, hasChanges: differs(values, saved) };
    }),
    /** A refusal: its code, and the server's per-field codes on the fields of the kind it was about. */
    storeSaveFailure: assign(({ context }, params: { kind: LimitKind; error: unknown }) => {
      const failure = toFailure(params.error);
      const fieldErrors = { ...context.fieldErrors };
      for (const { field, code } of failure.fields) {
        if (!(LIMIT_PERIODS as readonly string[]).includes(field)) continue;
        const key = fieldOf(params.kind, field as LimitPeriod);
        const codes = fieldErrors[key] ?? [];
        if (!codes.includes(code)) fieldErrors[key] = [...codes, code];
      }
      return { failed: true, errorCode: failure.code, fieldErrors };
    }),
  },
  guards: {
    selfExcluded: (_, params: { limits: ResponsibleGambling }) => params.limits.selfExclusion.type !== null,
    formInvalid: ({ context }) => Object.values(allCodes(context.values)).some((codes) => codes.length > 0),
    hasChanges: ({ context }) => context.hasChanges,
    /** The kind's fields differ from what is saved. */
    kindChanged: ({ context }, params: { kind: LimitKind }) => changedKinds(context).includes(params.kind),
  },
}).createMachine({
  id: 'limits',
  context: { limits: null, values: EMPTY, saved: EMPTY, fieldErrors: {}, failed: false, errorCode: null, hasChanges: false },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadLimits',
        onDone: [
          {
            guard: { type: 'selfExcluded', params: ({ event }) => ({ limits: event.output }) },
            target: 'locked',
            actions: { type: 'storeLimits', params: ({ event }) => ({ limits: event.output }) },
          },
          { target: 'editing', actions: { type: 'storeLimits', params: ({ event }) => ({ limits: event.output }) } },
        ],
        onError: { target: 'failed', actions: { type: 'storeLoadFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    /** Self-excluded: the limits are shown, not changed (the server refuses it until the exclusion ends). */
    locked: {},
    editing: {
      on: {
        'FIELD.CHANGE': {
          actions: ['clearFailure', { type: 'changeField', params: ({ event }) => ({ field: event.field, value: event.value }) }],
        },
        SAVE: [
          { guard: 'formInvalid', actions: 'showFieldErrors' },
          { guard: 'hasChanges', target: 'saving', actions: 'clearFailure' },
        ],
      },
    },
    /** Each kind that changed, one request after the other, in page order. */
    saving: {
      initial: 'next',
      states: {
        next: {
          always: [
            { guard: { type: 'kindChanged', params: { kind: 'deposit' } }, target: 'deposit' },
            { guard: { type: 'kindChanged', params: { kind: 'bet' } }, target: 'bet' },
            { guard: { type: 'kindChanged', params: { kind: 'loss' } }, target: 'loss' },
            { target: '#limits.editing', actions: { type: 'notify', params: { tone: 'success', message: 'messages.limitsUpdated' } } },
          ],
        },
        deposit: saveKind('deposit'),
        bet: saveKind('bet'),
        loss: saveKind('loss'),
      },
    },
  },
});
