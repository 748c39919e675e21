import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { encodePassword } from '../../../src/rules/password.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import type { User } from '../../../src/machines/effects.ts';
import {
  passwordTicks,
  registerMachine,
  signupRequest,
  statesOfCountry,
  SIGNUP_FIELDS,
  type Country,
  type SignupField,
  type SignupRequest,
} from '../../../src/machines/register.machine.ts';
import { aUser, deferred, flush, paramsOf, recordedActions } from './fixtures.ts';

const COUNTRIES: Country[] = [
  { code: 'PT', name: 'Portugal', phoneCode: '+351', states: [{ code: '11', name: 'Lisboa' }, { code: '13', name: 'Porto' }] },
  { code: 'ES', name: 'Spain', phoneCode: '+34', states: [{ code: 'M', name: 'Madrid' }, { code: '11', name: 'Cádiz' }] },
  { code: 'US', name: 'United States', phoneCode: '+1', states: [{ code: 'CA', name: 'California' }] },
];

const VALID: Record<SignupField, string> = {
  firstName: 'Ana',
  middleName: '',
  lastName: 'Silva',
  email: 'ana@example.com',
  username: 'ana7',
  phoneCode: '+351',
  phone: '912345678',
  dateOfBirth: '1990-04-12',
  gender: 'female',
  address: 'Rua Augusta 10',
  city: 'Lisboa',
  stateCode: '11',
  countryCode: 'PT',
  zipCode: '12345',
  password: 'Secret@123',
  confirmPassword: 'Secret@123',
  referralCode: '',
};

interface Fakes {
  loadCountries?: () => Promise<Country[]>;
  signup?: (input: SignupRequest) => Promise<User>;
  referralCode?: string;
}

function start(fakes: Fakes = {}) {
  const { spies } = recordedActions(['notify'] as const);
  const sent: SignupRequest[] = [];
  let countryLoads = 0;
  const machine = registerMachine.provide({
    actors: {
      loadCountries: fromPromise<Country[]>(async () => {
        countryLoads += 1;
        return (fakes.loadCountries ?? (async () => COUNTRIES))();
      }),
      signup: fromPromise<User, SignupRequest>(async ({ input }) => {
        sent.push(input);
        return (fakes.signup ?? (async () => aUser()))(input);
      }),
    },
    actions: spies,
  });
  const actor = createActor(machine, {
    input: fakes.referralCode === undefined ? {} : { referralCode: fakes.referralCode },
  }).start();
  const type = (field: SignupField, value: string) => actor.send({ type: 'FIELD.CHANGE', field, value });
  const fillValid = (overrides: Partial<Record<SignupField, string>> = {}) => {
    for (const [field, value] of Object.entries({ ...VALID, ...overrides })) type(field as SignupField, value);
  };
  return { actor, spies, sent, type, fillValid, countryLoads: () => countryLoads };
}

const form = (actor: ReturnType<typeof start>['actor']) => actor.getSnapshot().value.form;
const codes = (actor: ReturnType<typeof start>['actor']) => actor.getSnapshot().context.fieldErrors;

describe('registerMachine: countries', () => {
  it('loads the countries with their states at start', async () => {
    const { actor, countryLoads } = start();
    expect(actor.getSnapshot().matches({ countries: 'loading', form: 'editing' })).toBe(true);
    await flush();
    expect(actor.getSnapshot().matches({ countries: 'loaded' })).toBe(true);
    expect(actor.getSnapshot().context.countries).toEqual(COUNTRIES);
    expect(countryLoads()).toBe(1);
  });

  it('lets the player retry a failed load, and the form works meanwhile', async () => {
    let loads = 0;
    const { actor, type } = start({
      loadCountries: async () => {
        loads += 1;
        if (loads === 1) throw new ApiFailure(500, 'INTERNAL_SERVER_ERROR');
        return COUNTRIES;
      },
    });
    await flush();
    expect(actor.getSnapshot().matches({ countries: 'unavailable' })).toBe(true);
    type('firstName', 'Ana');
    expect(codes(actor).firstName).toEqual([]);
    actor.send({ type: 'COUNTRIES.RETRY' });
    expect(actor.getSnapshot().matches({ countries: 'loading' })).toBe(true);
    await flush();
    expect(actor.getSnapshot().matches({ countries: 'loaded' })).toBe(true);
    expect(actor.getSnapshot().context.countries).toHaveLength(3);
  });

  it('gives the states of the chosen country, and drops a state the new country lacks', async () => {
    const { actor, type } = start();
    await flush();
    type('countryCode', 'PT');
    type('stateCode', '11');
    expect(statesOfCountry(actor.getSnapshot().context).map((state) => state.code)).toEqual(['11', '13']);
    type('countryCode', 'ES'); // Spain has a state '11' too: kept.
    expect(actor.getSnapshot().context.values.stateCode).toBe('11');
    type('countryCode', 'US');
    expect(actor.getSnapshot().context.values.stateCode).toBe('');
    expect(codes(actor).stateCode).toBeUndefined();
    expect(codes(actor).countryCode).toEqual([]);
  });

  it('keeps the state when the new country is not in the list (not loaded yet)', () => {
    const { actor, type } = start({ loadCountries: () => new Promise<Country[]>(() => {}) });
    type('stateCode', '11');
    type('countryCode', 'PT');
    expect(actor.getSnapshot().context.values.stateCode).toBe('11');
  });
});

describe('registerMachine: field by field (SPEC §5)', () => {
  it('checks only the fields the player has touched, each with its own rule codes', () => {
    const { actor, type } = start();
    expect(codes(actor)).toEqual({});
    type('firstName', 'J0hn');
    type('email', 'ana@');
    type('username', 'ana_7');
    type('phone', '12ab');
    type('zipCode', '1234');
    type('dateOfBirth', '2020-01-01');
    type('address', 'ab');
    type('city', 'L1sboa');
    type('phoneCode', '');
    expect(codes(actor)).toEqual({
      firstName: ['name'],
      email: ['email'],
      username: ['username'],
      phone: ['phone'],
      zipCode: ['zip'],
      dateOfBirth: ['age'],
      address: ['address.length'],
      city: ['city'],
      phoneCode: ['required'],
    });
    type('firstName', 'João');
    expect(codes(actor).firstName).toEqual([]);
  });

  it('reports every broken password rule, with ticks for the checklist', () => {
    const { actor, type } = start();
    type('password', 'abc');
    expect(codes(actor).password).toEqual([
      'password.minLength',
      'password.uppercase',
      'password.number',
      'password.special',
    ]);
    expect(passwordTicks(actor.getSnapshot().context)).toEqual({
      minLength: false,
      uppercase: false,
      lowercase: true,
      number: false,
      special: false,
      noSpaces: true,
      printable: true,
    });
    type('password', 'Secret@123');
    expect(codes(actor).password).toEqual([]);
    expect(Object.values(passwordTicks(actor.getSnapshot().context)).every(Boolean)).toBe(true);
  });

  it('checks the confirmation against the password, and follows later password changes', () => {
    const { actor, type } = start();
    type('password', 'Secret@123');
    expect(codes(actor).confirmPassword).toBeUndefined();
    type('confirmPassword', 'Secret@12');
    expect(codes(actor).confirmPassword).toEqual(['confirmPassword.mismatch']);
    type('password', 'Secret@12');
    expect(codes(actor).password).toEqual([]);
    expect(codes(actor).confirmPassword).toEqual([]);
    type('confirmPassword', '');
    expect(codes(actor).confirmPassword).toEqual(['required']);
  });

  it('takes the referral code from the link and checks it at once', () => {
    expect(codes(start({ referralCode: 'FRIEND42' }).actor)).toEqual({ referralCode: [] });
    const bad = start({ referralCode: 'no!' }).actor;
    expect(bad.getSnapshot().context.values.referralCode).toBe('no!');
    expect(codes(bad)).toEqual({ referralCode: ['referralCode'] });
    expect(codes(start().actor)).toEqual({});
  });
});

describe('registerMachine: submitting', () => {
  it('blocks SUBMIT until the form is valid, showing every field', async () => {
    const { actor, sent, type } = start();
    type('firstName', 'Ana');
    actor.send({ type: 'SUBMIT' });
    expect(form(actor)).toBe('editing');
    expect(sent).toEqual([]);
    const shown = codes(actor);
    expect(Object.keys(shown).sort()).toEqual([...SIGNUP_FIELDS].sort());
    expect(shown.firstName).toEqual([]);
    expect(shown.middleName).toEqual([]);
    expect(shown.email).toEqual(['required']);
    expect(shown.confirmPassword).toEqual(['required']);
  });

  it('sends the valid form with base64 passwords, says so and is done', async () => {
    const answer = deferred<User>();
    const { actor, sent, spies, fillValid } = start({ signup: () => answer.promise, referralCode: 'FRIEND42' });
    await flush();
    fillValid({ referralCode: 'FRIEND42' });
    actor.send({ type: 'SUBMIT' });
    expect(form(actor)).toBe('submitting');
    const { middleName: _middle, ...withoutMiddle } = VALID;
    expect(sent).toEqual([
      {
        ...withoutMiddle,
        referralCode: 'FRIEND42',
        password: encodePassword('Secret@123'),
        confirmPassword: encodePassword('Secret@123'),
      },
    ]);
    answer.resolve(aUser());
    await flush();
    expect(form(actor)).toBe('done');
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'success', message: 'messages.registerSuccess' }]);
  });

  it('keeps the code and the server field codes of a refusal, then retries', async () => {
    let attempts = 0;
    const { actor, spies, fillValid, type } = start({
      signup: async () => {
        attempts += 1;
        if (attempts === 1) {
          throw new ApiFailure(400, 'PLEASE_CHECK_REQUEST_DATA', [
            { field: 'stateCode', code: 'state' },
            { field: 'username', code: 'username' },
            { field: '', code: 'unknownField' },
          ]);
        }
        if (attempts === 2) throw new ApiFailure(409, 'USERNAME_OR_EMAIL_ALREADY_EXISTS');
        return aUser();
      },
    });
    fillValid();
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(form(actor)).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBe('PLEASE_CHECK_REQUEST_DATA');
    expect(codes(actor).stateCode).toEqual(['state']);
    expect(codes(actor).username).toEqual(['username']);
    expect(spies.notify).not.toHaveBeenCalled();

    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(actor.getSnapshot().context.errorCode).toBe('USERNAME_OR_EMAIL_ALREADY_EXISTS');

    type('username', 'ana8');
    expect(form(actor)).toBe('editing');
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    expect(codes(actor).username).toEqual([]);
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(form(actor)).toBe('done');
  });

  it('stores no code when the signup got no answer', async () => {
    const { actor, fillValid } = start({ signup: async () => Promise.reject(new Error('offline')) });
    fillValid();
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(form(actor)).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBeNull();
  });
});

describe('signupRequest', () => {
  it('leaves out empty optional fields and encodes both passwords', () => {
    const body = signupRequest({ ...VALID, middleName: 'Maria', password: 'Pässw0rd!A', confirmPassword: 'x' });
    expect(body.middleName).toBe('Maria');
    expect('referralCode' in body).toBe(false);
    expect(body.password).toBe(encodePassword('Pässw0rd!A'));
    expect(body.confirmPassword).toBe(encodePassword('x'));
  });
});
