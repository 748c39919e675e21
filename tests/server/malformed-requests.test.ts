import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';

/*
 * Requests broken below the level of an operation's schema: multipart bodies that do not parse, and
 * what Fastify or Node's HTTP parser refuse before any operation runs (a URL that does not decode,
 * headers over 16 KiB, a request line that is not HTTP). Each answers in the envelope, never 500.
 */

let server: TestServer;
let token: string;
let port: number;

beforeAll(async () => {
  server = await startTestServer();
  token = (await registeredPlayer(server)).token;
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  port = (server.app.server.address() as { port: number }).port;
});
afterAll(async () => server.close());

const BAD_REQUEST = { data: {}, errors: [{ name: 'BadRequest', description: 'PLEASE_CHECK_REQUEST_DATA' }] };

const UPLOADS = ['/api/v1/user/upload-profile-image', '/api/v1/document/upload', '/api/v1/document/upload-all'];

const MALFORMED: [string, string, string][] = [
  ['an opening boundary and nothing more', 'multipart/form-data; boundary=x', '--x\r\n'],
  ['no boundary in the Content-Type', 'multipart/form-data', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n'],
  ['an empty boundary', 'multipart/form-data; boundary=""', '--\r\n'],
  [
    'a file part cut short',
    'multipart/form-data; boundary=x',
    '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n',
  ],
  ['a part header cut short', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-da'],
  ['text with no boundary in it', 'multipart/form-data; boundary=x', 'hello world'],
];

describe('malformed multipart bodies', () => {
  for (const url of UPLOADS) {
    it.each(MALFORMED)(`${url}: %s answers 400 PLEASE_CHECK_REQUEST_DATA`, async (_label, contentType, payload) => {
      const response = await server.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        payload: Buffer.from(payload, 'latin1'),
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual(BAD_REQUEST);
    });
  }
});

describe('text the database cannot hold', () => {
  it('refuses a NUL character in a parameter or a body member with 400, naming it', async () => {
    const session = await server.call('casinoGetGameSession', { query: { sessionId: 'a\u0000b' }, token });
    expect(session.status).toBe(400);
    expect(session.body.errors[0]).toEqual({ name: 'BadRequest', description: 'PLEASE_CHECK_REQUEST_DATA', fields: [{ field: 'sessionId', code: 'pattern' }] });
    const check = await server.call('userCheckUser', { query: { username: 'ab\u0000c' } });
    expect(check.status).toBe(400);
    const login = await server.call('userLogin', { body: { email: 'a\u0000@example.com', password: 'U2VjcmV0QDEyMw==' } });
    expect(login.status).toBe(400);
    expect(login.body.errors[0].fields).toContainEqual({ field: 'email', code: 'pattern' });
  });
});

describe('header parameters', () => {
  it('checks an Idempotency-Key against openapi.yaml whatever its spelling: over 200 characters is 400, not a failed insert', async () => {
    for (const name of ['Idempotency-Key', 'idempotency-key']) {
      const claim = await server.call('bonusAvailReferral', { token, body: { currencyId: 1 }, headers: { [name]: 'k'.repeat(201) } });
      expect(claim.status, name).toBe(400);
      expect(claim.body.errors[0].fields).toEqual([{ field: 'idempotency-key', code: 'maxLength' }]);
    }
    const withdrawal = await server.call('paymentWithdraw', {
      token,
      body: { amount: '0.1', address: 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9', currencyCode: 'LTC', paymentProviderId: 1 },
      headers: { 'Idempotency-Key': 'with space' },
    });
    expect(withdrawal.status).toBe(400);
    expect(withdrawal.body.errors[0].fields).toEqual([{ field: 'idempotency-key', code: 'pattern' }]);
  });
});

/** Sends raw bytes on a new connection and reads the answer until the server closes it. */
function rawRequest(text: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]);
      if (!status) reject(new Error(`no HTTP answer: ${JSON.stringify(received.slice(0, 200))}`));
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status, headers, body });
    });
  });
}

describe("requests refused before any operation runs", () => {
  it.each([
    ['headers over 16 KiB', `GET /api/v1/common/get-settings HTTP/1.1\r\nHost: casino\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
    ['a header line without a colon', 'GET / HTTP/1.1\r\nHost casino\r\n\r\n'],
    ['a URL that does not decode', 'GET /api/v1/user/%E0%A4%A HTTP/1.1\r\nHost: casino\r\nConnection: close\r\n\r\n'],
    ['a page URL that does not decode', 'GET /casino/%zz HTTP/1.1\r\nHost: casino\r\nConnection: close\r\n\r\n'],
  ])('%s: 400 in the envelope, with the security headers', async (_label, text) => {
    const answer = await rawRequest(text);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual(BAD_REQUEST);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-security-policy']).toBeTruthy();
  });

  it.each([
    ['an unknown route', 'GET', '/api/v1/no-such-operation', {}, undefined, 404, 'NOT_FOUND'],
    ['malformed JSON', 'POST', '/api/v1/user/login', { 'content-type': 'application/json' }, '{"email":', 400, 'PLEASE_CHECK_REQUEST_DATA'],
    ['a JSON body over 64 KiB', 'POST', '/api/v1/user/login', { 'content-type': 'application/json' }, `"${'x'.repeat(70_000)}"`, 400, 'PLEASE_CHECK_REQUEST_DATA'],
    ['a media type no operation takes', 'POST', '/api/v1/user/login', { 'content-type': 'text/csv' }, 'a,b', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['a Content-Length longer than the body', 'POST', '/api/v1/user/login', { 'content-type': 'application/json', 'content-length': '50' }, '{}', 400, 'PLEASE_CHECK_REQUEST_DATA'],
  ] as const)('%s answers in the envelope', async (_label, method, url, headers, payload, status, code) => {
    const response = await server.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json().errors[0].description).toBe(code);
  });

  it('answers a file over the upload limit with 413 FILE_TOO_LARGE', async () => {
    const boundary = 'limit';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.alloc(5 * 1024 * 1024 + 10, 1),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/v1/user/upload-profile-image',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().errors[0].description).toBe('FILE_TOO_LARGE');
  });
});

describe('deeply nested bodies', () => {
  // openapi.yaml: a JSON body nested deeper than 32 arrays and objects is bad request data, refused
  // as it is read; no request body of the contract comes near that depth.
  const LIMIT = 32;
  const arrays = (depth: number, inner = '') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
  const objects = (depth: number, inner = '0') => `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;
  const OPERATIONS = ['userLogin', 'userSignup', 'casinoInitGameDemo', 'userUpdate'] as const;

  const send = (operationId: (typeof OPERATIONS)[number], payload: string) =>
    server.call(operationId, { raw: { payload, contentType: 'application/json' }, ...(operationId === 'userUpdate' ? { token } : {}) });

  for (const operationId of OPERATIONS) {
    it.each([
      ['5,000 nested arrays', arrays(5_000)],
      ['5,000 nested objects', objects(5_000)],
      ['5,000 levels under a member', `{"email":${arrays(5_000)},"firstName":${objects(5_000)}}`],
      ['one level over the limit', arrays(LIMIT + 1)],
    ])(`${operationId}: %s answers 400 PLEASE_CHECK_REQUEST_DATA`, async (_label, payload) => {
      const response = await send(operationId, payload);
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.body).toEqual(BAD_REQUEST);
    });

    it(`${operationId}: a body exactly ${LIMIT} levels deep is checked against its schema as any other`, async () => {
      // The member nested 31 levels inside the body's own object: the schema names it.
      const response = await send(operationId, `{"firstName":${arrays(LIMIT - 1)}}`);
      expect(response.status).toBe(400);
      expect(response.body.errors[0].fields).toContainEqual({ field: 'firstName', code: operationId === 'userLogin' || operationId === 'casinoInitGameDemo' ? 'unknownField' : 'type' });
    });
  }

  it('counts only brackets outside strings, escaped quotes included', async () => {
    const text = JSON.stringify({ email: `\\"${'['.repeat(100)}{`, password: 'U2VjcmV0QDEyMw==' });
    const response = await send('userLogin', text);
    expect(response.status).toBe(404);
    expect(response.body.errors[0].description).toBe('USER_DOES_NOT_EXISTS');
  });

  it('takes a query parameter with brackets in its name as one flat name: nothing nests', async () => {
    const response = await server.app.inject({ method: 'GET', url: `/api/v1/user/check-user?${'username' + '[a]'.repeat(3_000)}=x` });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].description).toBe('PLEASE_CHECK_REQUEST_DATA');
  });
});
