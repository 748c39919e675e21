import { createServer } from 'node:net';
import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, PRODUCTION_PASSWORD_HASHING } from '../../server/config.ts';
import { openDb, type Db } from '../../server/db/db.ts';
import { DEMO_PLAYER, ensureDemoPlayer } from '../../server/domain/demo.ts';
import { encodePassword } from '../../src/rules/password.ts';
import { startFacebookGraph, startGoogleIssuer, type FacebookGraph, type GoogleIssuer } from '../fixtures/identity-servers.ts';
import {
  latestLink,
  newPlayer,
  registeredPlayer,
  startTestServer,
  TEST_PASSWORD_HASHING,
  tokenFrom,
  type CallResult,
  type TestServer,
} from '../helpers/api.ts';
import { createTestDb, postgresUrlOf, secondConnection } from '../helpers/db.ts';

/**
 * The account operations through HTTP: signup and its SPEC §5 rules, email verification, login and
 * its refusals, tokens and sessions, password reset and change, availability checks, social sign-in
 * with Google and Facebook (against local stand-ins speaking their protocols), inactive and
 * self-excluded players, and the rate limits. Every response is also checked against openapi.yaml
 * by server.call.
 */

const PASSWORD = 'Secret@123'; // newPlayer's password
const NEW_PASSWORD = 'Better#456x!';
const JWT_SECRET = 'test-secret-test-secret-test-secret'; // startTestServer's
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const pw = encodePassword;

function expectError(res: CallResult, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.errors?.[0]?.description }).toEqual({ status, code });
  expect(res.body.data).toEqual({});
}

function expectFields(res: CallResult, fields: { field: string; code: string }[]): void {
  expectError(res, 400, 'PLEASE_CHECK_REQUEST_DATA');
  expect(res.body.errors[0].fields).toEqual(fields);
}

async function mailbox(server: TestServer, to: string): Promise<{ subject: string; text: string; links: string[]; to: string }[]> {
  const res = await server.call('devGetMailbox', { query: { to } });
  expect(res.status).toBe(200);
  return res.body.data.messages;
}

function login(server: TestServer, email: string, password = PASSWORD) {
  return server.call('userLogin', { body: { email, password: pw(password) } });
}

async function signedUpPlayer(server: TestServer, overrides: Record<string, unknown> = {}) {
  const payload = newPlayer(overrides);
  const res = await server.call('userSignup', { body: payload });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { payload, user: res.body.data.user };
}

function tokenOf(res: CallResult): string {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.accessToken;
}

/** A port nothing listens on (taken from the OS, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

// One database for the whole file (cloning one costs seconds); servers differ by configuration and clock.
// Every test makes its own players, so they do not meet.
let db: Db;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => db?.close());

describe('accounts with email and password', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { db });
  });
  afterAll(async () => server?.close());
  // Every request comes from the same address: per-client limits are tested on purpose, not by accident.
  beforeEach(() => server.ctx.limiter.reset());

  describe('userSignup', () => {
    it('registers an unverified account, answers its profile without a token, and emails a verification link', async () => {
      const payload = newPlayer({ middleName: 'Maria' });
      const res = await server.call('userSignup', { body: payload });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data)).toEqual(['user']);
      const user = res.body.data.user;
      expect(user).toMatchObject({
        firstName: 'Ana',
        middleName: 'Maria',
        lastName: 'Silva',
        email: payload.email,
        username: payload.username,
        phoneCode: '351',
        phone: payload.phone,
        dateOfBirth: '1990-05-17',
        gender: 'female',
        address: 'Rua Augusta 100',
        city: 'Lisboa',
        stateCode: '11',
        countryCode: 'PT',
        zipCode: '11000',
        profileImageUrl: null,
        emailVerified: false,
        active: true,
        authProvider: 'email',
        profileComplete: true,
        selfExcludedUntil: null,
        selfExclusionPermanent: false,
        lastLoginAt: null,
      });
      expect(user.referralCode).toMatch(/^[A-Z0-9]{12}$/);

      const messages = await mailbox(server, payload.email);
      expect(messages).toHaveLength(1);
      expect(messages[0]!.subject).toBe('Confirm your email address');
      expect(messages[0]!.to).toBe(payload.email);
      const link = messages[0]!.links[0]!;
      expect(link).toMatch(/^http:\/\/casino\.test\/verify-email\?token=[A-Za-z0-9_-]{43}$/);
      expect(messages[0]!.text).toContain(link);

      expectError(await login(server, payload.email), 403, 'EMAIL_NOT_VERIFIED');
    });

    it('treats an empty or null middle name and referral code as none', async () => {
      const { user } = await signedUpPlayer(server, { middleName: '', referralCode: null });
      expect(user.middleName).toBeNull();
      const second = await signedUpPlayer(server, { middleName: null, referralCode: '' });
      expect(second.user.middleName).toBeNull();
    });

    it('accepts names with accents, apostrophes and hyphens, and the 9-digit and 5+4 zip forms', async () => {
      const { user } = await signedUpPlayer(server, {
        firstName: 'Ana-Luísa',
        lastName: "O'Neil",
        city: 'Vila Nova de Gaia',
        zipCode: '12345-6789',
        phoneCode: '+351',
      });
      expect(user).toMatchObject({ firstName: 'Ana-Luísa', lastName: "O'Neil", city: 'Vila Nova de Gaia', zipCode: '12345-6789' });
      const nine = await signedUpPlayer(server, { zipCode: '123456789' });
      expect(nine.user.zipCode).toBe('123456789');
    });

    const tooLong = (n: number) => 'a'.repeat(n);
    it.each([
      ['firstName with a digit', { firstName: 'Ana1' }, [{ field: 'firstName', code: 'name' }]],
      ['lastName of 51 letters', { lastName: tooLong(51) }, [{ field: 'lastName', code: 'name.length' }]],
      ['middleName with a digit', { middleName: 'J0' }, [{ field: 'middleName', code: 'name' }]],
      ['middleName of 51 letters', { middleName: tooLong(51) }, [{ field: 'middleName', code: 'name.length' }]],
      ['email without @', { email: 'not-an-email' }, [{ field: 'email', code: 'email' }]],
      ['email with a 65-character local part', { email: `${tooLong(65)}@example.com` }, [{ field: 'email', code: 'email' }]],
      ['email without a dot in the domain', { email: 'ana@localhost' }, [{ field: 'email', code: 'email' }]],
      ['username with an underscore', { username: 'ana_silva' }, [{ field: 'username', code: 'username' }]],
      ['username of 2 characters', { username: 'ab' }, [{ field: 'username', code: 'username.length' }]],
      ['username of 21 characters', { username: tooLong(21) }, [{ field: 'username', code: 'username.length' }]],
      ['phone with letters', { phone: '91a234567' }, [{ field: 'phone', code: 'phone' }]],
      ['phone of 5 digits', { phone: '12345' }, [{ field: 'phone', code: 'phone.length' }]],
      ['phone code with letters', { phoneCode: 'abc' }, [{ field: 'phoneCode', code: 'phoneCode' }]],
      ['date of birth that does not exist', { dateOfBirth: '2001-02-30' }, [{ field: 'dateOfBirth', code: 'date' }]],
      ['date of birth before 1900', { dateOfBirth: '1899-12-31' }, [{ field: 'dateOfBirth', code: 'date' }]],
      ['date of birth in the future', { dateOfBirth: '2999-01-01' }, [{ field: 'dateOfBirth', code: 'age' }]],
      ['gender outside the list', { gender: 'unknown' }, [{ field: 'gender', code: 'gender' }]],
      ['address of 2 characters', { address: 'ab' }, [{ field: 'address', code: 'address.length' }]],
      ['address of 101 characters', { address: tooLong(101) }, [{ field: 'address', code: 'address.length' }]],
      ['address with a line break', { address: 'Rua Augusta\n100' }, [{ field: 'address', code: 'address' }]],
      ['city with a digit', { city: 'L1sboa' }, [{ field: 'city', code: 'city' }]],
      ['country code in lower case', { countryCode: 'pt' }, [{ field: 'countryCode', code: 'country' }]],
      ['empty state code', { stateCode: '' }, [{ field: 'stateCode', code: 'required' }]],
      ['zip of 4 digits', { zipCode: '1234' }, [{ field: 'zipCode', code: 'zip' }]],
      ['zip of 6 digits', { zipCode: '123456' }, [{ field: 'zipCode', code: 'zip' }]],
      ['zip of 11 digits', { zipCode: '12345678901' }, [{ field: 'zipCode', code: 'zip' }]],
      ['referral code of 3 characters', { referralCode: 'abc' }, [{ field: 'referralCode', code: 'referralCode' }]],
      ['referral code with a hyphen', { referralCode: 'ab-cd' }, [{ field: 'referralCode', code: 'referralCode' }]],
      ['first name as a number', { firstName: 5 }, [{ field: 'firstName', code: 'type' }]],
      ['a member the contract does not know', { role: 'admin' }, [{ field: 'role', code: 'unknownField' }]],
      [
        'confirmPassword that differs',
        { confirmPassword: pw('Secret@124') },
        [{ field: 'confirmPassword', code: 'confirmPassword.mismatch' }],
      ],
      [
        'password that is not base64',
        { password: 'not base64!', confirmPassword: 'not base64!' },
        [{ field: 'password', code: 'password.encoding' }],
      ],
    ])('refuses a %s', async (_name, overrides, fields) => {
      const payload = newPlayer(overrides);
      const res = await server.call('userSignup', { body: payload });
      expectFields(res, fields);
      if (!('email' in overrides)) expect(await mailbox(server, payload.email)).toEqual([]);
    });

    it('refuses a missing required member', async () => {
      const { dateOfBirth: _dob, gender: _gender, ...payload } = newPlayer();
      const res = await server.call('userSignup', { body: payload });
      expectFields(res, [
        { field: 'dateOfBirth', code: 'required' },
        { field: 'gender', code: 'required' },
      ]);
    });

    it.each([
      ['under 8 characters', 'Sec@1', ['password.minLength']],
      ['without an upper-case letter', 'secret@123', ['password.uppercase']],
      ['without a lower-case letter', 'SECRET@123', ['password.lowercase']],
      ['without a digit', 'Secret@abc', ['password.number']],
      ['without one of @$!%*?&', 'Secret1234', ['password.special']],
      ['with a space', 'Secret @123', ['password.noSpaces']],
      ['with an accented letter', 'Secret@123é', ['password.printable']],
      ['with an emoji', 'Secret@123😀', ['password.printable']],
      ['with a control character', 'Secret@123\u0007', ['password.printable']],
      ['of 129 characters', `Aa1@${'a'.repeat(125)}`, ['password.maxLength']],
      ['breaking several rules', 'secret', ['password.minLength', 'password.uppercase', 'password.number', 'password.special']],
    ])('refuses a password %s, one field code per broken rule', async (_name, plain, codes) => {
      const res = await server.call('userSignup', { body: newPlayer({ password: pw(plain), confirmPassword: pw(plain) }) });
      expectFields(
        res,
        codes.map((code) => ({ field: 'password', code })),
      );
    });

    it('applies the age rule on the server clock: 18 today is accepted, 18 tomorrow is not', async () => {
      const realNow = server.clock.now();
      server.clock.set(new Date('2040-06-15T12:00:00Z'));
      try {
        const minor = await server.call('userSignup', { body: newPlayer({ dateOfBirth: '2022-06-16' }) });
        expectFields(minor, [{ field: 'dateOfBirth', code: 'age' }]);
        const adult = await server.call('userSignup', { body: newPlayer({ dateOfBirth: '2022-06-15' }) });
        expect(adult.status, JSON.stringify(adult.body)).toBe(200);
        expect(adult.body.data.user.dateOfBirth).toBe('2022-06-15');
      } finally {
        server.clock.set(realNow);
      }
      const tenYearsOld = new Date(server.clock.now().getTime() - 10 * 366 * DAY);
      expectFields(await server.call('userSignup', { body: newPlayer({ dateOfBirth: isoDay(tenYearsOld) }) }), [
        { field: 'dateOfBirth', code: 'age' },
      ]);
    });

    it('refuses a country or a state the server does not list', async () => {
      expectFields(await server.call('userSignup', { body: newPlayer({ countryCode: 'XX' }) }), [{ field: 'countryCode', code: 'country' }]);
      expectFields(await server.call('userSignup', { body: newPlayer({ countryCode: 'PT', stateCode: 'ZZ' }) }), [
        { field: 'stateCode', code: 'state' },
      ]);
      // A state of another country is not a state of this one.
      expectFields(await server.call('userSignup', { body: newPlayer({ countryCode: 'US', stateCode: '11' }) }), [
        { field: 'stateCode', code: 'state' },
      ]);
      const us = await signedUpPlayer(server, { countryCode: 'US', stateCode: 'TX' });
      expect(us.user).toMatchObject({ countryCode: 'US', stateCode: 'TX' });
    });

    it('refuses a taken email or username whatever their case, and a taken phone number', async () => {
      const { payload: first } = await signedUpPlayer(server);
      const other = newPlayer();
      expectError(
        await server.call('userSignup', { body: { ...other, email: first.email.toUpperCase() } }),
        409,
        'USERNAME_OR_EMAIL_ALREADY_EXISTS',
      );
      expectError(
        await server.call('userSignup', { body: { ...other, username: first.username.toUpperCase() } }),
        409,
        'USERNAME_OR_EMAIL_ALREADY_EXISTS',
      );
      expectError(
        await server.call('userSignup', { body: { ...other, phoneCode: first.phoneCode, phone: first.phone } }),
        409,
        'PHONE_IS_TAKEN',
      );
      // "+351" and "351" are the same calling code.
      expectError(
        await server.call('userSignup', { body: { ...other, phoneCode: `+${first.phoneCode}`, phone: first.phone } }),
        409,
        'PHONE_IS_TAKEN',
      );
      // Nothing was created or sent for the refused attempts.
      expect(await mailbox(server, first.email)).toHaveLength(1);
      const check = await server.call('userCheckUser', { query: { username: other.username, email: other.email } });
      expect(check.body.data).toEqual({ usernameAvailable: true, emailAvailable: true });
      // The same phone number under another calling code is another number.
      await signedUpPlayer(server, { phoneCode: '44', phone: first.phone });
    });

    it('links a valid referral code (in any case) to the referrer and refuses an unknown one', async () => {
      const referrer = await signedUpPlayer(server);
      const code = referrer.user.referralCode as string;
      const unknown = await server.call('userSignup', { body: newPlayer({ referralCode: 'ZZZZ9999ZZZZ' }) });
      expectError(unknown, 422, 'REFERRAL_CODE_NOT_FOUND');

      const referred = await signedUpPlayer(server, { referralCode: code.toLowerCase() });
      const rows = await server.db.query<{ referred_by_user_id: number | string | null }>(
        'SELECT referred_by_user_id FROM users WHERE id = $1',
        [referred.user.id],
      );
      expect(Number(rows[0]?.referred_by_user_id)).toBe(referrer.user.id);
      expect(referred.user.referralCode).not.toBe(code);
    });

    it('refuses a body that is not JSON with 415', async () => {
      const res = await server.call('userSignup', { raw: { payload: 'firstName=Ana', contentType: 'text/plain' } });
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('limits signups per client to 10 an hour, with Retry-After', async () => {
      // Attempts the rules refuse count too (a request the contract's schema refuses never gets this far).
      for (let i = 0; i < 10; i++) {
        expectFields(await server.call('userSignup', { body: newPlayer({ zipCode: '1234' }) }), [{ field: 'zipCode', code: 'zip' }]);
      }
      const limited = await server.call('userSignup', { body: newPlayer() });
      expectError(limited, 429, 'RATE_LIMITED');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      server.clock.advance(HOUR);
      expectFields(await server.call('userSignup', { body: newPlayer({ zipCode: '1234' }) }), [{ field: 'zipCode', code: 'zip' }]);
    });
  });

  describe('userVerifyEmail and userResendVerificationEmail', () => {
    it('verifies the email once; the link cannot be used again', async () => {
      const { payload } = await signedUpPlayer(server);
      const token = tokenFrom(await latestLink(server, payload.email));
      const res = await server.call('userVerifyEmail', { query: { token } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ success: true, email: payload.email });

      const loggedIn = await login(server, payload.email);
      expect(loggedIn.status).toBe(200);
      expect(loggedIn.body.data.user.emailVerified).toBe(true);

      expectError(await server.call('userVerifyEmail', { query: { token } }), 409, 'EMAIL_ALREADY_VERIFIED');
    });

    it('refuses an unknown token with 422 INVALID_TOKEN and a malformed one with 400', async () => {
      expectError(await server.call('userVerifyEmail', { query: { token: 'x'.repeat(43) } }), 422, 'INVALID_TOKEN');
      const short = await server.call('userVerifyEmail', { query: { token: 'abc' } });
      expectError(short, 400, 'PLEASE_CHECK_REQUEST_DATA');
      expect(short.body.errors[0].fields.map((f: { field: string }) => f.field)).toEqual(['token']);
      const missing = await server.call('userVerifyEmail');
      expectFields(missing, [{ field: 'token', code: 'required' }]);
    });

    it('honours a link for 48 hours and refuses it after', async () => {
      const early = await signedUpPlayer(server);
      const late = await signedUpPlayer(server);
      const earlyToken = tokenFrom(await latestLink(server, early.payload.email));
      const lateToken = tokenFrom(await latestLink(server, late.payload.email));

      server.clock.advance(48 * HOUR - MINUTE);
      expect((await server.call('userVerifyEmail', { query: { token: earlyToken } })).status).toBe(200);
      server.clock.advance(2 * MINUTE);
      expectError(await server.call('userVerifyEmail', { query: { token: lateToken } }), 422, 'INVALID_TOKEN');
      expectError(await login(server, late.payload.email), 403, 'EMAIL_NOT_VERIFIED');

      // A new link works; the expired one still does not.
      expect((await server.call('userResendVerificationEmail', { body: { email: late.payload.email } })).status).toBe(200);
      const fresh = tokenFrom(await latestLink(server, late.payload.email));
      expect(fresh).not.toBe(lateToken);
      expect((await server.call('userVerifyEmail', { query: { token: fresh } })).status).toBe(200);
      expect((await login(server, late.payload.email)).status).toBe(200);
    });

    it('resends to an unverified account, and the new link replaces the old one', async () => {
      const { payload } = await signedUpPlayer(server);
      const first = tokenFrom(await latestLink(server, payload.email));
      const res = await server.call('userResendVerificationEmail', { body: { email: payload.email.toUpperCase() } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ success: true });
      const messages = await mailbox(server, payload.email);
      expect(messages).toHaveLength(2);
      expect(messages[0]!.subject).toBe('Confirm your email address');
      const second = tokenFrom(messages[0]!.links[0]!);
      expect(second).not.toBe(first);

      expectError(await server.call('userVerifyEmail', { query: { token: first } }), 422, 'INVALID_TOKEN');
      expect((await server.call('userVerifyEmail', { query: { token: second } })).status).toBe(200);
    });

    it('answers success without sending for a verified or unknown account', async () => {
      const { payload } = await registeredPlayer(server);
      const verified = await server.call('userResendVerificationEmail', { body: { email: payload.email } });
      expect(verified.status).toBe(200);
      expect(verified.body.data).toEqual({ success: true });
      expect(await mailbox(server, payload.email)).toHaveLength(1);

      const nobody = `nobody${Date.now()}@example.com`;
      const unknown = await server.call('userResendVerificationEmail', { body: { email: nobody } });
      expect(unknown.status).toBe(200);
      expect(unknown.body.data).toEqual({ success: true });
      expect(await mailbox(server, nobody)).toEqual([]);

      expectFields(await server.call('userResendVerificationEmail', { body: { email: 'nope' } }), [{ field: 'email', code: 'email' }]);
    });

    it('sends at most 3 links an hour per account, and still answers success (no account discovery)', async () => {
      const { payload } = await signedUpPlayer(server);
      for (let i = 0; i < 5; i++) {
        const res = await server.call('userResendVerificationEmail', { body: { email: payload.email } });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ success: true });
      }
      expect(await mailbox(server, payload.email)).toHaveLength(1 + 3);
    });
  });

  describe('userLogin', () => {
    it('logs in by email or by username in any case, answering a token, its expiry and the player', async () => {
      const { payload } = await registeredPlayer(server);
      const before = server.clock.now();
      const byEmail = await login(server, payload.email.toUpperCase());
      expect(byEmail.status).toBe(200);
      const { accessToken, expiresAt, user } = byEmail.body.data;
      expect(typeof accessToken).toBe('string');
      expect(Date.parse(expiresAt)).toBe(Math.floor(before.getTime() / 1000) * 1000 + 24 * HOUR);
      expect(user).toMatchObject({ email: payload.email, username: payload.username, emailVerified: true, authProvider: 'email' });
      expect(user.lastLoginAt).toBe(before.toISOString());

      const byUsername = await login(server, payload.username.toUpperCase());
      expect(byUsername.status).toBe(200);
      expect(byUsername.body.data.user.id).toBe(user.id);
      expect(byUsername.body.data.accessToken).not.toBe(accessToken);

      const me = await server.call('userGetUser', { token: accessToken });
      expect(me.status).toBe(200);
      expect(me.body.data.user).toMatchObject({ id: user.id, email: payload.email, firstName: 'Ana' });
    });

    it('refuses a wrong password with 422 and an unknown account with 404 (never 401)', async () => {
      const { payload } = await registeredPlayer(server);
      const wrong = await login(server, payload.email, 'Secret@124');
      expectError(wrong, 422, 'WRONG_PASSWORD');
      expect(wrong.body.errors[0].name).toBe('UnprocessableEntity');
      expectError(await login(server, `nobody${Date.now()}@example.com`), 404, 'USER_DOES_NOT_EXISTS');
      expectError(await login(server, 'nobody12345'), 404, 'USER_DOES_NOT_EXISTS');
    });

    it('checks the password before telling that the email is not verified', async () => {
      const { payload } = await signedUpPlayer(server);
      expectError(await login(server, payload.email, 'Wrong@123'), 422, 'WRONG_PASSWORD');
      const unverified = await login(server, payload.email);
      expectError(unverified, 403, 'EMAIL_NOT_VERIFIED');
      expect(unverified.body.errors[0].name).toBe('Forbidden');
    });

    it('refuses a password that is not base64, an empty one and missing members with 400', async () => {
      const { payload } = await registeredPlayer(server);
      expectFields(await server.call('userLogin', { body: { email: payload.email, password: 'Secret@123' } }), [
        { field: 'password', code: 'password.encoding' },
      ]);
      expectFields(await server.call('userLogin', { body: { email: payload.email, password: '' } }), [
        { field: 'password', code: 'required' },
      ]);
      expectFields(await server.call('userLogin', { body: { password: pw(PASSWORD) } }), [{ field: 'email', code: 'required' }]);
    });

    it('slows wrong passwords from one address down: 5 at once, then 1 s, 2 s, 4 s, ... with Retry-After', async () => {
      const { payload } = await registeredPlayer(server);
      await server.ctx.limiter.reset();
      for (let i = 0; i < 5; i++) expectError(await login(server, payload.email, `Wrong@${i}xyz`), 422, 'WRONG_PASSWORD');
      for (const seconds of [1, 2, 4, 8]) {
        // Before the delay the password is not even checked: the right one waits too.
        const limited = await login(server, payload.email);
        expectError(limited, 429, 'RATE_LIMITED');
        expect(Number(limited.headers['retry-after'])).toBe(seconds);
        server.clock.advance(seconds * 1000);
        expectError(await login(server, payload.email, `Wrong@${seconds}abc`), 422, 'WRONG_PASSWORD');
      }
      expect(Number((await login(server, payload.email)).headers['retry-after'])).toBe(16);
      server.clock.advance(16_000);
      // The right password after the delay signs in, and the address's own failures are forgotten.
      expect((await login(server, payload.email)).status).toBe(200);
      expectError(await login(server, payload.email, 'Again@1xyz'), 422, 'WRONG_PASSWORD');
    });

    it('limits logins per client to 30 a minute', async () => {
      for (let i = 0; i < 30; i++) expectError(await login(server, `ghost${i}x@example.com`), 404, 'USER_DOES_NOT_EXISTS');
      const limited = await login(server, 'ghost-last@example.com');
      expectError(limited, 429, 'RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
      server.clock.advance(MINUTE);
      expectError(await login(server, 'ghost-after@example.com'), 404, 'USER_DOES_NOT_EXISTS');
    });
  });

  describe('userLogout and bearer tokens', () => {
    it('revokes the token used, and only that one', async () => {
      const { token, payload } = await registeredPlayer(server);
      const other = tokenOf(await login(server, payload.email));
      const res = await server.call('userLogout', { token });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ success: true });
      expectError(await server.call('userGetUser', { token }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
      expectError(await server.call('userLogout', { token }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
      expect((await server.call('userGetUser', { token: other })).status).toBe(200);
    });

    it('answers 401 without a token, with a garbage one or with another scheme', async () => {
      const { token } = await registeredPlayer(server);
      const missing = await server.call('userGetUser');
      expectError(missing, 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
      expect(missing.body.errors[0].name).toBe('Unauthorized');
      expectError(await server.call('userGetUser', { token: 'garbage' }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
      expectError(await server.call('userGetUser', { token: `${token}x` }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
      expectError(
        await server.call('userGetUser', { headers: { authorization: `Basic ${token}` } }),
        401,
        'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED',
      );
      expectError(await server.call('userLogout'), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
    });

    it('refuses forged tokens: another secret, no signature, a changed subject, an unknown session', async () => {
      const victim = await registeredPlayer(server);
      const attacker = await registeredPlayer(server);
      const claims = decodeJwt(victim.token);
      expect(claims.sub).toBe(String(victim.user.id));
      const sign = (payload: Record<string, unknown>, secret: string) =>
        new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));

      const otherSecret = await sign(claims, 'another-secret-another-secret-another');
      const unsigned = new UnsecuredJWT(claims).encode();
      // The attacker's own valid token, with the victim as subject (the signature no longer matches).
      const [header, , signature] = attacker.token.split('.');
      const swapped = `${header}.${Buffer.from(JSON.stringify({ ...decodeJwt(attacker.token), sub: String(victim.user.id) })).toString('base64url')}.${signature}`;
      // Signed with the real secret, but the session does not exist, or belongs to someone else.
      const unknownSession = await sign({ ...claims, jti: '00000000-0000-4000-8000-000000000000' }, JWT_SECRET);
      const otherUsersSession = await sign({ ...decodeJwt(attacker.token), sub: String(victim.user.id) }, JWT_SECRET);

      for (const token of [otherSecret, unsigned, swapped, unknownSession, otherUsersSession]) {
        expectError(await server.call('userGetUser', { token }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
      }
      // The genuine token still works.
      expect((await server.call('userGetUser', { token: victim.token })).status).toBe(200);
    });
  });

  describe('userForgotPassword and userVerifyForgotPassword', () => {
    it('emails a 30-minute reset link, and answers the same for an unknown email without sending', async () => {
      const { payload } = await registeredPlayer(server);
      const res = await server.call('userForgotPassword', { body: { email: payload.email.toUpperCase() } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ success: true });
      const [message] = await mailbox(server, payload.email);
      expect(message!.subject).toBe('Reset your password');
      expect(message!.links[0]).toMatch(/^http:\/\/casino\.test\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
      expect(message!.text).toContain('30 minutes');

      const nobody = `nobody${Date.now()}@example.com`;
      const unknown = await server.call('userForgotPassword', { body: { email: nobody } });
      expect(unknown.status).toBe(200);
      expect(unknown.body.data).toEqual({ success: true });
      expect(await mailbox(server, nobody)).toEqual([]);
    });

    it('sets the new password, refuses the old one, revokes every session, and uses the token once', async () => {
      const { payload, token: session } = await registeredPlayer(server);
      await server.call('userForgotPassword', { body: { email: payload.email } });
      const token = tokenFrom(await latestLink(server, payload.email));

      const res = await server.call('userVerifyForgotPassword', { body: { token, newPassword: pw(NEW_PASSWORD) } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ success: true });

      expectError(await server.call('userGetUser', { token: session }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
      expectError(await login(server, payload.email), 422, 'WRONG_PASSWORD');
      expect((await login(server, payload.email, NEW_PASSWORD)).status).toBe(200);
      expectError(
        await server.call('userVerifyForgotPassword', { body: { token, newPassword: pw('Another@789') } }),
        422,
        'INVALID_TOKEN',
      );
    });

    it('refuses a weak or unchanged password without using up the token', async () => {
      const { payload } = await registeredPlayer(server);
      await server.call('userForgotPassword', { body: { email: payload.email } });
      const token = tokenFrom(await latestLink(server, payload.email));

      expectFields(await server.call('userVerifyForgotPassword', { body: { token, newPassword: pw('weakpass') } }), [
        { field: 'newPassword', code: 'password.uppercase' },
        { field: 'newPassword', code: 'password.number' },
        { field: 'newPassword', code: 'password.special' },
      ]);
      expectFields(await server.call('userVerifyForgotPassword', { body: { token, newPassword: 'not base64!' } }), [
        { field: 'newPassword', code: 'password.encoding' },
      ]);
      expectError(
        await server.call('userVerifyForgotPassword', { body: { token, newPassword: pw(PASSWORD) } }),
        422,
        'SAME_PASSWORD',
      );
      expect((await server.call('userVerifyForgotPassword', { body: { token, newPassword: pw(NEW_PASSWORD) } })).status).toBe(200);
    });

    it('refuses an unknown token and a token older than 30 minutes', async () => {
      expectError(
        await server.call('userVerifyForgotPassword', { body: { token: 'y'.repeat(43), newPassword: pw(NEW_PASSWORD) } }),
        422,
        'INVALID_TOKEN',
      );
      const { payload } = await registeredPlayer(server);
      await server.call('userForgotPassword', { body: { email: payload.email } });
      const token = tokenFrom(await latestLink(server, payload.email));
      server.clock.advance(30 * MINUTE + 1000);
      expectError(
        await server.call('userVerifyForgotPassword', { body: { token, newPassword: pw(NEW_PASSWORD) } }),
        422,
        'INVALID_TOKEN',
      );
      expect((await login(server, payload.email)).status).toBe(200);
    });

    it('honours the link until 30 minutes have passed', async () => {
      const { payload } = await registeredPlayer(server);
      await server.call('userForgotPassword', { body: { email: payload.email } });
      const token = tokenFrom(await latestLink(server, payload.email));
      server.clock.advance(29 * MINUTE);
      expect((await server.call('userVerifyForgotPassword', { body: { token, newPassword: pw(NEW_PASSWORD) } })).status).toBe(200);
    });

    it('retires the other reset links once the password is reset', async () => {
      const { payload } = await registeredPlayer(server);
      await server.call('userForgotPassword', { body: { email: payload.email } });
      const first = tokenFrom(await latestLink(server, payload.email));
      await server.call('userForgotPassword', { body: { email: payload.email } });
      const second = tokenFrom(await latestLink(server, payload.email));
      expect(second).not.toBe(first);
      expect((await server.call('userVerifyForgotPassword', { body: { token: second, newPassword: pw(NEW_PASSWORD) } })).status).toBe(200);
      expectError(
        await server.call('userVerifyForgotPassword', { body: { token: first, newPassword: pw('Another@789') } }),
        422,
        'INVALID_TOKEN',
      );
      expect((await login(server, payload.email, NEW_PASSWORD)).status).toBe(200);
    });

    it('verifies the email of an unverified account that resets its password', async () => {
      const { payload } = await signedUpPlayer(server);
      await server.call('userForgotPassword', { body: { email: payload.email } });
      const token = tokenFrom(await latestLink(server, payload.email));
      expect((await server.call('userVerifyForgotPassword', { body: { token, newPassword: pw(NEW_PASSWORD) } })).status).toBe(200);
      const res = await login(server, payload.email, NEW_PASSWORD);
      expect(res.status).toBe(200);
      expect(res.body.data.user.emailVerified).toBe(true);
    });

    it('sends at most 3 reset links an hour per account, and sends none to an inactive account', async () => {
      const { payload } = await registeredPlayer(server);
      for (let i = 0; i < 4; i++) {
        const res = await server.call('userForgotPassword', { body: { email: payload.email } });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ success: true });
      }
      const resets = (await mailbox(server, payload.email)).filter((m) => m.subject === 'Reset your password');
      expect(resets).toHaveLength(3);

      const inactive = await registeredPlayer(server);
      expect((await server.call('devSetUserActive', { body: { email: inactive.payload.email, active: false } })).status).toBe(200);
      expect((await server.call('userForgotPassword', { body: { email: inactive.payload.email } })).status).toBe(200);
      expect((await mailbox(server, inactive.payload.email)).map((m) => m.subject)).toEqual(['Confirm your email address']);
    });
  });

  describe('userUpdatePassword', () => {
    const change = (token: string, oldPassword: string, newPassword: string) =>
      server.call('userUpdatePassword', { token, body: { oldPassword, newPassword } });

    it('changes the password, keeps this session and revokes the others', async () => {
      const { payload, token } = await registeredPlayer(server);
      const otherDevice = tokenOf(await login(server, payload.email));
      const res = await change(token, pw(PASSWORD), pw(NEW_PASSWORD));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ success: true });

      expect((await server.call('userGetUser', { token })).status).toBe(200);
      expectError(await server.call('userGetUser', { token: otherDevice }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
      expectError(await login(server, payload.email), 422, 'WRONG_PASSWORD');
      expect((await login(server, payload.email, NEW_PASSWORD)).status).toBe(200);
    });

    it('refuses a wrong old password with 422, and weak, unchanged or undecodable passwords with 400', async () => {
      const { payload, token } = await registeredPlayer(server);
      expectError(await change(token, pw('Wrong@123'), pw(NEW_PASSWORD)), 422, 'WRONG_PASSWORD');
      expectFields(await change(token, pw(PASSWORD), pw('NoSpecial123')), [{ field: 'newPassword', code: 'password.special' }]);
      expectFields(await change(token, pw(PASSWORD), pw(PASSWORD)), [{ field: 'newPassword', code: 'newPassword.sameAsOld' }]);
      expectFields(await change(token, 'not base64!', pw(NEW_PASSWORD)), [{ field: 'oldPassword', code: 'password.encoding' }]);
      expectFields(await server.call('userUpdatePassword', { token, body: { newPassword: pw(NEW_PASSWORD) } }), [
        { field: 'oldPassword', code: 'required' },
      ]);
      // None of that changed anything.
      expect((await login(server, payload.email)).status).toBe(200);
    });

    it('needs a session', async () => {
      expectError(
        await server.call('userUpdatePassword', { body: { oldPassword: pw(PASSWORD), newPassword: pw(NEW_PASSWORD) } }),
        401,
        'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED',
      );
    });

    it('retires reset links sent before the change', async () => {
      const { payload, token } = await registeredPlayer(server);
      await server.call('userForgotPassword', { body: { email: payload.email } });
      const resetToken = tokenFrom(await latestLink(server, payload.email));
      expect((await change(token, pw(PASSWORD), pw(NEW_PASSWORD))).status).toBe(200);
      expectError(
        await server.call('userVerifyForgotPassword', { body: { token: resetToken, newPassword: pw('Another@789') } }),
        422,
        'INVALID_TOKEN',
      );
      expect((await login(server, payload.email, NEW_PASSWORD)).status).toBe(200);
    });

    it('limits guesses of the old password to 10 in 15 minutes', async () => {
      const { token } = await registeredPlayer(server);
      for (let i = 0; i < 10; i++) expectError(await change(token, pw(`Wrong@${i}xyz`), pw(NEW_PASSWORD)), 422, 'WRONG_PASSWORD');
      const limited = await change(token, pw(PASSWORD), pw(NEW_PASSWORD));
      expectError(limited, 429, 'RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      server.clock.advance(15 * MINUTE);
      expect((await change(token, pw(PASSWORD), pw(NEW_PASSWORD))).status).toBe(200);
    });
  });

  describe('userCheckUser', () => {
    it('tells whether a username and an email are free, case-insensitively', async () => {
      const { payload } = await signedUpPlayer(server);
      const taken = await server.call('userCheckUser', { query: { username: payload.username.toUpperCase() } });
      expect(taken.status).toBe(200);
      expect(taken.body.data).toEqual({ usernameAvailable: false });
      expect((await server.call('userCheckUser', { query: { email: payload.email.toUpperCase() } })).body.data).toEqual({
        emailAvailable: false,
      });
      const free = await server.call('userCheckUser', { query: { username: 'freeName12345', email: 'free.name.12345@example.com' } });
      expect(free.body.data).toEqual({ usernameAvailable: true, emailAvailable: true });
      const mixed = await server.call('userCheckUser', { query: { username: 'freeName12345', email: payload.email } });
      expect(mixed.body.data).toEqual({ usernameAvailable: true, emailAvailable: false });
    });

    it('refuses a call with neither parameter, or with a username the rules refuse', async () => {
      expectFields(await server.call('userCheckUser'), [{ field: 'username', code: 'required' }]);
      expectFields(await server.call('userCheckUser', { query: { username: 'ana!' } }), [{ field: 'username', code: 'username' }]);
      expectFields(await server.call('userCheckUser', { query: { email: 'nope' } }), [{ field: 'email', code: 'email' }]);
    });
  });

  describe('inactive and self-excluded players', () => {
    it('refuses an inactive player at login (after the password check) and on calls with an existing token', async () => {
      const { payload, token } = await registeredPlayer(server);
      expect((await server.call('devSetUserActive', { body: { email: payload.email.toUpperCase(), active: false } })).status).toBe(200);

      const refused = await login(server, payload.email);
      expectError(refused, 403, 'USER_INACTIVE');
      expect(refused.body.errors[0].name).toBe('Forbidden');
      expectError(await login(server, payload.email, 'Wrong@123'), 422, 'WRONG_PASSWORD');
      expectError(await server.call('userGetUser', { token }), 403, 'USER_INACTIVE');
      expectError(await server.call('userLogout', { token }), 403, 'USER_INACTIVE');

      // Inactivation ended the session: activating the account again does not bring it back.
      expect((await server.call('devSetUserActive', { body: { email: payload.email, active: true } })).status).toBe(200);
      expectError(await server.call('userGetUser', { token }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
      const again = await login(server, payload.email);
      expect(again.status).toBe(200);
      expect((await server.call('userGetUser', { token: again.body.data.accessToken })).status).toBe(200);
    });

    it('answers 404 USER_DOES_NOT_EXISTS when deactivating an unknown email', async () => {
      expectError(
        await server.call('devSetUserActive', { body: { email: `nobody${Date.now()}@example.com`, active: false } }),
        404,
        'USER_DOES_NOT_EXISTS',
      );
    });

    it('keeps a self-excluded player to their money until the exclusion ends', async () => {
      const { payload, token } = await registeredPlayer(server);
      const until = new Date(server.clock.now().getTime() + 2 * DAY).toISOString();
      const res = await server.call('rgUpdateSelfExclusion', { token, body: { type: 'temporary', until } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ success: true, selfExclusion: { type: 'temporary', until } });

      // The session is over; a new one reaches the player's money and nothing else until the end.
      expectError(await server.call('userGetUser', { token }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
      const excluded = await login(server, payload.email);
      expect(excluded.status).toBe(200);
      expect(excluded.body.data.user).toMatchObject({ selfExcludedUntil: until, selfExclusionPermanent: false });
      const excludedToken = excluded.body.data.accessToken as string;
      expect((await server.call('userGetWallets', { token: excludedToken })).status).toBe(200);
      expectError(await server.call('userUpdate', { token: excludedToken, body: { firstName: 'Ana' } }), 403, 'SELF_EXCLUDED');
      expectError(await login(server, payload.email, 'Wrong@123'), 422, 'WRONG_PASSWORD');
      server.clock.advance(2 * DAY - MINUTE);
      const lastMinute = await login(server, payload.email);
      expectError(await server.call('casinoInitGame', { token: lastMinute.body.data.accessToken as string, body: { gameId: 1 } }), 403, 'SELF_EXCLUDED');

      server.clock.advance(2 * MINUTE);
      const back = await login(server, payload.email);
      expect(back.status).toBe(200);
      expect(back.body.data.user).toMatchObject({ selfExcludedUntil: null, selfExclusionPermanent: false });
      const me = await server.call('userGetUser', { token: back.body.data.accessToken });
      expect(me.body.data.user.selfExcludedUntil).toBeNull();
    });

    it('keeps a permanently self-excluded player from play for good', async () => {
      const { payload, token } = await registeredPlayer(server);
      const res = await server.call('rgUpdateSelfExclusion', { token, body: { type: 'permanent' } });
      expect(res.status).toBe(200);
      expect(res.body.data.selfExclusion).toEqual({ type: 'permanent', until: null });
      server.clock.advance(10 * 366 * DAY);
      const later = await login(server, payload.email);
      expect(later.status).toBe(200);
      expectError(await server.call('casinoInitGame', { token: later.body.data.accessToken as string, body: { gameId: 1 } }), 403, 'SELF_EXCLUDED');
    });
  });

  describe('session limit', () => {
    it('ends sessions started after it is set at the limit, with 401 SESSION_EXPIRED', async () => {
      const { payload, token } = await registeredPlayer(server);
      const set = await server.call('userUpdateSessionLimit', { token, body: { sessionLimitMinutes: 15 } });
      expect(set.status).toBe(200);
      expect(set.body.data).toEqual({ success: true, sessionLimitMinutes: 15 });

      const limited = await login(server, payload.email);
      const loggedInAt = Math.floor(server.clock.now().getTime() / 1000) * 1000;
      expect(Date.parse(limited.body.data.expiresAt)).toBe(loggedInAt + 15 * MINUTE);
      const limitedToken = tokenOf(limited);

      server.clock.advance(15 * MINUTE - 2000);
      expect((await server.call('userGetUser', { token: limitedToken })).status).toBe(200);
      server.clock.advance(3000);
      const expired = await server.call('userGetUser', { token: limitedToken });
      expectError(expired, 401, 'SESSION_EXPIRED');
      // The session that set the limit keeps its own expiry.
      expect((await server.call('userGetUser', { token })).status).toBe(200);

      // Without the limit, the next session lasts the usual day.
      await server.call('userUpdateSessionLimit', { token, body: { sessionLimitMinutes: null } });
      const unlimited = await login(server, payload.email);
      expect(Date.parse(unlimited.body.data.expiresAt) - server.clock.now().getTime()).toBeGreaterThan(23 * HOUR);
    });

    it('reports a logged-out limited session as gone, not as expired by the limit', async () => {
      const { payload, token } = await registeredPlayer(server);
      await server.call('userUpdateSessionLimit', { token, body: { sessionLimitMinutes: 15 } });
      const limitedToken = tokenOf(await login(server, payload.email));
      expect((await server.call('userLogout', { token: limitedToken })).status).toBe(200);
      server.clock.advance(16 * MINUTE);
      expectError(await server.call('userGetUser', { token: limitedToken }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
    });
  });
});

describe('access token lifetime', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ACCESS_TOKEN_TTL_SECONDS: '60' }, { db });
  });
  afterAll(async () => server?.close());

  it('expires tokens after ACCESS_TOKEN_TTL_SECONDS', async () => {
    const { payload } = await registeredPlayer(server);
    const res = await login(server, payload.email);
    const issuedAt = Math.floor(server.clock.now().getTime() / 1000) * 1000;
    expect(Date.parse(res.body.data.expiresAt)).toBe(issuedAt + 60_000);
    const token = tokenOf(res);

    server.clock.advance(58_000);
    expect((await server.call('userGetUser', { token })).status).toBe(200);
    server.clock.advance(3_000);
    expectError(await server.call('userGetUser', { token }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
    expectError(await server.call('userLogout', { token }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
  });

  it('lets the shorter of the token lifetime and the session limit win', async () => {
    const { payload, token } = await registeredPlayer(server);
    await server.call('userUpdateSessionLimit', { token, body: { sessionLimitMinutes: 15 } });
    const res = await login(server, payload.email);
    const issuedAt = Math.floor(server.clock.now().getTime() / 1000) * 1000;
    expect(Date.parse(res.body.data.expiresAt)).toBe(issuedAt + 60_000);
    server.clock.advance(61_000);
    // Ended by the server's token lifetime, not by the player's limit.
    expectError(await server.call('userGetUser', { token: tokenOf(res) }), 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
  });
});

describe('password hashing', () => {
  const storedHash = async (email: string) =>
    (await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = $1', [email]))[0]!.password_hash;

  it("hashes with Argon2id at OWASP's minimum cost by default, and a player so hashed logs in", async () => {
    expect(loadConfig({}).passwordHashing).toEqual({ memoryKib: 19_456, iterations: 2, parallelism: 1 });
    expect(PRODUCTION_PASSWORD_HASHING).toEqual(loadConfig({}).passwordHashing);
    const production = await startTestServer(
      {
        PASSWORD_HASH_MEMORY_KIB: String(PRODUCTION_PASSWORD_HASHING.memoryKib),
        PASSWORD_HASH_ITERATIONS: String(PRODUCTION_PASSWORD_HASHING.iterations),
        PASSWORD_HASH_PARALLELISM: String(PRODUCTION_PASSWORD_HASHING.parallelism),
      },
      { db },
    );
    try {
      const { payload } = await registeredPlayer(production);
      expect(await storedHash(payload.email)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect((await login(production, payload.email)).status).toBe(200);
      expectError(await login(production, payload.email, 'Wrong@1234'), 422, 'WRONG_PASSWORD');
    } finally {
      await production.close();
    }
  });

  it("makes the tests' players at the cheapest cost, through the configuration", async () => {
    const server = await startTestServer({}, { db });
    try {
      const { payload } = await registeredPlayer(server);
      expect(await storedHash(payload.email)).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
    } finally {
      await server.close();
    }
  });

  it('refuses a cost Argon2 cannot use, and one under the minimum in production', () => {
    expect(() => loadConfig({ PASSWORD_HASH_MEMORY_KIB: '15', PASSWORD_HASH_PARALLELISM: '2' })).toThrow(/at least 8 per/);
    expect(() => loadConfig({ PASSWORD_HASH_ITERATIONS: '0' })).toThrow(/PASSWORD_HASH_ITERATIONS must be a positive integer/);
    expect(() => loadConfig({ NODE_ENV: 'production', PASSWORD_HASH_MEMORY_KIB: '8' })).toThrow(/In production the password hash costs at least 19456 KiB/);
    expect(() => loadConfig({ NODE_ENV: 'production', PASSWORD_HASH_ITERATIONS: '1' })).toThrow(/In production/);
    expect(loadConfig({ NODE_ENV: 'production', PASSWORD_HASH_MEMORY_KIB: '65536', PASSWORD_HASH_ITERATIONS: '3' }).passwordHashing).toEqual({
      memoryKib: 65_536,
      iterations: 3,
      parallelism: 1,
    });
  });
});

describe('servers starting at once', () => {
  it('take turns at what they run under one name (the migrations and seeds), each on its own connections', async () => {
    const fresh = await createTestDb();
    const other = await secondConnection(fresh);
    try {
      const spans: [string, number, number][] = [];
      const turn = (db: Db, who: string) =>
        db.exclusively('a test turn', async () => {
          const start = performance.now();
          await db.query('SELECT pg_sleep(0.2)');
          spans.push([who, start, performance.now()]);
          return who;
        });
      expect(await Promise.all([turn(fresh, 'a'), turn(other, 'b')])).toEqual(['a', 'b']);
      // PGlite has one server only (its data folder's lock), so there is no one to take turns with.
      if (fresh.kind === 'postgres') {
        const [first, second] = spans.toSorted((x, y) => x[1] - y[1]);
        expect(second![1]).toBeGreaterThanOrEqual(first![2]);
        // The lock's connection is not one of the pool's: a pool of one still runs fn's statements.
        const single = await openDb({ kind: 'postgres', url: postgresUrlOf(fresh)!, maxConnections: 1 });
        try {
          expect(await single.exclusively('a test turn', () => single.query<{ one: number }>('SELECT 1 AS one'))).toEqual([{ one: 1 }]);
        } finally {
          await single.close();
        }
      }
    } finally {
      await other.close();
      await fresh.close();
    }
  });
});

describe('demo player', () => {
  it('is made once when two instances start at once on one database', async () => {
    const fresh = await createTestDb();
    try {
      const cost = loadConfig(TEST_PASSWORD_HASHING).passwordHashing;
      const made = await Promise.all([ensureDemoPlayer(fresh, cost), ensureDemoPlayer(fresh, cost)]);
      expect(made.toSorted()).toEqual([false, true]);
      const users = await fresh.query<{ id: number; wallets: string }>(
        `SELECT u.id, (SELECT count(*) FROM wallets w WHERE w.user_id = u.id)::text AS wallets FROM users u WHERE u.email = $1`,
        [DEMO_PLAYER.email],
      );
      expect(users).toHaveLength(1);
      expect(Number(users[0]!.wallets)).toBeGreaterThan(0);
      expect(await ensureDemoPlayer(fresh, cost)).toBe(false);
    } finally {
      await fresh.close();
    }
  });
});

describe('social sign-in', () => {
  const FACEBOOK_APP = { appId: '4242424242', appSecret: 'facebook-app-secret-for-tests' };
  let google: GoogleIssuer;
  let facebook: FacebookGraph;
  let server: TestServer;
  let unconfigured: TestServer;
  let unreachable: TestServer;
  let sequence = 0;
  const unique = () => `${Date.now().toString(36)}${(sequence += 1)}`;
  /** An app-scoped Facebook user id (digits), new each time. */
  const facebookUserId = () => `${Date.now()}${(sequence += 1)}`;

  beforeAll(async () => {
    google = await startGoogleIssuer();
    facebook = await startFacebookGraph(FACEBOOK_APP);
    server = await startTestServer({
      GOOGLE_CLIENT_ID: google.clientId,
      GOOGLE_JWKS_URL: google.jwksUrl,
      GOOGLE_ISSUERS: 'https://accounts.google.com,accounts.google.com',
      FACEBOOK_APP_ID: FACEBOOK_APP.appId,
      FACEBOOK_APP_SECRET: FACEBOOK_APP.appSecret,
      FACEBOOK_GRAPH_URL: facebook.graphUrl,
    }, { db });
    unconfigured = await startTestServer({}, { db });
    const port = await closedPort();
    unreachable = await startTestServer(
      {
        GOOGLE_CLIENT_ID: google.clientId,
        GOOGLE_JWKS_URL: `http://127.0.0.1:${port}/certs`,
        FACEBOOK_APP_ID: FACEBOOK_APP.appId,
        FACEBOOK_APP_SECRET: FACEBOOK_APP.appSecret,
        FACEBOOK_GRAPH_URL: `http://127.0.0.1:${port}`,
      },
      { db },
    );
  });
  afterAll(async () => {
    await unreachable?.close();
    await unconfigured?.close();
    await server?.close();
    await google?.close();
    await facebook?.close();
  });
  beforeEach(() => server.ctx.limiter.reset());

  const googleLogin = (s: TestServer, credential: string) => s.call('userGoogleLogin', { body: { credential } });
  const facebookLogin = (s: TestServer, accessToken: string, userID: string) =>
    s.call('userFacebookLogin', { body: { accessToken, userID } });

  describe('userGoogleLogin', () => {
    it('creates the account on first use (isNewUser) and logs the same account in afterwards', async () => {
      const id = unique();
      const email = `grace.hopper.${id}@example.com`;
      const credential = await google.signIdToken({ sub: `g${id}`, email, given_name: 'Grace', family_name: 'Hopper' });
      const first = await googleLogin(server, credential);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.data.isNewUser).toBe(true);
      const user = first.body.data.user;
      expect(user).toMatchObject({
        email,
        firstName: 'Grace',
        lastName: 'Hopper',
        emailVerified: true,
        authProvider: 'google',
        profileComplete: false,
        phone: null,
        dateOfBirth: null,
        countryCode: null,
        active: true,
      });
      expect(user.username).toMatch(/^[A-Za-z0-9]{3,20}$/);
      expect(user.username.toLowerCase().startsWith('gracehopper')).toBe(true);
      expect(typeof first.body.data.accessToken).toBe('string');
      const me = await server.call('userGetUser', { token: first.body.data.accessToken });
      expect(me.body.data.user.id).toBe(user.id);

      const again = await googleLogin(server, await google.signIdToken({ sub: `g${id}`, email }));
      expect(again.status).toBe(200);
      expect(again.body.data.isNewUser).toBe(false);
      expect(again.body.data.user.id).toBe(user.id);
      const check = await server.call('userCheckUser', { query: { email } });
      expect(check.body.data).toEqual({ emailAvailable: false });
    });

    it('does not link an existing email account: 409 EMAIL_ALREADY_EXISTS', async () => {
      const { payload } = await registeredPlayer(server);
      const credential = await google.signIdToken({ sub: `g${unique()}`, email: payload.email.toUpperCase() });
      expectError(await googleLogin(server, credential), 409, 'EMAIL_ALREADY_EXISTS');
      // The password account is untouched.
      const res = await login(server, payload.email);
      expect(res.status).toBe(200);
      expect(res.body.data.user.authProvider).toBe('email');
    });

    it.each([
      ['signed with a key Google does not publish', {}, { key: 'other' as const }],
      ['issued to another client', { aud: 'another-client.apps.googleusercontent.com', azp: 'another-client.apps.googleusercontent.com' }, {}],
      ['issued by someone else', { iss: 'https://evil.example.com' }, {}],
      ['expired', {}, { expiresIn: '-5m' }],
      ['naming an unknown key', {}, { kid: 'unknown-key-id' }],
      ['for a new account whose email Google has not verified', { email_verified: false }, {}],
    ])('refuses a credential %s with 422 SOCIAL_LOGIN_FAILED', async (_name, claims, options) => {
      const id = unique();
      const email = `refused.${id}@example.com`;
      const credential = await google.signIdToken({ sub: `g${id}`, email, ...claims }, options);
      expectError(await googleLogin(server, credential), 422, 'SOCIAL_LOGIN_FAILED');
      expect((await server.call('userCheckUser', { query: { email } })).body.data).toEqual({ emailAvailable: true });
    });

    it('refuses a credential that is not a JWT', async () => {
      expectError(await googleLogin(server, 'not-a-jwt'), 400, 'PLEASE_CHECK_REQUEST_DATA');
      expectError(await googleLogin(server, 'aaaa.bbbb.cccc'), 422, 'SOCIAL_LOGIN_FAILED');
    });

    it('refuses inactive and self-excluded Google players with 403', async () => {
      const id = unique();
      const email = `inactive.${id}@example.com`;
      const first = await googleLogin(server, await google.signIdToken({ sub: `g${id}`, email }));
      expect(first.status).toBe(200);
      await server.call('devSetUserActive', { body: { email, active: false } });
      expectError(await googleLogin(server, await google.signIdToken({ sub: `g${id}`, email })), 403, 'USER_INACTIVE');

      const id2 = unique();
      const email2 = `excluded.${id2}@example.com`;
      const session = await googleLogin(server, await google.signIdToken({ sub: `g${id2}`, email: email2 }));
      const token = tokenOf(session);
      expect((await server.call('rgUpdateSelfExclusion', { token, body: { type: 'permanent' } })).status).toBe(200);
      const excluded = await googleLogin(server, await google.signIdToken({ sub: `g${id2}`, email: email2 }));
      expect(excluded.status).toBe(200);
      expectError(await server.call('casinoInitGame', { token: tokenOf(excluded), body: { gameId: 1 } }), 403, 'SELF_EXCLUDED');
    });

    it('gives a Google account no password until one is set through the reset flow', async () => {
      const id = unique();
      const email = `nopassword.${id}@example.com`;
      const session = await googleLogin(server, await google.signIdToken({ sub: `g${id}`, email }));
      const token = tokenOf(session);
      expectError(await login(server, email), 422, 'WRONG_PASSWORD');
      expectError(
        await server.call('userUpdatePassword', { token, body: { oldPassword: pw(PASSWORD), newPassword: pw(NEW_PASSWORD) } }),
        422,
        'WRONG_PASSWORD',
      );

      await server.call('userForgotPassword', { body: { email } });
      const resetToken = tokenFrom(await latestLink(server, email));
      expect((await server.call('userVerifyForgotPassword', { body: { token: resetToken, newPassword: pw(NEW_PASSWORD) } })).status).toBe(200);
      const byPassword = await login(server, email, NEW_PASSWORD);
      expect(byPassword.status).toBe(200);
      // Still the account Google created.
      expect(byPassword.body.data.user.authProvider).toBe('google');
      const byGoogle = await googleLogin(server, await google.signIdToken({ sub: `g${id}`, email }));
      expect(byGoogle.body.data).toMatchObject({ isNewUser: false, user: { id: byPassword.body.data.user.id } });
    });

    it('shares the per-client login limit', async () => {
      for (let i = 0; i < 30; i++) expectError(await googleLogin(server, 'aaaa.bbbb.cccc'), 422, 'SOCIAL_LOGIN_FAILED');
      const limited = await googleLogin(server, await google.signIdToken({ sub: `g${unique()}` }));
      expectError(limited, 429, 'RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expectError(await login(server, 'someone@example.com'), 429, 'RATE_LIMITED');
    });
  });

  describe('userFacebookLogin', () => {
    it('creates the account on first use (isNewUser) and logs the same account in afterwards', async () => {
      const userId = facebookUserId();
      const email = `mark.${unique()}@example.com`;
      const first = await facebookLogin(server, facebook.issueToken({ userId, email, firstName: 'Mark', lastName: 'Zed' }), userId);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.data.isNewUser).toBe(true);
      expect(first.body.data.user).toMatchObject({
        email,
        firstName: 'Mark',
        lastName: 'Zed',
        emailVerified: true,
        authProvider: 'facebook',
        profileComplete: false,
      });
      const again = await facebookLogin(server, facebook.issueToken({ userId, email, firstName: 'Mark', lastName: 'Zed' }), userId);
      expect(again.status).toBe(200);
      expect(again.body.data.isNewUser).toBe(false);
      expect(again.body.data.user.id).toBe(first.body.data.user.id);
      expect((await server.call('userGetUser', { token: again.body.data.accessToken })).status).toBe(200);
    });

    it('refuses a Facebook login whose email belongs to another account with 409', async () => {
      const id = unique();
      const email = `shared.${id}@example.com`;
      expect((await googleLogin(server, await google.signIdToken({ sub: `g${id}`, email }))).status).toBe(200);
      const userId = facebookUserId();
      const res = await facebookLogin(server, facebook.issueToken({ userId, email: email.toUpperCase(), firstName: 'A', lastName: 'B' }), userId);
      expectError(res, 409, 'EMAIL_ALREADY_EXISTS');
    });

    it('refuses tokens without an email, for another app or user, expired or unknown with 422 SOCIAL_LOGIN_FAILED', async () => {
      const userId = facebookUserId();
      const grant = { userId, email: `fb.${unique()}@example.com`, firstName: 'Fb', lastName: 'User' };
      const cases: [string, string][] = [
        [facebook.issueToken({ ...grant, email: null }), userId],
        [facebook.issueToken({ ...grant, appId: '999999' }), userId],
        [facebook.issueToken({ ...grant, expired: true }), userId],
        [facebook.issueToken(grant), facebookUserId()],
        ['EAAnotatokenweissued', userId],
      ];
      for (const [accessToken, claimedUser] of cases) {
        expectError(await facebookLogin(server, accessToken, claimedUser), 422, 'SOCIAL_LOGIN_FAILED');
      }
      expect((await server.call('userCheckUser', { query: { email: grant.email } })).body.data).toEqual({ emailAvailable: true });
      expectError(await facebookLogin(server, 'token', 'not-digits'), 400, 'PLEASE_CHECK_REQUEST_DATA');
    });
  });

  it('answers 422 SOCIAL_LOGIN_NOT_CONFIGURED when the provider is not configured', async () => {
    expectError(await googleLogin(unconfigured, await google.signIdToken()), 422, 'SOCIAL_LOGIN_NOT_CONFIGURED');
    const userId = facebookUserId();
    expectError(
      await facebookLogin(unconfigured, facebook.issueToken({ userId, email: 'x@example.com', firstName: 'A', lastName: 'B' }), userId),
      422,
      'SOCIAL_LOGIN_NOT_CONFIGURED',
    );
  });

  it('answers 422 SOCIAL_LOGIN_FAILED when the provider cannot be reached', async () => {
    expectError(await googleLogin(unreachable, await google.signIdToken({ sub: `g${unique()}` })), 422, 'SOCIAL_LOGIN_FAILED');
    const userId = facebookUserId();
    expectError(
      await facebookLogin(unreachable, facebook.issueToken({ userId, email: `u.${unique()}@example.com`, firstName: 'A', lastName: 'B' }), userId),
      422,
      'SOCIAL_LOGIN_FAILED',
    );
  });
});
