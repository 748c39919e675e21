import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPlayer, registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';
import { dimensionsOf, pngChunk, pngOfSize } from '../helpers/images.ts';

// ── Real file bytes, built here ─────────────────────────────────────────────────────────────────

/** A valid 1x1 RGB PNG of the given colour. */
function tinyPng(rgb: [number, number, number] = [255, 0, 0]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from([0, ...rgb]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid baseline 1x1 grey JPEG: one 8x8 block whose DC difference is 0, then end of block. */
function tinyJpeg(): Buffer {
  const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const huffman = (tableClass: number) => [tableClass << 4, 1, ...new Array<number>(15).fill(0), 0x00];
  return Buffer.from([
    0xff, 0xd8, // SOI
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // APP0 JFIF
    ...segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]), // DQT
    ...segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]), // SOF0 1x1, one component
    ...segment(0xc4, huffman(0)), // DHT DC: symbol 0 = code "0"
    ...segment(0xc4, huffman(1)), // DHT AC: EOB = code "0"
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
    0x3f, // DC "0", EOB "0", padded with ones
    0xff, 0xd9, // EOI
  ]);
}

function tinyPdf(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
      'trailer<</Root 1 0 R>>\n%%EOF\n',
  );
}

const MiB = 1024 * 1024;


// ── Setup ───────────────────────────────────────────────────────────────────────────────────────

let server: TestServer;
let alice: Awaited<ReturnType<typeof registeredPlayer>>;
let bob: Awaited<ReturnType<typeof registeredPlayer>>;

beforeAll(async () => {
  // Many players sign up from one address here; rate limits have their own tests.
  server = await startTestServer({ RATE_LIMIT: 'false' });
  alice = await registeredPlayer(server);
  bob = await registeredPlayer(server);
});
afterAll(async () => server.close());

/** Every member userUpdate needs, for `player`'s current profile, with overrides. */
function profileBody(payload: ReturnType<typeof newPlayer>, overrides: Record<string, unknown> = {}) {
  const { email: _email, password: _password, confirmPassword: _confirm, ...fields } = payload;
  return { middleName: null, ...fields, ...overrides };
}

function fieldsOf(body: { errors: { fields?: { field: string; code: string }[] }[] }) {
  return body.errors[0]?.fields ?? [];
}

// ── Profile ─────────────────────────────────────────────────────────────────────────────────────

describe('userGetUser', () => {
  it('returns the logged-in player with a complete profile and no picture', async () => {
    const res = await server.call('userGetUser', { token: alice.token });
    expect(res.status).toBe(200);
    const user = res.body.data.user;
    expect(user.email).toBe(alice.payload.email);
    expect(user.username).toBe(alice.payload.username);
    expect(user.profileComplete).toBe(true);
    expect(user.profileImageUrl).toBeNull();
    expect(user.authProvider).toBe('email');
  });

  it('needs a token', async () => {
    const res = await server.call('userGetUser');
    expect(res.status).toBe(401);
    expect(res.body.errors[0].description).toBe('ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
  });
});

describe('userUpdate', () => {
  it('saves every member and returns data.user with the changes', async () => {
    const player = await registeredPlayer(server);
    const body = profileBody(player.payload, {
      firstName: 'Maria',
      middleName: 'José',
      lastName: "O'Neil-Santos",
      username: `new${player.payload.username}`.slice(0, 20),
      phone: `93${player.payload.phone.slice(2)}`,
      dateOfBirth: '1985-12-01',
      gender: 'other',
      address: '  500 Main Street  ',
      city: 'Houston',
      stateCode: 'TX',
      countryCode: 'US',
      zipCode: '77002-1234',
    });
    const res = await server.call('userUpdate', { token: player.token, body });
    expect(res.status).toBe(200);
    const user = res.body.data.user;
    expect(user).toMatchObject({
      firstName: 'Maria',
      middleName: 'José',
      lastName: "O'Neil-Santos",
      username: body.username,
      phone: body.phone,
      dateOfBirth: '1985-12-01',
      gender: 'other',
      address: '500 Main Street',
      city: 'Houston',
      stateCode: 'TX',
      countryCode: 'US',
      zipCode: '77002-1234',
      email: player.payload.email,
      profileComplete: true,
    });
    const again = await server.call('userGetUser', { token: player.token });
    expect(again.body.data.user).toEqual(user);
  });

  it("treats an empty middleName as none and lets players keep their own username and phone", async () => {
    const player = await registeredPlayer(server);
    const withMiddle = await server.call('userUpdate', { token: player.token, body: profileBody(player.payload, { middleName: 'Rita' }) });
    expect(withMiddle.body.data.user.middleName).toBe('Rita');
    const res = await server.call('userUpdate', {
      token: player.token,
      body: profileBody(player.payload, { middleName: '', username: player.payload.username.toUpperCase() }),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.user.middleName).toBeNull();
    expect(res.body.data.user.username).toBe(player.payload.username.toUpperCase());
  });

  it.each([
    ['firstName', { firstName: 'An4' }, 'name'],
    ['firstName', { firstName: '' }, 'required'],
    ['middleName', { middleName: 'J0' }, 'name'],
    ['lastName', { lastName: 'Silva  Santos' }, 'name'],
    ['lastName', { lastName: 'a'.repeat(50) + 'b' }, 'name.length'],
    ['phone', { phone: '12345' }, 'phone.length'],
    ['dateOfBirth', { dateOfBirth: '2001-02-30' }, 'date'],
    ['dateOfBirth', { dateOfBirth: '17/05/1990' }, 'date'],
    ['username', { username: 'ana_silva' }, 'username'],
    ['username', { username: 'ab' }, 'username.length'],
    ['gender', { gender: 'unknown' }, 'gender'],
    ['phoneCode', { phoneCode: '++1' }, 'phoneCode'],
    ['phone', { phone: '12ab34' }, 'phone'],
    ['countryCode', { countryCode: 'pt' }, 'country'],
    ['email', { email: 'other@example.com' }, 'unknownField'],
    ['dateOfBirth', { dateOfBirth: '1899-12-31' }, 'date'],
    ['address', { address: '  ab ' }, 'address.length'],
    ['address', { address: 'Rua\u0007Augusta' }, 'address'],
    ['city', { city: 'L1sboa' }, 'city'],
    ['zipCode', { zipCode: '1234' }, 'zip'],
    ['zipCode', { zipCode: '1234567' }, 'zip'],
    ['stateCode', { stateCode: 'A B' }, 'state'],
  ])('refuses a bad %s (%j) with 400 and field code %s', async (field, overrides, code) => {
    const res = await server.call('userUpdate', { token: alice.token, body: profileBody(alice.payload, overrides) });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].description).toBe('PLEASE_CHECK_REQUEST_DATA');
    expect(fieldsOf(res.body)).toContainEqual({ field, code });
  });

  it('refuses a player under 18 on the server clock', async () => {
    const now = server.clock.now();
    const seventeen = new Date(Date.UTC(now.getUTCFullYear() - 17, now.getUTCMonth(), 1)).toISOString().slice(0, 10);
    const res = await server.call('userUpdate', { token: alice.token, body: profileBody(alice.payload, { dateOfBirth: seventeen }) });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toContainEqual({ field: 'dateOfBirth', code: 'age' });
  });

  it("applies the age rule on the server's clock, not the machine's", async () => {
    const player = await registeredPlayer(server);
    const real = new Date();
    // 17 and a half by the machine's clock, 19 and a half two years later.
    const dob = new Date(Date.UTC(real.getUTCFullYear() - 18, real.getUTCMonth() + 6, 1)).toISOString().slice(0, 10);
    const saved = server.clock.now();
    server.clock.advance(2 * 366 * 24 * 3600_000);
    try {
      const login = await server.call('userLogin', { body: { email: player.payload.email, password: player.payload.password } });
      expect(login.status).toBe(200);
      const res = await server.call('userUpdate', {
        token: login.body.data.accessToken,
        body: profileBody(player.payload, { dateOfBirth: dob }),
      });
      expect(res.status).toBe(200);
      expect(res.body.data.user.dateOfBirth).toBe(dob);
    } finally {
      server.clock.set(saved);
    }
  });

  it('reports every failing field at once and leaves the profile unchanged', async () => {
    const res = await server.call('userUpdate', {
      token: alice.token,
      body: profileBody(alice.payload, { firstName: 'X1', city: 'C1ty', zipCode: '12' }),
    });
    expect(res.status).toBe(400);
    const fields = fieldsOf(res.body).map((f) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['firstName', 'city', 'zipCode']));
    const me = await server.call('userGetUser', { token: alice.token });
    expect(me.body.data.user.firstName).toBe(alice.payload.firstName);
    expect(me.body.data.user.zipCode).toBe(alice.payload.zipCode);
  });

  it('refuses a body without a required member or of the wrong type', async () => {
    const { zipCode: _zip, ...missing } = profileBody(alice.payload);
    const res = await server.call('userUpdate', { token: alice.token, body: missing });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toContainEqual({ field: 'zipCode', code: 'required' });
    const wrongType = await server.call('userUpdate', { token: alice.token, body: profileBody(alice.payload, { phone: 912345678 }) });
    expect(wrongType.status).toBe(400);
    expect(fieldsOf(wrongType.body)).toContainEqual({ field: 'phone', code: 'type' });
  });

  it('refuses an unknown country or a state not of that country', async () => {
    const country = await server.call('userUpdate', { token: alice.token, body: profileBody(alice.payload, { countryCode: 'ZZ' }) });
    expect(country.status).toBe(400);
    expect(fieldsOf(country.body)).toContainEqual({ field: 'countryCode', code: 'country' });

    const state = await server.call('userUpdate', {
      token: alice.token,
      body: profileBody(alice.payload, { countryCode: 'US', stateCode: 'ZZ' }),
    });
    expect(state.status).toBe(400);
    expect(fieldsOf(state.body)).toContainEqual({ field: 'stateCode', code: 'state' });

    // Portugal's district 11 is Lisbon; TX is not a Portuguese state.
    const foreign = await server.call('userUpdate', { token: alice.token, body: profileBody(alice.payload, { stateCode: 'TX' }) });
    expect(foreign.status).toBe(400);
    expect(fieldsOf(foreign.body)).toContainEqual({ field: 'stateCode', code: 'state' });
  });

  it("refuses another player's username (any case) with 409 USERNAME_IS_TAKEN", async () => {
    for (const username of [bob.payload.username, bob.payload.username.toUpperCase()]) {
      const res = await server.call('userUpdate', { token: alice.token, body: profileBody(alice.payload, { username }) });
      expect(res.status).toBe(409);
      expect(res.body.errors[0].description).toBe('USERNAME_IS_TAKEN');
    }
    const me = await server.call('userGetUser', { token: alice.token });
    expect(me.body.data.user.username).toBe(alice.payload.username);
  });

  it("refuses another player's phone with 409 PHONE_IS_TAKEN, whatever way the calling code is written", async () => {
    const same = await server.call('userUpdate', {
      token: alice.token,
      body: profileBody(alice.payload, { phoneCode: bob.payload.phoneCode, phone: bob.payload.phone }),
    });
    expect(same.status).toBe(409);
    expect(same.body.errors[0].description).toBe('PHONE_IS_TAKEN');

    // "+351" and "351" are the same calling code.
    const plus = await server.call('userUpdate', {
      token: alice.token,
      body: profileBody(alice.payload, { phoneCode: `+${bob.payload.phoneCode}`, phone: bob.payload.phone }),
    });
    expect(plus.status).toBe(409);
    expect(plus.body.errors[0].description).toBe('PHONE_IS_TAKEN');

    // The same number under another calling code is another phone.
    const other = await server.call('userUpdate', {
      token: alice.token,
      body: profileBody(alice.payload, { phoneCode: '44', phone: bob.payload.phone }),
    });
    expect(other.status).toBe(200);
    const back = await server.call('userUpdate', { token: alice.token, body: profileBody(alice.payload) });
    expect(back.status).toBe(200);
    expect(back.body.data.user.phoneCode).toBe(alice.payload.phoneCode);
  });

  it('is refused without JSON', async () => {
    const res = await server.call('userUpdate', { token: alice.token, raw: { payload: 'firstName=Ana', contentType: 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body.errors[0].description).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('completes the profile of a social account (profileComplete becomes true)', async () => {
    const email = `social${Date.now()}@example.com`;
    const [row] = await server.db.query<{ id: number }>(
      `INSERT INTO users (email, username, first_name, last_name, email_verified_at, referral_code, google_sub)
       VALUES ($1, $2, 'Sofia', 'Lopes', now(), $3, $4) RETURNING id`,
      [email, `sofia${Date.now() % 100000}`, `REF${Date.now()}`, `google-${Date.now()}`],
    );
    const { accessToken } = await server.ctx.tokens.issue(server.db, row!.id, server.clock.now());
    const before = await server.call('userGetUser', { token: accessToken });
    expect(before.body.data.user).toMatchObject({ profileComplete: false, authProvider: 'google', phone: null, city: null });
    const payload = newPlayer({ firstName: 'Sofia', lastName: 'Lopes' });
    const res = await server.call('userUpdate', { token: accessToken, body: profileBody(payload) });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ profileComplete: true, email, city: payload.city, phone: payload.phone });
  });
});

// ── Session limit ───────────────────────────────────────────────────────────────────────────────

describe('userUpdateSessionLimit', () => {
  it('sets, reports and clears the limit', async () => {
    const player = await registeredPlayer(server);
    const set = await server.call('userUpdateSessionLimit', { token: player.token, body: { sessionLimitMinutes: 120 } });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ success: true, sessionLimitMinutes: 120 });
    const limits = await server.call('rgGetLimits', { token: player.token });
    expect(limits.body.data.limits.sessionLimitMinutes).toBe(120);

    const cleared = await server.call('userUpdateSessionLimit', { token: player.token, body: { sessionLimitMinutes: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toEqual({ success: true, sessionLimitMinutes: null });
    const after = await server.call('rgGetLimits', { token: player.token });
    expect(after.body.data.limits.sessionLimitMinutes).toBeNull();
  });

  it('accepts 15 to 1440 minutes and refuses anything else', async () => {
    for (const minutes of [15, 1440]) {
      const res = await server.call('userUpdateSessionLimit', { token: alice.token, body: { sessionLimitMinutes: minutes } });
      expect(res.status).toBe(200);
      expect(res.body.data.sessionLimitMinutes).toBe(minutes);
    }
    for (const minutes of [14, 0, -5, 1441, 30.5, '60', true]) {
      const res = await server.call('userUpdateSessionLimit', { token: alice.token, body: { sessionLimitMinutes: minutes } });
      expect(res.status, String(minutes)).toBe(400);
      expect(fieldsOf(res.body)[0]?.field).toBe('sessionLimitMinutes');
    }
    const missing = await server.call('userUpdateSessionLimit', { token: alice.token, body: {} });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toContainEqual({ field: 'sessionLimitMinutes', code: 'required' });
    // The refused values left the last good one in place.
    const limits = await server.call('rgGetLimits', { token: alice.token });
    expect(limits.body.data.limits.sessionLimitMinutes).toBe(1440);
    await server.call('userUpdateSessionLimit', { token: alice.token, body: { sessionLimitMinutes: null } });
  });

  it('ends sessions started after it is set once the limit has passed (401 SESSION_EXPIRED)', async () => {
    const player = await registeredPlayer(server);
    await server.call('userUpdateSessionLimit', { token: player.token, body: { sessionLimitMinutes: 30 } });
    const login = await server.call('userLogin', { body: { email: player.payload.email, password: player.payload.password } });
    expect(login.status).toBe(200);
    const started = server.clock.now().getTime();
    expect(new Date(login.body.data.expiresAt).getTime()).toBeLessThanOrEqual(started + 30 * 60_000);
    const token = login.body.data.accessToken as string;
    try {
      server.clock.advance(29 * 60_000);
      expect((await server.call('userGetUser', { token })).status).toBe(200);
      server.clock.advance(2 * 60_000);
      const expired = await server.call('userGetUser', { token });
      expect(expired.status).toBe(401);
      expect(expired.body.errors[0].description).toBe('SESSION_EXPIRED');
    } finally {
      server.clock.set(new Date(started));
    }
  });
});

// ── Addresses ───────────────────────────────────────────────────────────────────────────────────

const home = { label: 'Home', address: '100 Congress Avenue', city: 'Austin', stateCode: 'TX', countryCode: 'US', zipCode: '73301' };
const work = { label: 'Work', address: 'Rua Augusta 200', city: 'Lisboa', stateCode: '11', countryCode: 'PT', zipCode: '11000' };

describe('addresses', () => {
  it('adds, lists (oldest first), updates and removes', async () => {
    const player = await registeredPlayer(server);
    const empty = await server.call('userGetAddresses', { token: player.token });
    expect(empty.body.data.addresses).toEqual([]);

    const first = await server.call('userAddAddress', { token: player.token, body: { ...home, address: ' 100 Congress Avenue ' } });
    expect(first.status).toBe(200);
    expect(first.body.data.address).toMatchObject({ ...home, id: expect.any(Number) });
    const second = await server.call('userAddAddress', { token: player.token, body: { ...work, label: '' } });
    expect(second.status).toBe(200);
    expect(second.body.data.address.label).toBeNull();

    const list = await server.call('userGetAddresses', { token: player.token });
    expect(list.body.data.addresses.map((a: { id: number }) => a.id)).toEqual([first.body.data.address.id, second.body.data.address.id]);

    const updated = await server.call('userUpdateAddress', {
      token: player.token,
      body: { addressId: first.body.data.address.id, ...home, label: 'Old home', zipCode: '73344' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.address).toMatchObject({ id: first.body.data.address.id, label: 'Old home', zipCode: '73344' });
    expect(updated.body.data.address.createdAt).toBe(first.body.data.address.createdAt);

    // Saving an address unchanged is not a clash with itself.
    const unchanged = await server.call('userUpdateAddress', {
      token: player.token,
      body: { addressId: first.body.data.address.id, ...home, label: null, zipCode: '73344' },
    });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.data.address.label).toBeNull();

    const removed = await server.call('userRemoveAddress', { token: player.token, body: { addressId: second.body.data.address.id } });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ success: true });
    const after = await server.call('userGetAddresses', { token: player.token });
    expect(after.body.data.addresses).toHaveLength(1);
    expect(after.body.data.addresses[0]).toMatchObject({ id: first.body.data.address.id, zipCode: '73344' });

    const again = await server.call('userRemoveAddress', { token: player.token, body: { addressId: second.body.data.address.id } });
    expect(again.status).toBe(404);
    expect(again.body.errors[0].description).toBe('NOT_FOUND');
  });

  it('refuses the same street, city, zip code and country twice (409 ADDRESS_ALREADY_EXISTS)', async () => {
    const player = await registeredPlayer(server);
    expect((await server.call('userAddAddress', { token: player.token, body: home })).status).toBe(200);
    const variants = [
      home,
      { ...home, label: 'Another name' },
      { ...home, address: '100 CONGRESS AVENUE', city: 'austin' },
      { ...home, stateCode: 'CA' },
    ];
    for (const body of variants) {
      const res = await server.call('userAddAddress', { token: player.token, body });
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body.errors[0].description).toBe('ADDRESS_ALREADY_EXISTS');
    }
    // Updating another address into a copy of the first is the same clash.
    const other = await server.call('userAddAddress', { token: player.token, body: work });
    const clash = await server.call('userUpdateAddress', { token: player.token, body: { addressId: other.body.data.address.id, ...home } });
    expect(clash.status).toBe(409);
    expect(clash.body.errors[0].description).toBe('ADDRESS_ALREADY_EXISTS');
    const list = await server.call('userGetAddresses', { token: player.token });
    expect(list.body.data.addresses).toHaveLength(2);
    // Another player may save the same address.
    expect((await server.call('userAddAddress', { token: bob.token, body: home })).status).toBe(200);
  });

  it('applies the field rules and the country/state list', async () => {
    const cases: [Record<string, unknown>, { field: string; code: string }][] = [
      [{ address: 'ab' }, { field: 'address', code: 'address.length' }],
      [{ city: 'Aust1n' }, { field: 'city', code: 'city' }],
      [{ zipCode: '7330' }, { field: 'zipCode', code: 'zip' }],
      [{ label: '   ' }, { field: 'label', code: 'addressLabel' }],
      [{ countryCode: 'ZZ' }, { field: 'countryCode', code: 'country' }],
      [{ stateCode: 'ZZ' }, { field: 'stateCode', code: 'state' }],
      [{ city: undefined }, { field: 'city', code: 'required' }],
      [{ extra: 1 }, { field: 'extra', code: 'unknownField' }],
    ];
    for (const [overrides, issue] of cases) {
      const res = await server.call('userAddAddress', { token: alice.token, body: { ...home, ...overrides } });
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(fieldsOf(res.body), JSON.stringify(overrides)).toContainEqual(issue);
    }
    const list = await server.call('userGetAddresses', { token: alice.token });
    expect(list.body.data.addresses).toEqual([]);
  });

  it('keeps at most 20 addresses: the 21st is 400 address.limit', async () => {
    const player = await registeredPlayer(server);
    for (let i = 0; i < 20; i += 1) {
      const res = await server.call('userAddAddress', { token: player.token, body: { ...home, address: `${100 + i} Congress Avenue` } });
      expect(res.status).toBe(200);
    }
    const res = await server.call('userAddAddress', { token: player.token, body: { ...home, address: '999 Congress Avenue' } });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual([{ field: '', code: 'address.limit' }]);
    const list = await server.call('userGetAddresses', { token: player.token });
    expect(list.body.data.addresses).toHaveLength(20);
    // Removing one makes room again.
    await server.call('userRemoveAddress', { token: player.token, body: { addressId: list.body.data.addresses[0].id } });
    expect((await server.call('userAddAddress', { token: player.token, body: { ...home, address: '999 Congress Avenue' } })).status).toBe(200);
  });

  it("never shows, changes or removes another player's address (404 NOT_FOUND)", async () => {
    const owner = await registeredPlayer(server);
    const intruder = await registeredPlayer(server);
    const mine = await server.call('userAddAddress', { token: owner.token, body: work });
    const addressId = mine.body.data.address.id as number;

    const list = await server.call('userGetAddresses', { token: intruder.token });
    expect(list.body.data.addresses.some((a: { id: number }) => a.id === addressId)).toBe(false);

    const update = await server.call('userUpdateAddress', { token: intruder.token, body: { addressId, ...home } });
    expect(update.status).toBe(404);
    expect(update.body.errors[0].description).toBe('NOT_FOUND');
    const remove = await server.call('userRemoveAddress', { token: intruder.token, body: { addressId } });
    expect(remove.status).toBe(404);
    expect(remove.body.errors[0].description).toBe('NOT_FOUND');

    const missing = await server.call('userUpdateAddress', { token: owner.token, body: { addressId: 2147483647, ...home } });
    expect(missing.status).toBe(404);

    const still = await server.call('userGetAddresses', { token: owner.token });
    expect(still.body.data.addresses).toEqual([mine.body.data.address]);
  });

  it('refuses a bad address id', async () => {
    for (const addressId of [0, -1, 'abc', 1.5, 2147483648]) {
      const res = await server.call('userRemoveAddress', { token: alice.token, body: { addressId } });
      expect(res.status, String(addressId)).toBe(400);
    }
  });
});

// ── Profile image ───────────────────────────────────────────────────────────────────────────────

function imageIdOf(url: string): string {
  const match = /^\/api\/v1\/user\/profile-image\/([A-Za-z0-9_-]{16,64})$/.exec(url);
  if (!match?.[1]) throw new Error(`unexpected profile image URL ${url}`);
  return match[1];
}

async function upload(token: string, filename: string, content: Buffer, contentType?: string) {
  return server.call('userUploadProfileImage', {
    token,
    parts: [{ name: 'file', value: { filename, content, ...(contentType ? { contentType } : {}) } }],
  });
}

describe('profile image', () => {
  it('stores a PNG and serves it back (encoded anew) with its type, nosniff and the contract cache policy', async () => {
    const player = await registeredPlayer(server);
    const png = tinyPng();
    const res = await upload(player.token, 'me.png', png, 'image/png');
    expect(res.status).toBe(200);
    const url = res.body.data.user.profileImageUrl as string;
    const imageId = imageIdOf(url);
    const me = await server.call('userGetUser', { token: player.token });
    expect(me.body.data.user.profileImageUrl).toBe(url);

    // Public: no token needed.
    const image = await server.call('userGetProfileImage', { params: { imageId } });
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(await dimensionsOf(image.rawPayload)).toMatchObject({ format: 'png', width: 1, height: 1 });

    // Stored under its random id, never under the uploaded name.
    const dir = join(server.ctx.uploadsDir, 'profile-images');
    expect(readdirSync(dir)).toContain(imageId);
    expect(readdirSync(dir)).not.toContain('me.png');
  });

  it('serves the type found in the bytes, not the one claimed by the upload', async () => {
    const player = await registeredPlayer(server);
    const jpeg = tinyJpeg();
    const res = await upload(player.token, 'me.jpg', jpeg, 'text/html');
    expect(res.status).toBe(200);
    const image = await server.call('userGetProfileImage', { params: { imageId: imageIdOf(res.body.data.user.profileImageUrl) } });
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(await dimensionsOf(image.rawPayload)).toMatchObject({ format: 'jpeg', width: 1, height: 1 });

    const png = await upload(player.token, 'ME.JPEG.png', tinyPng([0, 0, 255]), 'image/jpeg');
    expect(png.status).toBe(200);
    const served = await server.call('userGetProfileImage', { params: { imageId: imageIdOf(png.body.data.user.profileImageUrl) } });
    expect(served.headers['content-type']).toBe('image/png');
  });

  it('replaces the previous picture: new id, old URL 404, old file gone', async () => {
    const player = await registeredPlayer(server);
    const first = await upload(player.token, 'a.png', tinyPng([1, 2, 3]));
    const firstId = imageIdOf(first.body.data.user.profileImageUrl);
    const second = await upload(player.token, 'b.jpeg', tinyJpeg());
    expect(second.status).toBe(200);
    const secondId = imageIdOf(second.body.data.user.profileImageUrl);
    expect(secondId).not.toBe(firstId);

    const old = await server.call('userGetProfileImage', { params: { imageId: firstId } });
    expect(old.status).toBe(404);
    expect(old.body.errors[0].description).toBe('NOT_FOUND');
    expect(existsSync(join(server.ctx.uploadsDir, 'profile-images', firstId))).toBe(false);
    const current = await server.call('userGetProfileImage', { params: { imageId: secondId } });
    expect(current.status).toBe(200);
    expect(current.headers['content-type']).toBe('image/jpeg');
  });

  it('refuses files that are not JPEG or PNG by content (415 FILE_FORMAT_NOT_SUPPORTED) and keeps the old picture', async () => {
    const player = await registeredPlayer(server);
    const kept = await upload(player.token, 'keep.png', tinyPng());
    const keptUrl = kept.body.data.user.profileImageUrl as string;
    const files: [string, Buffer, string][] = [
      ['scan.pdf', tinyPdf(), 'application/pdf'],
      ['renamed.png', tinyPdf(), 'image/png'],
      ['notes.png', Buffer.from('just some text, not an image\n'), 'image/png'],
      ['animation.gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'image/gif'],
      ['page.png', Buffer.from('<html><script>alert(1)</script></html>'), 'image/png'],
      ['really-a-jpeg.png', tinyJpeg(), 'image/png'],
    ];
    for (const [name, bytes, type] of files) {
      const res = await upload(player.token, name, bytes, type);
      expect(res.status, name).toBe(415);
      expect(res.body.errors[0].description, name).toBe('FILE_FORMAT_NOT_SUPPORTED');
    }
    const me = await server.call('userGetUser', { token: player.token });
    expect(me.body.data.user.profileImageUrl).toBe(keptUrl);
    expect(readdirSync(join(server.ctx.uploadsDir, 'profile-images'))).toContain(imageIdOf(keptUrl));
  });

  it('refuses a file of 5 MiB or more with 413 FILE_TOO_LARGE and takes one just under', async () => {
    const player = await registeredPlayer(server);
    const tooLarge = await upload(player.token, 'big.png', await pngOfSize(5 * MiB), 'image/png');
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.errors[0].description).toBe('FILE_TOO_LARGE');
    const me = await server.call('userGetUser', { token: player.token });
    expect(me.body.data.user.profileImageUrl).toBeNull();

    const justUnder = await upload(player.token, 'big.png', await pngOfSize(5 * MiB - 1), 'image/png');
    expect(justUnder.status).toBe(200);
    const image = await server.call('userGetProfileImage', { params: { imageId: imageIdOf(justUnder.body.data.user.profileImageUrl) } });
    // Stored encoded anew: the padding of the upload is not kept.
    expect(image.rawPayload.length).toBeLessThan(1024);
    expect(await dimensionsOf(image.rawPayload)).toMatchObject({ format: 'png', width: 1, height: 1 });
  });

  it('refuses an empty file (400 file.empty) and a missing file part (400)', async () => {
    const empty = await upload(alice.token, 'empty.png', Buffer.alloc(0), 'image/png');
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].description).toBe('PLEASE_CHECK_REQUEST_DATA');
    expect(fieldsOf(empty.body)).toContainEqual({ field: 'file', code: 'file.empty' });

    const noFile = await server.call('userUploadProfileImage', { token: alice.token, parts: [{ name: 'note', value: 'hello' }] });
    expect(noFile.status).toBe(400);
    expect(fieldsOf(noFile.body)).toContainEqual({ field: 'file', code: 'required' });

    const wrongName = await server.call('userUploadProfileImage', {
      token: alice.token,
      parts: [{ name: 'image', value: { filename: 'me.png', content: tinyPng(), contentType: 'image/png' } }],
    });
    expect(wrongName.status).toBe(400);

    const twoFiles = await server.call('userUploadProfileImage', {
      token: alice.token,
      parts: [
        { name: 'file', value: { filename: 'a.png', content: tinyPng(), contentType: 'image/png' } },
        { name: 'file', value: { filename: 'b.png', content: tinyPng(), contentType: 'image/png' } },
      ],
    });
    expect(twoFiles.status).toBe(400);
    const me = await server.call('userGetUser', { token: alice.token });
    expect(me.body.data.user.profileImageUrl).toBeNull();
  });

  it('refuses a JSON body (415 UNSUPPORTED_MEDIA_TYPE) and a visitor (401)', async () => {
    const json = await server.call('userUploadProfileImage', { token: alice.token, body: { file: tinyPng().toString('base64') } });
    expect(json.status).toBe(415);
    expect(json.body.errors[0].description).toBe('UNSUPPORTED_MEDIA_TYPE');
    const visitor = await server.call('userUploadProfileImage', {
      parts: [{ name: 'file', value: { filename: 'me.png', content: tinyPng(), contentType: 'image/png' } }],
    });
    expect(visitor.status).toBe(401);
  });

  it('removes the picture: profileImageUrl null, URL 404, file gone; removing again succeeds', async () => {
    const player = await registeredPlayer(server);
    const res = await upload(player.token, 'me.png', tinyPng());
    const imageId = imageIdOf(res.body.data.user.profileImageUrl);
    const removed = await server.call('userRemoveProfileImage', { token: player.token });
    expect(removed.status).toBe(200);
    expect(removed.body.data.user.profileImageUrl).toBeNull();
    const image = await server.call('userGetProfileImage', { params: { imageId } });
    expect(image.status).toBe(404);
    expect(existsSync(join(server.ctx.uploadsDir, 'profile-images', imageId))).toBe(false);
    const me = await server.call('userGetUser', { token: player.token });
    expect(me.body.data.user.profileImageUrl).toBeNull();

    const again = await server.call('userRemoveProfileImage', { token: player.token });
    expect(again.status).toBe(200);
    expect(again.body.data.user.profileImageUrl).toBeNull();
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const unknown = await server.call('userGetProfileImage', { params: { imageId: 'A'.repeat(24) } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].description).toBe('NOT_FOUND');
    for (const imageId of ['short', '..%2F..%2Fetc%2Fpasswd0000', 'a'.repeat(65)]) {
      const bad = await server.call('userGetProfileImage', { params: { imageId } });
      expect(bad.status, imageId).toBe(400);
    }
  });

  it("does not let one player's upload touch another's picture", async () => {
    const one = await registeredPlayer(server);
    const two = await registeredPlayer(server);
    const a = await upload(one.token, 'a.png', tinyPng([10, 10, 10]));
    const b = await upload(two.token, 'b.png', tinyPng([20, 20, 20]));
    await server.call('userRemoveProfileImage', { token: two.token });
    const stillA = await server.call('userGetProfileImage', { params: { imageId: imageIdOf(a.body.data.user.profileImageUrl) } });
    expect(stillA.status).toBe(200);
    const goneB = await server.call('userGetProfileImage', { params: { imageId: imageIdOf(b.body.data.user.profileImageUrl) } });
    expect(goneB.status).toBe(404);
  });

  it('leaves exactly one stored picture when two uploads race', async () => {
    const player = await registeredPlayer(server);
    const dir = join(server.ctx.uploadsDir, 'profile-images');
    const before = new Set(existsSync(dir) ? readdirSync(dir) : []);
    const results = await Promise.all([upload(player.token, 'x.png', tinyPng([1, 1, 1])), upload(player.token, 'y.jpg', tinyJpeg())]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const me = await server.call('userGetUser', { token: player.token });
    const current = imageIdOf(me.body.data.user.profileImageUrl);
    const added = readdirSync(dir).filter((name) => !before.has(name));
    expect(added).toEqual([current]);
  });
});

// ── Wallets ─────────────────────────────────────────────────────────────────────────────────────

describe('wallets', () => {
  it('has one wallet per enabled currency from signup, LTC first and the only one selected', async () => {
    const player = await registeredPlayer(server);
    const currencies = await server.call('commonGetCurrencies');
    const codes = (currencies.body.data.currencies as { code: string }[]).map((c) => c.code);
    const res = await server.call('userGetWallets', { token: player.token });
    expect(res.status).toBe(200);
    const wallets = res.body.data.wallets as { id: number; currencyCode: string; selected: boolean; available: string; pending: string }[];
    expect(wallets.map((w) => w.currencyCode).sort()).toEqual([...codes].sort());
    expect(wallets[0]?.currencyCode).toBe('LTC');
    expect(wallets.filter((w) => w.selected).map((w) => w.currencyCode)).toEqual(['LTC']);
    for (const wallet of wallets) expect(wallet).toMatchObject({ available: '0', pending: '0' });
    expect(new Set(wallets.map((w) => w.id)).size).toBe(wallets.length);
  });

  it('selects another wallet, leaving exactly one selected', async () => {
    const player = await registeredPlayer(server);
    const wallets = (await server.call('userGetWallets', { token: player.token })).body.data.wallets as { id: number; currencyCode: string }[];
    const btc = wallets.find((w) => w.currencyCode === 'BTC')!;
    const res = await server.call('userSelectWallet', { token: player.token, body: { walletId: btc.id } });
    expect(res.status).toBe(200);
    const selected = (res.body.data.wallets as { id: number; selected: boolean }[]).filter((w) => w.selected);
    expect(selected.map((w) => w.id)).toEqual([btc.id]);
    const listed = await server.call('userGetWallets', { token: player.token });
    expect(listed.body.data.wallets).toEqual(res.body.data.wallets);

    // Selecting the selected one again changes nothing.
    const again = await server.call('userSelectWallet', { token: player.token, body: { walletId: btc.id } });
    expect(again.body.data.wallets).toEqual(res.body.data.wallets);
  });

  it("refuses another player's wallet or an unknown one with 404 and changes nothing", async () => {
    const owner = await registeredPlayer(server);
    const other = await registeredPlayer(server);
    const ownerWallets = (await server.call('userGetWallets', { token: owner.token })).body.data.wallets as { id: number; currencyCode: string }[];
    const foreign = ownerWallets.find((w) => w.currencyCode === 'ETH')!;
    for (const walletId of [foreign.id, 2147483647]) {
      const res = await server.call('userSelectWallet', { token: other.token, body: { walletId } });
      expect(res.status).toBe(404);
      expect(res.body.errors[0].description).toBe('NOT_FOUND');
    }
    const owners = (await server.call('userGetWallets', { token: owner.token })).body.data.wallets as { currencyCode: string; selected: boolean }[];
    expect(owners.filter((w) => w.selected).map((w) => w.currencyCode)).toEqual(['LTC']);
    const others = (await server.call('userGetWallets', { token: other.token })).body.data.wallets as { currencyCode: string; selected: boolean }[];
    expect(others.filter((w) => w.selected).map((w) => w.currencyCode)).toEqual(['LTC']);

    const bad = await server.call('userSelectWallet', { token: other.token, body: { walletId: '1' } });
    expect(bad.status).toBe(400);
  });

  it('keeps exactly one selected when selections race', async () => {
    const player = await registeredPlayer(server);
    const wallets = (await server.call('userGetWallets', { token: player.token })).body.data.wallets as { id: number }[];
    const results = await Promise.all(wallets.map((w) => server.call('userSelectWallet', { token: player.token, body: { walletId: w.id } })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const after = (await server.call('userGetWallets', { token: player.token })).body.data.wallets as { selected: boolean }[];
    expect(after.filter((w) => w.selected)).toHaveLength(1);
  });
});

