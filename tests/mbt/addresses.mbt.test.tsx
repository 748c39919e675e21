// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { errorMessageKey, ruleMessageKey } from '../../src/api/errors.ts';
import { addressesFixtures } from '../../src/flows/fixtures/profile.ts';
import type { MessageKey } from '../../src/i18n/index.ts';
import { ADDRESS_FIELDS, addressRequest, type Address, type AddressField, type addressesMachine, type AddressUpdate, type NewAddress } from '../../src/machines/addresses.machine.ts';
import type { Notice } from '../../src/machines/effects.ts';
import { toFailure } from '../../src/machines/failure.ts';
import { Addresses, addressLine } from '../../src/views/profile/Addresses.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { changesAValue, fillsInOrder } from './filters.ts';
import { describeModel, type View } from './run.tsx';
import { button, expectButton, expectField, formAlerts, setField } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type AddressesView = View<typeof addressesMachine>;
type AddressesSnapshot = SnapshotFrom<typeof addressesMachine>;

/*
 * The profile's addresses: the list with Edit and Remove on each, the form (new or filled with the
 * address edited) with its rules, what each save sent, ADDRESS_ALREADY_EXISTS with its SPEC §8 message,
 * the removal asked first, and a refused removal's toast.
 */

const LABEL_KEYS: Record<AddressField, MessageKey> = {
  label: 'profile.addresses.label',
  address: 'auth.register.address',
  city: 'auth.register.city',
  countryCode: 'auth.register.country',
  stateCode: 'auth.register.state',
  zipCode: 'auth.register.zipCode',
};

function label(view: AddressesView, field: AddressField): string {
  const text = view.t(LABEL_KEYS[field]);
  return field === 'label' ? `${text} (${view.t('common.optional')})` : text;
}

const sent = new WeakMap<AddressesView, { src: string; body: unknown }[]>();

/** The toasts of the path so far: one per refused removal. */
function expectedNotices(view: AddressesView): Notice[] {
  return view.steps.flatMap((step): Notice[] =>
    step.kind.kind === 'error' && step.kind.src === 'removeAddress'
      ? [{ tone: 'error', code: toFailure((step.event as { error?: unknown }).error).code, fallback: 'default' }]
      : [],
  );
}

function seeEffects(view: AddressesView) {
  expect(view.harness.notices).toEqual(expectedNotices(view));
}

const itemOf = (view: AddressesView, id: number, snapshot: AddressesSnapshot) => {
  const address = snapshot.context.addresses.find((candidate) => candidate.id === id)!;
  return screen.getByText(addressLine(address)).closest('li')!;
};

function seeList(view: AddressesView, snapshot: AddressesSnapshot) {
  const { addresses, removingId } = snapshot.context;
  const items = screen.queryAllByRole('listitem');
  expect(items.length).toBe(addresses.length);
  addresses.forEach((address, index) => expect(within(items[index]!).getByText(addressLine(address))).toBeTruthy());
  if (addresses.length === 0) expect(screen.getByText(view.t('profile.addresses.empty'))).toBeTruthy();
  for (const address of addresses) {
    const item = itemOf(view, address.id, snapshot);
    const name = address.label ?? addressLine(address);
    if (address.id === removingId) {
      expect(within(item).getByRole('group', { name: view.t('profile.addresses.removeConfirm') })).toBeTruthy();
    } else {
      expect(within(item).getByRole('button', { name: view.t('profile.addresses.editOf', { address: name }) })).toBeTruthy();
      expect(within(item).getByRole('button', { name: view.t('profile.addresses.removeOf', { address: name }) })).toBeTruthy();
    }
  }
  expect(button(view.t('profile.addresses.add')).disabled).toBe(removingId !== null);
  expect(screen.queryByLabelText(label(view, 'address'))).toBeNull();
}

function seeForm(view: AddressesView, snapshot: AddressesSnapshot, busy: boolean) {
  const { context } = snapshot;
  expect(screen.getByRole('heading', { name: view.t(context.editingId === null ? 'profile.addresses.newTitle' : 'profile.addresses.edit') })).toBeTruthy();
  for (const field of ADDRESS_FIELDS) expectField(view.t, label(view, field), context.values[field], context.fieldErrors[field]);
  const alerts = formAlerts().filter((text) => !text.startsWith(view.t('auth.register.countriesUnavailable')));
  // A refusal of the request as a whole (the 20 addresses kept) says so; any other says its code's message.
  const whole = context.requestCodes.map((code) => view.t(ruleMessageKey(code)!)).join(' ');
  expect(alerts).toEqual(whole ? [whole] : context.errorCode ? [view.t(errorMessageKey(context.errorCode, 'default'))] : []);
  expectButton(busy ? view.t('profile.addresses.saving') : view.t('profile.addresses.save'), busy);
}

const fillOrder = fillsInOrder(addressesFixtures.events['FIELD.CHANGE']);
const inList = (snapshot: AddressesSnapshot, id: number) => snapshot.context.addresses.some((address) => address.id === id);

describeModel('addresses', {
  fixtures: addressesFixtures,
  filterEvents: (snapshot, event) => {
    const state = snapshot as AddressesSnapshot;
    if (event.type === 'FIELD.CHANGE' && 'field' in event) {
      const field = event.field as AddressField;
      if ((field === 'countryCode' || field === 'stateCode') && !state.matches({ countries: 'loaded' })) return false;
      return changesAValue(snapshot, event) && fillOrder(snapshot, event);
    }
    if (event.type === 'EDIT' || event.type === 'REMOVE') return inList(state, (event as unknown as { addressId: number }).addressId);
    // The countries' retry shows with the form.
    if (event.type === 'COUNTRIES.RETRY') return state.matches({ list: 'editing' });
    return true;
  },
  render: (view) => {
    const requests: { src: string; body: unknown }[] = [];
    sent.set(view, requests);
    const record = <TOutput, TInput>(src: 'addAddress' | 'updateAddress' | 'removeAddress') =>
      fromPromise<TOutput, TInput>(({ input, signal }) => {
        requests.push({ src, body: input });
        return view.call(src, input, signal) as Promise<TOutput>;
      });
    return renderWithServices(<Addresses close={() => {}} show={() => {}} />, {
      actors: {
        ...view.actors,
        addAddress: record<Address, NewAddress>('addAddress'),
        updateAddress: record<Address, AddressUpdate>('updateAddress'),
        removeAddress: record<void, { addressId: number }>('removeAddress'),
      },
    });
  },
  events: {
    ADD: (view) => view.user.click(button(view.t('profile.addresses.add'))),
    EDIT: async (view) => view.user.click(screen.getAllByRole('button', { name: new RegExp(`^${view.t('common.edit')}`) })[0]!),
    REMOVE: async (view) => view.user.click(screen.getAllByRole('button', { name: new RegExp(`^${view.t('profile.addresses.remove')}`) })[0]!),
    'FIELD.CHANGE': (view, event) => setField(view.user, label(view, event.field), event.value),
    SUBMIT: (view) => view.user.click(button(view.t('profile.addresses.save'))),
    CANCEL: (view) => view.user.click(button(view.t('common.cancel'))),
    CONFIRM: (view) => view.user.click(button(view.t('profile.addresses.confirmRemove'))),
    RETRY: (view) => view.user.click(button(view.t('common.retry'))),
    'COUNTRIES.RETRY': (view) => view.user.click(button(view.t('common.retry'))),
  },
  states: {
    'list.loading': (view) => {
      seeEffects(view);
      expect(screen.getByRole('status').getAttribute('aria-busy')).toBe('true');
    },
    'list.failed': (view, snapshot) => {
      seeEffects(view);
      expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(snapshot.context.errorCode, 'default')));
    },
    'list.listing': (view, snapshot) => {
      seeEffects(view);
      seeList(view, snapshot);
    },
    'list.editing': (view, snapshot) => {
      seeEffects(view);
      seeForm(view, snapshot, false);
    },
    'list.adding': (view, snapshot) => {
      seeForm(view, snapshot, true);
      expect(sent.get(view)!.at(-1)).toEqual({ src: 'addAddress', body: addressRequest(snapshot.context.values) });
    },
    'list.updating': (view, snapshot) => {
      seeForm(view, snapshot, true);
      const body: NewAddress & { addressId: number } = { addressId: snapshot.context.editingId!, ...addressRequest(snapshot.context.values) };
      expect(sent.get(view)!.at(-1)).toEqual({ src: 'updateAddress', body });
    },
    'list.confirmingRemoval': (view, snapshot) => {
      seeEffects(view);
      seeList(view, snapshot);
      expect(button(view.t('profile.addresses.confirmRemove')).disabled).toBe(false);
    },
    'list.removing': (view, snapshot) => {
      seeList(view, snapshot);
      expectButton(view.t('profile.addresses.removing'), true);
      expect(sent.get(view)!.at(-1)).toEqual({ src: 'removeAddress', body: { addressId: snapshot.context.removingId } });
    },
    // The countries show in the form only; the list does not need them.
    'countries.loading': (view, snapshot) => {
      if (!snapshot.matches({ list: 'editing' })) return;
      expect((screen.getByLabelText(label(view, 'countryCode')) as HTMLSelectElement).disabled).toBe(true);
    },
    'countries.loaded': (view, snapshot) => {
      if (!snapshot.matches({ list: 'editing' })) return;
      const country = screen.getByLabelText(label(view, 'countryCode')) as HTMLSelectElement;
      expect(country.disabled).toBe(false);
      expect([...country.options].map((option) => option.value).filter((code) => code !== '' && code !== snapshot.context.values.countryCode || code === '')).toEqual(
        ['', ...snapshot.context.countries.map((candidate) => candidate.code)].filter((code) => code !== snapshot.context.values.countryCode || code === ''),
      );
    },
    'countries.unavailable': (view, snapshot) => {
      if (!snapshot.matches({ list: 'editing' })) return;
      expect(formAlerts().some((text) => text.startsWith(view.t('auth.register.countriesUnavailable')))).toBe(true);
    },
  },
});
