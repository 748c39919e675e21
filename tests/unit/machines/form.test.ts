import { describe, expect, it } from 'vitest';
import { formFlow, type FormContext } from '../../../src/machines/form.ts';

type Field = 'countryCode' | 'stateCode' | 'city';
interface Context extends FormContext<Field> {
  countries: { code: string; states: { code: string }[] }[];
}

const COUNTRIES = [
  { code: 'PT', states: [{ code: '11' }, { code: '13' }] },
  { code: 'BR', states: [{ code: 'SP' }] },
  { code: 'XX', states: [] },
];

const form = formFlow<Field, Context, { type: 'FIELD.CHANGE' }>({
  fields: ['countryCode', 'stateCode', 'city'],
  check: () => ({}),
  live: ({ values }, field) => (values[field] === '' ? ['required'] : []),
  countries: ({ countries }) => countries,
});

function context(countries: Context['countries'] = COUNTRIES): Context {
  return { values: { countryCode: 'PT', stateCode: '11', city: 'Lisboa' }, fieldErrors: { stateCode: [] }, errorCode: null, countries };
}

describe('formFlow with a country and a state', () => {
  it("clears a state that is not the new country's, with its messages", () => {
    const next = form.changed(context(), { field: 'countryCode', value: 'BR' });
    expect(next.values).toEqual({ countryCode: 'BR', stateCode: '', city: 'Lisboa' });
    expect(next.fieldErrors).toEqual({ countryCode: [] });
  });

  it("keeps a state the new country has, and any state while the country's states are not known", () => {
    expect(form.changed(context([{ code: 'BR', states: [{ code: '11' }] }]), { field: 'countryCode', value: 'BR' }).values.stateCode).toBe('11');
    expect(form.changed(context([]), { field: 'countryCode', value: 'BR' }).values.stateCode).toBe('11');
  });

  it('leaves the state alone when another field changes', () => {
    expect(form.changed(context(), { field: 'city', value: 'Porto' }).values).toEqual({ countryCode: 'PT', stateCode: '11', city: 'Porto' });
  });
});
