import type { Struct } from 'superstruct';
import { assign, setup } from 'xstate';
import type { components, operations } from '../api/schema.d.ts';
import { encodePassword, passwordChecks, type PasswordCheck } from '../rules/password.ts';
import { signupFields, SignupInput } from '../rules/user.ts';
import { codesByField, fieldCodes, validate } from '../rules/validate.ts';
import { notProvided, type ErrorCode, type Notice, type User } from './effects.ts';
import { formFlow } from './form.ts';

/*
 * The register dialog (SPEC §4 signup, §5 rules). Two regions run side by side: the form, and the list
 * of countries with their states that the address fields choose from (loaded once at start). Each field
 * is checked as the player types; SUBMIT sends only a valid form. On success a toast says so and the flow
 * is done (the view asks the player to confirm the email). A failure keeps its code (fallback 'signup',
 * 'Something went wrong!') and adds the server's per-field codes to the fields.
 */

export const SIGNUP_FIELDS = Object.keys(signupFields) as (keyof typeof signupFields)[];
export type SignupField = keyof typeof signupFields;

export type Country = components['schemas']['Country'];
export type SignupRequest = operations['userSignup']['requestBody']['content']['application/json'];
type Gender = components['schemas']['Gender'];

export interface RegisterContext {
  /** What the player typed; '' for an empty field (middleName and referralCode may stay empty). */
  values: Record<SignupField, string>;
  /** Rule codes per field: absent until the field is checked, [] when it passes. */
  fieldErrors: Partial<Record<SignupField, readonly string[]>>;
  countries: Country[];
  errorCode: ErrorCode | null;
}

export interface RegisterInput {
  /** The referral code of the link the player came by (`?ref=`). */
  referralCode?: string | null;
}

export type RegisterEvent =
  | { type: 'FIELD.CHANGE'; field: SignupField; value: string }
  | { type: 'SUBMIT' }
  | { type: 'COUNTRIES.RETRY' };

/** The live checklist of the password rules, one tick per SPEC §5 rule. */
export function passwordTicks(context: RegisterContext): Record<PasswordCheck, boolean> {
  return passwordChecks(context.values.password);
}

/** The states of the chosen country, for the state picker. */
export function statesOfCountry(context: RegisterContext): Country['states'] {
  return context.countries.find((country) => country.code === context.values.countryCode)?.states ?? [];
}

/** One field's codes; confirmPassword is checked within the form, as it must match the password. */
function liveCodes(values: Record<SignupField, string>, field: SignupField): readonly string[] {
  if (field !== 'confirmPassword') {
    // One struct per field; their value types differ (optional fields accept null), the check does not.
    return fieldCodes(signupFields[field] as Struct<string | null | undefined, null>, values[field]);
  }
  const result = validate(SignupInput, values);
  return result.ok ? [] : (codesByField(result.fields).confirmPassword ?? []);
}

/** The wire body: passwords base64-encoded (SPEC §5), optional fields left out when empty. */
export function signupRequest(values: Record<SignupField, string>): SignupRequest {
  const { middleName, referralCode, password, confirmPassword, gender, ...required } = values;
  return {
    ...required,
    gender: gender as Gender,
    ...(middleName === '' ? {} : { middleName }),
    ...(referralCode === '' ? {} : { referralCode }),
    password: encodePassword(password),
    confirmPassword: encodePassword(confirmPassword),
  };
}

const emptyValues = Object.fromEntries(SIGNUP_FIELDS.map((field) => [field, ''])) as Record<SignupField, string>;

const form = formFlow<SignupField, RegisterContext, RegisterEvent>({
  fields: SIGNUP_FIELDS,
  countries: ({ countries }) => countries,
  check: ({ values }) => {
    const result = validate(SignupInput, values);
    return result.ok ? {} : codesByField(result.fields);
  },
  live: ({ values }, field) => liveCodes(values, field),
  // A confirmation already typed must follow the password it confirms.
  followers: { password: 'confirmPassword' },
});

export const registerMachine = setup({
  types: {
    context: {} as RegisterContext,
    events: {} as RegisterEvent,
    input: {} as RegisterInput,
  },
  actors: {
    /** GET /common/get-countries. */
    loadCountries: notProvided<Country[]>('loadCountries'),
    /** POST /user/signup. */
    signup: notProvided<User, SignupRequest>('signup'),
  },
  actions: {
    notify: (_, _params: Notice) => {},
    ...form.actions,
    storeCountries: assign((_, params: { countries: Country[] }) => ({ countries: params.countries })),
  },
  guards: {
    ...form.guards,
  },
}).createMachine({
  id: 'register',
  context: ({ input }) => {
    const values = { ...emptyValues, referralCode: input.referralCode ?? '' };
    // A code from the link is checked at once: the player sees a bad one before typing anything.
    const fieldErrors = values.referralCode === '' ? {} : { referralCode: liveCodes(values, 'referralCode') };
    return { values, fieldErrors, countries: [], errorCode: null };
  },
  type: 'parallel',
  states: {
    form: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'FIELD.CHANGE': {
              actions: { type: 'changeField', params: ({ event }) => ({ field: event.field, value: event.value }) },
            },
            SUBMIT: [{ guard: 'formInvalid', actions: 'showFieldErrors' }, { target: 'submitting' }],
          },
        },
        submitting: {
          entry: 'clearFailure',
          invoke: {
            src: 'signup',
            input: ({ context }) => signupRequest(context.values),
            onDone: {
              target: 'done',
              actions: { type: 'notify', params: { tone: 'success', message: 'messages.registerSuccess' } },
            },
            onError: {
              target: 'failed',
              actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: {
          on: {
            'FIELD.CHANGE': {
              target: 'editing',
              actions: [
                'clearFailure',
                { type: 'changeField', params: ({ event }) => ({ field: event.field, value: event.value }) },
              ],
            },
            // The form is as it was when it was sent, valid: send it again.
            SUBMIT: 'submitting',
          },
        },
        done: { type: 'final' },
      },
    },
    countries: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadCountries',
            onDone: {
              target: 'loaded',
              actions: { type: 'storeCountries', params: ({ event }) => ({ countries: event.output }) },
            },
            // SPEC §8: load failures are not reported; the view may offer a retry.
            onError: 'unavailable',
          },
        },
        loaded: {},
        unavailable: {
          on: { 'COUNTRIES.RETRY': 'loading' },
        },
      },
    },
  },
});
