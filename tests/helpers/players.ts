import { encodePassword } from '../../src/rules/password.ts';

// Players for the server and browser tests, with nothing of the server imported.

let counter = 0;

/** A signup payload that passes every rule, unique per call. */
export function newPlayer(overrides: Record<string, unknown> = {}) {
  counter += 1;
  // Fixed widths keep tags distinct: a counter of 12 with 345 must not read like 123 with 45.
  const unique = `${String(counter).padStart(4, '0')}${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`;
  const tag = `${process.pid % 10000}x${unique}`;
  return {
    firstName: 'Ana',
    lastName: 'Silva',
    email: `ana${tag}@example.com`,
    username: `ana${tag}`,
    phoneCode: '351',
    phone: `9${unique}${String(process.pid % 100).padStart(2, '0')}`,
    dateOfBirth: '1990-05-17',
    gender: 'female',
    address: 'Rua Augusta 100',
    city: 'Lisboa',
    stateCode: '11',
    countryCode: 'PT',
    zipCode: '11000',
    password: encodePassword('Secret@123'),
    confirmPassword: encodePassword('Secret@123'),
    ...overrides,
  };
}

