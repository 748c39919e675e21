import type { Struct } from 'superstruct';
import { assign, setup } from 'xstate';
import type { components, operations } from '../api/schema.d.ts';
import { profileFields, ProfileUpdateInput } from '../rules/user.ts';
import { codesByField, fieldCodes, validate } from '../rules/validate.ts';
import { notProvided, type ErrorCode, type Notice, type User } from './effects.ts';
import { formFlow } from './form.ts';
import type { Country } from './register.machine.ts';

/*
 * The profile's basic information (SPEC §3 user fields, §4 "profile edit success closes the profile
 * accordion", §5 rules). Two regions side by side: the form, filled with the player's details, and the
 * countries with their states that country and state choose from (sent as countryCode and stateCode).
 * Every field is checked as the player types, with the rules the server applies (src/rules/user.ts
 * profileFields); the email cannot change here (openapi.yaml userUpdate), so it is shown, not edited.
 * SUBMIT sends only a valid form, with every member (middleName '' as null). On success a toast says
 * "Profile Updated Successfully!", the app stores the player the server answered with, and the flow is
 * done (the view closes its section). A refusal (USERNAME_IS_TAKEN, PHONE_IS_TAKEN, the server's field
 * codes) goes back to the form with its message.
 */

export const PROFILE_FIELDS = Object.keys(profileFields) as (keyof typeof profileFields)[];
export type ProfileField = keyof typeof profileFields;
export type ProfileRequest = operations['userUpdate']['requestBody']['content']['application/json'];
type Gender = components['schemas']['Gender'];

export interface ProfileInput {
  user: User;
}

export interface ProfileContext {
  email: string;
  values: Record<ProfileField, string>;
  fieldErrors: Partial<Record<ProfileField, readonly string[]>>;
  countries: Country[];
  errorCode: ErrorCode | null;
}

export type ProfileEvent = { type: 'FIELD.CHANGE'; field: ProfileField; value: string } | { type: 'SUBMIT' } | { type: 'COUNTRIES.RETRY' };

/** The form's values for a player: each field as the server has it, '' for one not filled in yet. */
export function profileValues(user: User): Record<ProfileField, string> {
  return Object.fromEntries(PROFILE_FIELDS.map((field) => [field, user[field] ?? ''])) as Record<ProfileField, string>;
}

/** The wire body: every member, middleName '' as null (none). */
export function profileRequest(values: Record<ProfileField, string>): ProfileRequest {
  const { middleName, gender, ...required } = values;
  return { ...required, middleName: middleName === '' ? null : middleName, gender: gender as Gender };
}

/** The states of the chosen country, for the state picker. */
export function statesOfProfileCountry(context: Pick<ProfileContext, 'countries' | 'values'>): Country['states'] {
  return context.countries.find((country) => country.code === context.values.countryCode)?.states ?? [];
}

const form = formFlow<ProfileField, ProfileContext, ProfileEvent>({
  fields: PROFILE_FIELDS,
  countries: ({ countries }) => countries,
  check: ({ values }) => {
    const result = validate(ProfileUpdateInput, values);
    return result.ok ? {} : codesByField(result.fields);
  },
  // One struct per field; their value types differ (middleName accepts null), the check does not.
  live: ({ values }, field) => fieldCodes(profileFields[field] as Struct<string | null | undefined, null>, values[field]),
});

export const profileMachine = setup({
  types: {
    context: {} as ProfileContext,
    events: {} as ProfileEvent,
    input: {} as ProfileInput,
  },
  actors: {
    /** GET /common/get-countries */
    loadCountries: notProvided<Country[]>('loadCountries'),
    /** POST /user/update */
    updateProfile: notProvided<User, ProfileRequest>('updateProfile'),
  },
  actions: {
    ...form.actions,
    notify: (_, _params: Notice) => {},
    /** The app keeps the player the server answered with (the header, the other sections). */
    updateUser: (_, _params: { user: User }) => {},
    storeCountries: assign((_, params: { countries: Country[] }) => ({ countries: params.countries })),
  },
  guards: {
    ...form.guards,
  },
}).createMachine({
  id: 'profile',
  context: ({ input }) => ({ email: input.user.email, values: profileValues(input.user), fieldErrors: {}, countries: [], errorCode: null }),
  type: 'parallel',
  states: {
    form: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'FIELD.CHANGE': {
              actions: ['clearFailure', { type: 'changeField', params: ({ event }) => ({ field: event.field, value: event.value }) }],
            },
            SUBMIT: [{ guard: 'formInvalid', actions: 'showFieldErrors' }, { target: 'saving' }],
          },
        },
        saving: {
          entry: 'clearFailure',
          invoke: {
            src: 'updateProfile',
            input: ({ context }) => profileRequest(context.values),
            onDone: {
              target: 'done',
              actions: [
                { type: 'updateUser', params: ({ event }) => ({ user: event.output }) },
                { type: 'notify', params: { tone: 'success', message: 'messages.profileUpdated' } },
              ],
            },
            onError: { target: 'editing', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
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
            onDone: { target: 'loaded', actions: { type: 'storeCountries', params: ({ event }) => ({ countries: event.output }) } },
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
