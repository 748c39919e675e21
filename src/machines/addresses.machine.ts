import type { Struct } from 'superstruct';
import { assign, setup } from 'xstate';
import type { components, operations } from '../api/schema.d.ts';
import { addressFields, AddressInput } from '../rules/user.ts';
import { codesByField, fieldCodes, validate } from '../rules/validate.ts';
import { notProvided, type ErrorCode, type Notice } from './effects.ts';
import { mergeFieldCodes, toFailure } from './failure.ts';
import { formFlow } from './form.ts';
import type { Country } from './register.machine.ts';

/*
 * The profile's addresses (SPEC §3 Address: list, add, update, remove; §5 address rules; §8
 * ADDRESS_ALREADY_EXISTS). Two regions side by side: the addresses, and the countries with their states
 * that the form chooses from. The list loads first; ADD opens an empty form, EDIT one filled with that
 * address; SUBMIT sends only a valid form (userAddAddress or userUpdateAddress) and the list shows the
 * address the server saved; a refusal stays on the form with its message. REMOVE asks first; CONFIRM
 * removes it; a refusal keeps the list as it was and a toast says why.
 */

export type Address = components['schemas']['Address'];
export const ADDRESS_FIELDS = ['label', 'address', 'city', 'countryCode', 'stateCode', 'zipCode'] as const satisfies readonly (keyof typeof addressFields)[];
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type NewAddress = operations['userAddAddress']['requestBody']['content']['application/json'];
export type AddressUpdate = operations['userUpdateAddress']['requestBody']['content']['application/json'];

export interface AddressesContext {
  addresses: Address[];
  countries: Country[];
  /** The address the form edits; null for a new one. */
  editingId: number | null;
  /** The address asked to be removed. */
  removingId: number | null;
  values: Record<AddressField, string>;
  fieldErrors: Partial<Record<AddressField, readonly string[]>>;
  errorCode: ErrorCode | null;
  /** The server's codes for the request as a whole (field ''), e.g. address.limit: shown instead of errorCode's message. */
  requestCodes: readonly string[];
}

export type AddressesEvent =
  | { type: 'ADD' }
  | { type: 'EDIT'; addressId: number }
  | { type: 'REMOVE'; addressId: number }
  | { type: 'FIELD.CHANGE'; field: AddressField; value: string }
  | { type: 'SUBMIT' }
  | { type: 'CANCEL' }
  | { type: 'CONFIRM' }
  | { type: 'RETRY' }
  | { type: 'COUNTRIES.RETRY' };

const EMPTY: Record<AddressField, string> = { label: '', address: '', city: '', countryCode: '', stateCode: '', zipCode: '' };

/** The wire body of the form: label '' as null (none). */
export function addressRequest(values: Record<AddressField, string>): NewAddress {
  const { label, ...required } = values;
  return { ...required, label: label === '' ? null : label };
}

/** The states of the chosen country, for the state picker. */
export function statesOfAddressCountry(context: Pick<AddressesContext, 'countries' | 'values'>): Country['states'] {
  return context.countries.find((country) => country.code === context.values.countryCode)?.states ?? [];
}

const form = formFlow<AddressField, AddressesContext, AddressesEvent>({
  fields: ADDRESS_FIELDS,
  countries: ({ countries }) => countries,
  check: ({ values }) => {
    const result = validate(AddressInput, values);
    return result.ok ? {} : codesByField(result.fields);
  },
  live: ({ values }, field) => fieldCodes(addressFields[field] as Struct<string | null | undefined, null>, values[field]),
});

export const addressesMachine = setup({
  types: {
    context: {} as AddressesContext,
    events: {} as AddressesEvent,
  },
  actors: {
    /** GET /user/get-addresses */
    loadAddresses: notProvided<Address[], undefined>('loadAddresses'),
    /** GET /common/get-countries */
    loadCountries: notProvided<Country[]>('loadCountries'),
    /** POST /user/add-address */
    addAddress: notProvided<Address, NewAddress>('addAddress'),
    /** POST /user/update-address */
    updateAddress: notProvided<Address, AddressUpdate>('updateAddress'),
    /** POST /user/remove-address */
    removeAddress: notProvided<void, { addressId: number }>('removeAddress'),
  },
  actions: {
    ...form.actions,
    notify: (_, _params: Notice) => {},
    storeAddresses: assign((_, params: { addresses: Address[] }) => ({ addresses: params.addresses, errorCode: null })),
    storeCountries: assign((_, params: { countries: Country[] }) => ({ countries: params.countries })),
    storeLoadFailure: assign((_, params: { error: unknown }) => ({ errorCode: codeOf(params.error) })),
    storeSaveFailure: assign(({ context }, params: { error: unknown }) => {
      const failure = toFailure(params.error);
      return {
        errorCode: failure.code,
        fieldErrors: mergeFieldCodes(context.fieldErrors, failure.fields, ADDRESS_FIELDS),
        requestCodes: failure.fields.filter((field) => field.field === '').map((field) => field.code),
      };
    }),
    clearSaveFailure: assign({ errorCode: null, requestCodes: [] }),
    startNew: assign({ editingId: null, values: EMPTY, fieldErrors: {}, errorCode: null, requestCodes: [] }),
    startEdit: assign(({ context }, params: { addressId: number }) => {
      const address = context.addresses.find((candidate) => candidate.id === params.addressId);
      const values = address ? { ...EMPTY, ...address, label: address.label ?? '' } : EMPTY;
      return { editingId: params.addressId, values: pick(values), fieldErrors: {}, errorCode: null, requestCodes: [] };
    }),
    /** The list with the address the server saved: in its place when updated, at the end when new. */
    storeSaved: assign(({ context }, params: { address: Address }) => {
      const known = context.addresses.some((address) => address.id === params.address.id);
      return {
        addresses: known ? context.addresses.map((address) => (address.id === params.address.id ? params.address : address)) : [...context.addresses, params.address],
        editingId: null,
        errorCode: null,
      };
    }),
    askRemoval: assign((_, params: { addressId: number }) => ({ removingId: params.addressId, errorCode: null })),
    forgetRemoval: assign({ removingId: null }),
    storeRemoved: assign(({ context }) => ({ addresses: context.addresses.filter((address) => address.id !== context.removingId), removingId: null })),
  },
  guards: {
    ...form.guards,
    isNew: ({ context }) => context.editingId === null,
  },
}).createMachine({
  id: 'addresses',
  context: { addresses: [], countries: [], editingId: null, removingId: null, values: EMPTY, fieldErrors: {}, errorCode: null, requestCodes: [] },
  type: 'parallel',
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadAddresses',
            onDone: { target: 'listing', actions: { type: 'storeAddresses', params: ({ event }) => ({ addresses: event.output }) } },
            onError: { target: 'failed', actions: { type: 'storeLoadFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        failed: {
          on: { RETRY: 'loading' },
        },
        listing: {
          on: {
            ADD: { target: 'editing', actions: 'startNew' },
            EDIT: { target: 'editing', actions: { type: 'startEdit', params: ({ event }) => ({ addressId: event.addressId }) } },
            REMOVE: { target: 'confirmingRemoval', actions: { type: 'askRemoval', params: ({ event }) => ({ addressId: event.addressId }) } },
          },
        },
        editing: {
          on: {
            'FIELD.CHANGE': {
              actions: ['clearSaveFailure', { type: 'changeField', params: ({ event }) => ({ field: event.field, value: event.value }) }],
            },
            SUBMIT: [{ guard: 'formInvalid', actions: 'showFieldErrors' }, { guard: 'isNew', target: 'adding' }, { target: 'updating' }],
            CANCEL: { target: 'listing', actions: 'clearSaveFailure' },
          },
        },
        adding: {
          entry: 'clearSaveFailure',
          invoke: {
            src: 'addAddress',
            input: ({ context }) => addressRequest(context.values),
            onDone: { target: 'listing', actions: { type: 'storeSaved', params: ({ event }) => ({ address: event.output }) } },
            onError: { target: 'editing', actions: { type: 'storeSaveFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        updating: {
          entry: 'clearSaveFailure',
          invoke: {
            src: 'updateAddress',
            input: ({ context }) => ({ addressId: context.editingId ?? 0, ...addressRequest(context.values) }),
            onDone: { target: 'listing', actions: { type: 'storeSaved', params: ({ event }) => ({ address: event.output }) } },
            onError: { target: 'editing', actions: { type: 'storeSaveFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        confirmingRemoval: {
          on: {
            CONFIRM: 'removing',
            CANCEL: { target: 'listing', actions: 'forgetRemoval' },
          },
        },
        removing: {
          invoke: {
            src: 'removeAddress',
            input: ({ context }) => ({ addressId: context.removingId ?? 0 }),
            onDone: { target: 'listing', actions: 'storeRemoved' },
            // The list stays as it was; a toast says why.
            onError: {
              target: 'listing',
              actions: ['forgetRemoval', { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, code: toFailure(event.error).code, fallback: 'default' as const }) }],
            },
          },
        },
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

function pick(values: Record<AddressField, string>): Record<AddressField, string> {
  return Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, values[field]])) as Record<AddressField, string>;
}

function codeOf(error: unknown): ErrorCode | null {
  return toFailure(error).code;
}
