/**
 * A bounded fuzz of every operation in openapi.yaml, read here with the yaml package: no operation is
 * named. Each operation gets requests made of junk (JSON values of any shape, the body's own members
 * with values of the wrong type, huge strings, unparsable text, multipart bodies built wrong or cut
 * short), junk query parameters and path segments, junk headers (signatures, idempotency keys,
 * languages, content types) and an Authorization that is absent, junk or a valid player's token; the
 * operations other systems call with a signed body (the game wallet, the payment webhooks) get it
 * signed with the right key too, some with a live game session, so the junk gets past the signature.
 *
 * Every answer must be below 500, in the envelope, with a status the operation declares, a body its
 * schema allows (the test helpers' own contract check) and, on failure, a code of the contract whose
 * status is the one answered. The seed is fixed and the count bounded, so a run is the same every time
 * and takes seconds; a failure prints the request that broke the rule.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { HTTP_STATUS } from '../../server/http/status.ts';
import { hmacSha256Hex } from '../../server/signatures.ts';
import { playableGame, registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';
import { checkResponse } from '../helpers/contract.ts';
import { expectLedgerBalanced, fundedPlayer } from '../helpers/money.ts';

// ── The contract ─────────────────────────────────────────────────────────────────────────────────

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Parameter = { $ref?: string; name: string; in: string; schema?: Schema };
type MediaType = { schema?: Schema; examples?: Record<string, { $ref?: string; value?: unknown }> };
type Operation = {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { $ref?: string; content?: Record<string, unknown> }>;
};
type Contract = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> & { ErrorCode: { enum: string[] } } } & Record<string, Record<string, unknown>>;
};

const contract = parse(readFileSync('openapi.yaml', 'utf8')) as Contract;
const ERROR_CODES = new Set(contract.components.schemas.ErrorCode.enum);

function resolve<T>(node: T): T {
  let current: unknown = node;
  while (current && typeof current === 'object' && typeof (current as { $ref?: unknown }).$ref === 'string') {
    const path = (current as { $ref: string }).$ref.replace(/^#\//, '').split('/');
    current = path.reduce<unknown>((parent, key) => (parent as Record<string, unknown>)[key], contract);
  }
  return current as T;
}

/** The member names of a body schema, its branches' included. */
function memberNames(schema: Schema | undefined, depth = 0): string[] {
  const s = resolve(schema ?? {});
  if (depth > 4) return [];
  const names = new Set(Object.keys(s.properties ?? {}));
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) for (const name of memberNames(branch, depth + 1)) names.add(name);
  return [...names];
}

interface Target {
  operationId: string;
  method: 'GET' | 'POST';
  path: string;
  pathParams: string[];
  queryParams: string[];
  headerParams: string[];
  json: boolean;
  multipart: boolean;
  members: string[];
  example: unknown;
  /** Answers with a stream that stays open while the session is valid (Server-Sent Events). */
  streams: boolean;
}

const targets: Target[] = Object.entries(contract.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => method === 'get' || method === 'post')
    .map(([method, operation]): Target => {
      const parameters = (operation.parameters ?? []).map((parameter) => resolve(parameter));
      const content = operation.requestBody?.content ?? {};
      const media = content['application/json'] ?? content['multipart/form-data'];
      const example = Object.values(media?.examples ?? {})[0];
      const ok = resolve(operation.responses['200'] ?? {});
      return {
        operationId: operation.operationId,
        method: method.toUpperCase() as 'GET' | 'POST',
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        headerParams: parameters.filter((p) => p.in === 'header').map((p) => p.name),
        json: 'application/json' in content,
        multipart: 'multipart/form-data' in content,
        members: memberNames(media?.schema),
        example: example ? resolve(example).value : undefined,
        streams: 'text/event-stream' in (ok.content ?? {}),
      };
    }),
);

// ── Junk ─────────────────────────────────────────────────────────────────────────────────────────

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 40 });
const huge = fc.integer({ min: 1_000, max: 70_000 }).map((length) => 'x'.repeat(length));
const tricky = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  '0x10',
  'NaN',
  'null',
  '[]',
  '{}',
  '__proto__',
  '../../etc/passwd',
  '\u0000',
  '%00',
  '9'.repeat(40),
  '99999999999999999999999.99999999',
  '0.000000001',
  '-0.5',
  "'; DROP TABLE users; --",
  '\u202e\ud83c\udfb0',
  '\ud800',
  '2026-02-30T25:61:00Z',
);
const junkText = fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 30 }) }, { weight: 3, arbitrary: tricky }, { weight: 1, arbitrary: huge });
const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: junkText },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, true, false, null, [], {}) },
);

/** Values of the right type at the edges, which pass the schema more often than junk and reach the handler. */
const edgeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('0', '1', '0.00000001', '10000', '10000.00000001', '9999999999999999999999', '9999999999999999999999.99999999', 'LTC', 'BTC', 'ltc', 'a', 'A'.repeat(255)),
  fc.constantFrom(0, 1, -1, 2 ** 31, 2 ** 31 - 1, 99, 9999, 10000),
  fc.constantFrom(true, false, [], ['a'], [1, 2]),
  fc.string({ maxLength: 12 }),
);

/**
 * A JSON body: the contract's example as it is, the example with one member changed (to junk, or to a
 * value at the edges of its type), the operation's own members with junk, or any JSON value.
 */
function jsonBody(target: Target): fc.Arbitrary<unknown> {
  const members = target.members.length > 0 ? target.members : ['value'];
  const own = fc.dictionary(fc.oneof(fc.constantFrom(...members), fc.string({ maxLength: 12 })), junkValue, { maxKeys: 6 });
  const example = target.example;
  if (!example || typeof example !== 'object' || Array.isArray(example)) return fc.oneof(fc.jsonValue({ maxDepth: 3 }), own);
  const names = [...new Set([...Object.keys(example), ...members])];
  const changed = (value: fc.Arbitrary<unknown>) =>
    fc.tuple(fc.constantFrom(...names), value).map(([name, replacement]) => ({ ...(example as object), [name]: replacement }));
  const dropped = fc.constantFrom(...names).map((name) => Object.fromEntries(Object.entries(example).filter(([key]) => key !== name)));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(example) },
    { weight: 3, arbitrary: changed(edgeValue) },
    { weight: 2, arbitrary: changed(junkValue) },
    { weight: 1, arbitrary: dropped },
    { weight: 1, arbitrary: own },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

interface Body {
  payload: string | Buffer;
  contentType: string | undefined;
}

const BOUNDARY = 'fuzz-boundary';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

/** A multipart body: parts named after the form's fields or not, files of junk bytes, cut anywhere or malformed. */
function multipartBody(target: Target): fc.Arbitrary<Body> {
  const part = fc.oneof(
    fc.tuple(fc.oneof(fc.constantFrom(...target.members, 'file'), printable), junkText).map(
      ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '')}"\r\n\r\n${value}\r\n`,
    ),
    fc.tuple(fc.constantFrom(...target.members, 'file'), printable, fc.uint8Array({ maxLength: 300 }), fc.boolean(), fc.constantFrom('image/png', 'application/pdf', 'text/html', '')).map(
      ([name, filename, bytes, png, type]) =>
        Buffer.concat([
          Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename.replace(/["\r\n]/g, '')}"\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`),
          png ? PNG : Buffer.alloc(0),
          Buffer.from(bytes),
          Buffer.from('\r\n'),
        ]).toString('latin1'),
    ),
  );
  const wellFormed = fc.array(part, { maxLength: 5 }).map((parts) => Buffer.from(`${parts.join('')}--${BOUNDARY}--\r\n`, 'latin1'));
  const payload = fc.oneof(
    wellFormed,
    fc.tuple(wellFormed, fc.nat()).map(([bytes, cut]) => bytes.subarray(0, cut % (bytes.length + 1))),
    fc.constantFrom(Buffer.from(`--${BOUNDARY}\r\n`), Buffer.from(`--${BOUNDARY}`), Buffer.from('--\r\n'), Buffer.alloc(0)),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
  );
  const contentType = fc.constantFrom(
    `multipart/form-data; boundary=${BOUNDARY}`,
    `multipart/form-data; boundary=${BOUNDARY}`,
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary="x"',
    'multipart/mixed; boundary=fuzz-boundary',
  );
  return fc.record({ payload, contentType });
}

function body(target: Target): fc.Arbitrary<Body | undefined> {
  const json = jsonBody(target).map((value): Body => ({ payload: JSON.stringify(value) ?? 'null', contentType: 'application/json' }));
  const text = junkText.map((value): Body => ({ payload: value, contentType: 'application/json' }));
  const other = fc.tuple(junkText, fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'image/png', 'application/json; charset=utf-16', 'application/jsonx', ';;', 'a/b/c')).map(
    ([payload, contentType]): Body => ({ payload, contentType }),
  );
  const choices: fc.WeightedArbitrary<Body | undefined>[] = [
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: text },
    { weight: 1, arbitrary: other },
  ];
  if (target.json) choices.push({ weight: 6, arbitrary: json });
  else if (target.method === 'POST') choices.push({ weight: 1, arbitrary: json });
  if (target.multipart) choices.push({ weight: 6, arbitrary: multipartBody(target) });
  return fc.oneof(...choices);
}

/** Percent-encodes text's UTF-8 bytes (a lone surrogate becomes U+FFFD, where encodeURIComponent throws). */
function encode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`)).join('');
}

/** Path values that name something: a live house game session, a game, a provider (filled in at the start). */
const known: string[] = ['1', 'simulator', 'coinpayments'];

const segment = fc.oneof(
  { weight: 3, arbitrary: junkText.map((value) => encode(value)) },
  { weight: 1, arbitrary: fc.constantFrom('1', '0', '-1', '%', '%zz', '..', 'a%2Fb', '99999999999999999999', 'eyJhbGciOiJub25lIn0') },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 1_000 }).map((index) => known[index % known.length]!) },
);

function query(target: Target): fc.Arbitrary<string> {
  const name = fc.oneof(fc.constantFrom(...target.queryParams, '__proto__', 'constructor', 'page', 'limit'), fc.string({ maxLength: 8 }));
  const value = fc.oneof(junkText, edgeValue.map(String), fc.integer({ min: 0, max: 1_000 }).map((index) => known[index % known.length]!));
  return fc
    .array(fc.tuple(name, value), { maxLength: 6 })
    .map((pairs) => pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&'));
}

/** Authorization: none, the valid player's, or junk. */
type Auth = { kind: 'none' } | { kind: 'player' } | { kind: 'junk'; value: string };
const auth: fc.Arbitrary<Auth> = fc.oneof(
  fc.constant<Auth>({ kind: 'none' }),
  fc.constant<Auth>({ kind: 'player' }),
  fc.constant<Auth>({ kind: 'player' }),
  fc.oneof(printable, printable.map((value) => `Bearer ${value}`), fc.constantFrom('Bearer', 'Bearer ', 'Basic YTpi', 'Bearer a.b.c', 'Bearer eyJhbGciOiJub25lIn0.e30.')).map(
    (value): Auth => ({ kind: 'junk', value }),
  ),
);

function headers(target: Target): fc.Arbitrary<Record<string, string>> {
  const names = [...target.headerParams, 'idempotency-key', 'x-game-signature', 'accept-language', 'x-forwarded-for', 'origin', 'x-webhook-signature'];
  return fc.dictionary(fc.constantFrom(...names), fc.oneof(printable, fc.integer({ min: 100, max: 9_000 }).map((n) => 'h'.repeat(n))), { maxKeys: 4 });
}

/**
 * For the operations other systems call with a signed body (the game wallet, the payment webhooks): the
 * body as generated, or signed with the right key, or signed after its sessionId was made a live one,
 * so the junk reaches the handlers behind the signature check.
 */
type Signing = 'none' | 'signed' | 'live session';

interface Request {
  segments: string[];
  query: string;
  auth: Auth;
  headers: Record<string, string>;
  body: Body | undefined;
  signing: Signing;
}

function request(target: Target): fc.Arbitrary<Request> {
  return fc.record({
    segments: fc.array(segment, { minLength: target.pathParams.length, maxLength: target.pathParams.length }),
    query: query(target),
    // A stream answers as long as the session lives: only refused ones end.
    auth: target.streams ? auth.filter((a) => a.kind !== 'player') : auth,
    headers: headers(target),
    body: body(target),
    signing: fc.constantFrom<Signing>('none', 'signed', 'live session'),
  });
}

// ── The run ──────────────────────────────────────────────────────────────────────────────────────

/** Runs per operation: about 90 operations make some 1,000 requests. FUZZ_RUNS and FUZZ_SEED make a longer hunt. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_125);

let server: TestServer;
let token = '';
const WEBHOOK_SECRET = 'fuzz-webhook-secret';
/** A real-money game session of a funded player, and its provider's wallet key. */
const live = { session: '', gameSecret: '' };

/** A signed-in player: made again when a fuzzed request ended the session (logout, self-exclusion, a new password). */
async function ensurePlayer(): Promise<void> {
  const check = token ? await server.app.inject({ method: 'GET', url: '/api/v1/user/get-user', headers: { authorization: `Bearer ${token}` } }) : null;
  if (check?.statusCode === 200) return;
  token = (await registeredPlayer(server)).token;
}

beforeAll(async () => {
  // No rate limits, so the players it makes are not refused; the house games reach the wallet in-process.
  server = await startTestServer({ RATE_LIMIT: 'off', HOUSE_WALLET_HOP: 'in-process', PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET });
  // Listening: the payment simulator calls the webhook where the server listens.
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const game = await playableGame(server);
  const funded = await fundedPlayer(server, '5');
  const opened = await server.call('casinoInitGame', { token: funded.token, body: { gameId: game.id, currencyCode: 'LTC' } });
  if (opened.status !== 200) throw new Error(`no game session: ${JSON.stringify(opened.body)}`);
  live.session = opened.body.data.gameSession.sessionId as string;
  live.gameSecret = game.secret;
  const [dice] = await server.db.query<{ id: number }>("SELECT id::int AS id FROM games WHERE identifier = 'house-dice'");
  if (dice) {
    known.push(String(dice.id));
    const demo = await server.call('casinoInitGameDemo', { body: { gameId: dice.id } });
    if (demo.status === 200) known.push(demo.body.data.gameSession.sessionId as string);
  }
});
afterAll(async () => server?.close());

function describeRequest(target: Target, url: string, req: Request): string {
  const shown = (text: string | Buffer) => (text.length > 300 ? `${text.slice(0, 300).toString()}… (${text.length} bytes)` : text.toString());
  return JSON.stringify({
    operation: target.operationId,
    url: shown(url),
    auth: req.auth.kind,
    headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, shown(v)])),
    contentType: req.body?.contentType,
    signing: req.signing,
    body: req.body ? shown(req.body.payload) : undefined,
  });
}

async function send(target: Target, req: Request): Promise<void> {
  let index = 0;
  const path = target.path.replace(/\{\w+\}/g, () => req.segments[index++] ?? 'x');
  const url = `/api/v1${path}${req.query ? `?${req.query}` : ''}`;
  const headers: Record<string, string> = { ...req.headers };
  if (req.auth.kind === 'player') headers.authorization = `Bearer ${token}`;
  if (req.auth.kind === 'junk') headers.authorization = req.auth.value;
  if (req.body?.contentType !== undefined) headers['content-type'] = req.body.contentType;
  let payload = req.body?.payload;
  const signatureHeader = ['x-game-signature', 'x-webhook-signature'].find((name) => target.headerParams.includes(name));
  if (signatureHeader && req.signing !== 'none' && typeof payload === 'string') {
    if (req.signing === 'live session') {
      try {
        const parsed: unknown = JSON.parse(payload);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && 'sessionId' in parsed) payload = JSON.stringify({ ...parsed, sessionId: live.session });
      } catch {
        // Not JSON: signed as it is.
      }
    }
    headers[signatureHeader] = hmacSha256Hex(signatureHeader === 'x-game-signature' ? live.gameSecret : WEBHOOK_SECRET, payload);
  }
  const response = await server.app.inject({
    method: target.method,
    url,
    headers,
    ...(payload !== undefined ? { payload } : {}),
  });
  const what = describeRequest(target, url, { ...req, headers, body: req.body && payload !== undefined ? { ...req.body, payload } : req.body });
  const status = response.statusCode;
  expect(status, `${status} ${response.body.slice(0, 300)}\n${what}`).toBeLessThan(500);
  const contentType = String(response.headers['content-type'] ?? '');
  const json = contentType.startsWith('application/json');
  // Anything but a 200 is the envelope, whatever the route; a bad URL answers before any operation is chosen.
  if (status !== 200) expect(json, `${status} ${contentType}\n${what}`).toBe(true);
  const parsed: unknown = json ? JSON.parse(response.body) : response.body;
  if (status >= 400) {
    const code = (parsed as { errors?: { description?: string }[] }).errors?.[0]?.description ?? '';
    expect(ERROR_CODES.has(code), `${status} ${code}\n${what}`).toBe(true);
    expect(HTTP_STATUS[code as keyof typeof HTTP_STATUS], `${status} ${code}\n${what}`).toBe(status);
  }
  const violation = checkResponse(target.operationId, status, contentType, parsed);
  expect(violation, `${violation}\n${what}`).toBeNull();
}

describe('a bounded fuzz of every operation', () => {
  it('reads every operation of openapi.yaml', () => {
    expect(targets.length).toBeGreaterThan(80);
    expect(targets.filter((t) => t.multipart).length).toBeGreaterThanOrEqual(3);
  });

  it.each(targets.map((target) => [target.operationId, target] as const))('%s answers junk below 500, in the envelope and the contract', async (_id, target) => {
    await ensurePlayer();
    await fc.assert(
      fc.asyncProperty(request(target), async (req) => {
        await send(target, req);
      }),
      // One seed per operation, so the operations do not all get the same choices.
      { seed: SEED + targets.indexOf(target), numRuns: RUNS, endOnFailure: true },
    );
  });

  it('leaves the ledger balanced and every cached balance equal to its entries', async () => {
    await expectLedgerBalanced(server);
  });
});
