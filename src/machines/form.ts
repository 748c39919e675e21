import { assign, type EventObject } from 'xstate';
import type { ErrorCode } from './effects.ts';
import { mergeFieldCodes, toFailure } from './failure.ts';

/*
 * What every form flow does with its fields, written once: a field changes (and is checked as the player
 * types, or waits for the next submit), a submit shows every field's messages, a refusal keeps its code
 * and adds the server's per-field codes, and the next attempt clears it. A form machine spreads `actions`
 * and `guards` into its `setup` and names them in its states as usual, so the charts show them.
 */

export interface FormContext<TField extends string> {
  /** What the player typed; '' for an empty field. */
  values: Record<TField, string>;
  /** Rule codes per field (src/rules codes, and the server's `fields` codes): absent until checked, [] when it passes. */
  fieldErrors: Partial<Record<TField, readonly string[]>>;
  /** The failure's code; null with no failure, or when the failure had no code (no answer). */
  errorCode: ErrorCode | null;
}

export interface FieldChange<TField extends string> {
  field: TField;
  value: string;
}

export type FieldCodes<TField extends string> = Partial<Record<TField, readonly string[]>>;

export interface FormRules<TField extends string, TContext extends FormContext<TField>> {
  fields: readonly TField[];
  /** The codes of every failing rule of the form as it stands (absent fields pass); any code makes it invalid. */
  check(context: TContext): FieldCodes<string>;
  /**
   * The codes a field shows as it is typed, for the form with the new value. Without it, typing a field
   * clears its messages until the next submit.
   */
  live?(context: TContext, field: TField): readonly string[];
  /** Fields checked again when another changes, once shown (a confirmation follows its password). */
  followers?: Partial<Record<TField, TField>>;
  /**
   * For a form with `countryCode` and `stateCode`: the countries known so far. A state of the previous
   * country is no answer for the new one: a country change clears it (with its messages) when the new
   * country's states are known and do not hold it.
   */
  countries?(context: TContext): readonly RegionCountry[];
}

/** What a form needs of a country to keep its state field in step (the Country of get-countries). */
export interface RegionCountry {
  code: string;
  states: readonly { code: string }[];
}

/** The form's actions and guard, for a machine whose context is a FormContext and whose events are TEvent. */
export function formFlow<TField extends string, TContext extends FormContext<TField>, TEvent extends EventObject>(
  rules: FormRules<TField, TContext>,
) {
  /** The context after one field changed (for a machine that adds its own consequences of a change). */
  const changed = (context: TContext, change: FieldChange<TField>): Pick<TContext, 'values' | 'fieldErrors'> => {
    const values = { ...context.values, [change.field]: change.value };
    const next = { ...context, values };
    const { live } = rules;
    const fieldErrors: FieldCodes<TField> = { ...context.fieldErrors, [change.field]: live ? live(next, change.field) : [] };
    const follower = rules.followers?.[change.field];
    if (live && follower !== undefined && context.fieldErrors[follower] !== undefined) {
      fieldErrors[follower] = live(next, follower);
    }
    const region = values as Record<string, string>;
    if (rules.countries && change.field === 'countryCode' && region.stateCode) {
      const country = rules.countries(context).find((candidate) => candidate.code === region.countryCode);
      if (country !== undefined && !country.states.some((state) => state.code === region.stateCode)) {
        const { stateCode: _unchecked, ...others } = fieldErrors as Record<string, readonly string[]>;
        return { values: { ...values, stateCode: '' }, fieldErrors: others } as unknown as Pick<TContext, 'values' | 'fieldErrors'>;
      }
    }
    return { values, fieldErrors } as Pick<TContext, 'values' | 'fieldErrors'>;
  };

  const actions = {
    changeField: assign<TContext, TEvent, FieldChange<TField>, TEvent, never>(
      ({ context }, change) => changed(context, change) as Partial<TContext>,
    ),
    /** SUBMIT on an invalid form: every field shows its messages ([] for those that pass). */
    showFieldErrors: assign<TContext, TEvent, undefined, TEvent, never>(({ context }) => {
      const codes = rules.check(context);
      const fieldErrors = Object.fromEntries(rules.fields.map((field) => [field, codes[field] ?? []])) as FieldCodes<TField>;
      return { fieldErrors } as Partial<TContext>;
    }),
    storeFailure: assign<TContext, TEvent, { error: unknown }, TEvent, never>(({ context }, params) => {
      const failure = toFailure(params.error);
      return {
        errorCode: failure.code,
        fieldErrors: mergeFieldCodes(context.fieldErrors, failure.fields, rules.fields),
      } as Partial<TContext>;
    }),
    clearFailure: assign<TContext, TEvent, undefined, TEvent, never>(() => ({ errorCode: null }) as Partial<TContext>),
  };

  const guards = {
    formInvalid: ({ context }: { context: TContext }) => Object.keys(rules.check(context)).length > 0,
  };

  return { actions, guards, changed };
}
