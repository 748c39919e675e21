/**
 * Bad input for every operation of openapi.yaml, generated from the file itself: no operation is named
 * here. For each operation, from its security, parameters and request body:
 *
 * - authentication: an operation that requires a token answers 401 ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED
 *   without one, with a garbage one, and before looking at the request (an invalid body is still 401);
 * - JSON bodies: `{}`, each property with each wrong JSON type, one unknown member, each bounded string
 *   one character too long, malformed JSON, other content types (415), empty and oversized bodies;
 * - parameters: letters and non-decimal spellings for integers, out-of-range values, over-long strings,
 *   unknown enum members, malformed formats, repeated scalars, missing required ones;
 * - multipart bodies: JSON or text instead (415), no body, no parts, each required part missing, an
 *   unknown part, over-long text parts;
 * - handlers: every operation has one (the app refuses to start otherwise), and no handler serves an
 *   operation the contract does not have.
 *
 * Every response also passes the contract check of the test helpers (declared status, schema).
 * Requests with a valid token are used for the validation cases, so what is tested is validation.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../server/http/handlers.ts';
import {
  authMode,
  listOperations,
  loadOpenApi,
  operationParameters,
  resolveRef,
  type OpenApiParameter,
  type OperationInfo,
} from '../../server/http/openapi.ts';
import { registeredPlayer, startTestServer, type CallOptions, type CallResult, type Part, type TestServer } from '../helpers/api.ts';
import { checkResponse, recordCoverage } from '../helpers/contract.ts';

// ── The contract, read once ──────────────────────────────────────────────────────────────────────

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  examples?: unknown[];
  example?: unknown;
  additionalProperties?: boolean | Schema;
};

const spec = loadOpenApi();
const operations = listOperations(spec);
const JSON_TYPE = 'application/json';
const MULTIPART_TYPE = 'multipart/form-data';

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ components: spec.components } as object, 'openapi.yaml');
const validators = new Map<Schema, ValidateFunction>();

/** Validates a value against a schema of openapi.yaml, as the contract says (no coercion). */
function conforms(schema: Schema, value: unknown): boolean {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.yaml#/components/')) as object);
    validators.set(schema, validate);
  }
  return validate(value);
}

const deref = (schema: Schema | undefined): Schema => resolveRef<Schema>(schema ?? {}, spec);

function bodySchema(op: OperationInfo, mediaType: string): Schema | undefined {
  const schema = op.operation.requestBody?.content[mediaType]?.schema as Schema | undefined;
  return schema ? deref(schema) : undefined;
}

function bodyExample(op: OperationInfo, mediaType: string): unknown {
  const examples = op.operation.requestBody?.content[mediaType]?.examples ?? {};
  const first = Object.values(examples)[0];
  if (first === undefined) throw new Error(`${op.operationId}: add an example of its ${mediaType} body to openapi.yaml`);
  return structuredClone(resolveRef<{ value: unknown }>(first, spec).value);
}

const declares = (op: OperationInfo, status: number) => String(status) in op.operation.responses;

type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as Kind;
}

/** The JSON types a schema accepts, or null when it does not say. */
function acceptedKinds(schema: Schema | undefined): Set<Kind> | null {
  const s = deref(schema);
  const kinds = new Set<Kind>();
  if (s.type !== undefined) for (const type of ([] as string[]).concat(s.type)) kinds.add(type as Kind);
  if (s.const !== undefined) kinds.add(kindOf(s.const));
  for (const value of s.enum ?? []) kinds.add(kindOf(value));
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
    const inner = acceptedKinds(branch);
    if (!inner) return null;
    for (const kind of inner) kinds.add(kind);
  }
  if (kinds.has('number')) kinds.add('integer');
  return kinds.size > 0 ? kinds : null;
}

/** The properties of an object schema, those of its oneOf/anyOf branches included. */
function propertiesOf(schema: Schema): [string, Schema][] {
  const s = deref(schema);
  const all = new Map<string, Schema>(Object.entries(s.properties ?? {}));
  for (const branch of [...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.allOf ?? [])]) {
    for (const [name, property] of propertiesOf(branch)) if (!all.has(name)) all.set(name, property);
  }
  return [...all];
}

/**
 * Whether an object schema refuses unknown members (itself, or every one of its oneOf/anyOf branches).
 * A provider's webhook body is open: it may grow members the casino does not read.
 */
function isClosed(schema: Schema): boolean {
  const s = deref(schema);
  const branches = [...(s.oneOf ?? []), ...(s.anyOf ?? [])];
  return s.additionalProperties === false || (branches.length > 0 && branches.every(isClosed));
}

function requiredOf(schema: Schema): string[] {
  const s = deref(schema);
  const names = new Set(s.required ?? []);
  for (const branch of [...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.allOf ?? [])]) for (const name of requiredOf(branch)) names.add(name);
  return [...names];
}

/** The string schema inside a schema (itself, or its string branch of anyOf/oneOf), for length bounds. */
function stringSchema(schema: Schema): Schema | undefined {
  const s = deref(schema);
  if (([] as string[]).concat(s.type ?? []).includes('string')) return s;
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
    const inner = stringSchema(branch);
    if (inner) return inner;
  }
  return undefined;
}

/** A valid value for a parameter, from the contract (examples, enum, bounds), checked against it. */
function sampleValue(schema: Schema, label: string): unknown {
  const s = deref(schema);
  const candidates: unknown[] = [];
  if (s.examples?.length) candidates.push(s.examples[0]);
  if (s.example !== undefined) candidates.push(s.example);
  if (s.default !== undefined) candidates.push(s.default);
  if (s.const !== undefined) candidates.push(s.const);
  if (s.enum?.length) candidates.push(s.enum[0]);
  const types = ([] as string[]).concat(s.type ?? []);
  if (types.includes('integer') || types.includes('number')) candidates.push(s.minimum ?? 1);
  if (types.includes('boolean')) candidates.push(true);
  if (types.includes('string')) {
    if (s.format === 'email') candidates.push('player@example.com');
    if (s.format === 'date-time') candidates.push(new Date().toISOString());
    if (s.format === 'date') candidates.push('2000-01-01');
    for (const length of [s.minLength ?? 1, 3, 16, 32]) for (const letter of ['a', 'A', '1']) candidates.push(letter.repeat(Math.max(1, length)));
  }
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) candidates.push(sampleValue(branch, label));
  const valid = candidates.find((value) => conforms(s, value));
  if (valid === undefined) throw new Error(`${label}: cannot make a valid value; add an example to openapi.yaml`);
  return valid;
}

/** Sets a dotted path (`a.0.b`) in a JSON value, creating containers as needed. */
function setAt(root: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  const container = (root ?? (/^\d+$/.test(head) ? [] : {})) as Record<string, unknown>;
  const copy = (Array.isArray(container) ? [...container] : { ...container }) as Record<string, unknown>;
  copy[head] = setAt(copy[head], rest, value);
  return copy;
}

const WRONG_TYPES: [Kind, unknown][] = [
  ['number', 12345],
  ['string', 'abc'],
  ['boolean', true],
  ['array', []],
  ['object', {}],
  ['null', null],
];

interface Mutation {
  label: string;
  field: string;
  body: unknown;
}

/** Schema-invalid variants of a valid body, each breaking one member (nested objects and array items too). */
function bodyMutations(schema: Schema, base: unknown, prefix: string[] = []): Mutation[] {
  const mutations: Mutation[] = [];
  for (const [name, property] of propertiesOf(schema)) {
    const path = [...prefix, name];
    const field = path.join('.');
    const accepted = acceptedKinds(property);
    if (accepted) {
      for (const [kind, value] of WRONG_TYPES) {
        if (accepted.has(kind) || (kind === 'number' && accepted.has('integer'))) continue;
        mutations.push({ label: `${field} as ${kind}`, field, body: setAt(base, path, value) });
      }
    }
    const text = stringSchema(property);
    if (text?.maxLength !== undefined) {
      mutations.push({ label: `${field} of ${text.maxLength + 1} characters`, field, body: setAt(base, path, 'a'.repeat(text.maxLength + 1)) });
    }
    const resolved = deref(property);
    if (resolved.properties) mutations.push(...bodyMutations(resolved, base, path));
    if (resolved.items) {
      const item = deref(resolved.items);
      const itemPath = [...path, '0'];
      const itemAccepted = acceptedKinds(item);
      for (const [kind, value] of WRONG_TYPES) {
        if (!itemAccepted || itemAccepted.has(kind) || (kind === 'number' && itemAccepted.has('integer'))) continue;
        mutations.push({ label: `${field}[0] as ${kind}`, field: itemPath.join('.'), body: setAt(base, itemPath, value) });
      }
    }
  }
  return mutations;
}

interface ParamMutation {
  label: string;
  param: OpenApiParameter;
  value: string | string[];
}

/** Invalid values of one parameter, as they travel in a URL. */
function parameterMutations(param: OpenApiParameter, label: string): ParamMutation[] {
  const s = deref(param.schema as Schema);
  const types = ([] as string[]).concat(s.type ?? []);
  const values: [string, string | string[]][] = [];
  if (types.includes('integer') || types.includes('number')) {
    values.push(['letters', 'abc'], ['hexadecimal', '0x10'], ['exponent', '1e1'], ['leading space', ' 5'], ['empty', '']);
    if (types.includes('integer') && !types.includes('number')) values.push(['fraction', '1.5']);
    if (s.minimum !== undefined) values.push(['below minimum', String(s.minimum - 1)]);
    if (s.maximum !== undefined) values.push(['above maximum', String(s.maximum + 1)]);
  } else if (types.includes('string')) {
    const stringValues: [string, string][] = [];
    if (s.maxLength !== undefined) stringValues.push([`${s.maxLength + 1} characters`, 'a'.repeat(s.maxLength + 1)]);
    if (s.minLength !== undefined && s.minLength > 1) stringValues.push([`${s.minLength - 1} characters`, 'a'.repeat(s.minLength - 1)]);
    if (s.enum) stringValues.push(['unknown enum member', 'notAMember']);
    if (s.format) stringValues.push([`not a ${s.format}`, 'not-a-value!']);
    if (s.pattern) stringValues.push(['against the pattern', '!!']);
    if (param.in === 'path') stringValues.push(['empty', '']);
    for (const [name, value] of stringValues) {
      // Only values the contract itself refuses: the generator must not invent rules.
      if (!conforms(s, value)) values.push([name, value]);
    }
  }
  if (param.in === 'query') {
    const valid = String(sampleValue(s, label));
    values.push(['repeated', [valid, valid]]);
  }
  return values.map(([name, value]) => ({ label: `${param.name} ${name}`, param, value }));
}

function validParameters(op: OperationInfo): { query: Record<string, string>; params: Record<string, string> } {
  const query: Record<string, string> = {};
  const params: Record<string, string> = {};
  for (const param of operationParameters(op.operation, spec)) {
    if (param.in === 'path') params[param.name] = String(sampleValue(param.schema as Schema, `${op.operationId} ${param.name}`));
    else if (param.in === 'query' && param.required) query[param.name] = String(sampleValue(param.schema as Schema, `${op.operationId} ${param.name}`));
  }
  return { query, params };
}

const FILE: Part['value'] = { filename: 'scan.png', content: Buffer.from('not really an image'), contentType: 'image/png' };

/** Multipart parts from the operation's example: binary members become small files. */
function exampleParts(op: OperationInfo, omit: string[] = []): Part[] {
  const schema = bodySchema(op, MULTIPART_TYPE)!;
  const example = bodyExample(op, MULTIPART_TYPE) as Record<string, unknown>;
  const parts: Part[] = [];
  for (const [name, value] of Object.entries(example)) {
    if (omit.includes(name)) continue;
    const property = deref(schema.properties?.[name]);
    const binary = (deref(property.items).format ?? property.format) === 'binary';
    for (const item of Array.isArray(value) ? value : [value]) parts.push({ name, value: binary ? FILE : String(item) });
  }
  return parts;
}

// ── What the contract says about the operations ─────────────────────────────────────────────────

const needsToken = (op: OperationInfo) => authMode(op.operation) === 'required';
const jsonOperations = operations.filter((op) => bodySchema(op, JSON_TYPE));
const multipartOperations = operations.filter((op) => bodySchema(op, MULTIPART_TYPE));
const bodilessPosts = operations.filter((op) => op.method !== 'get' && !op.operation.requestBody);

function validInput(op: OperationInfo): CallOptions {
  const { query, params } = validParameters(op);
  const options: CallOptions = { query, params };
  if (bodySchema(op, JSON_TYPE)) options.body = bodyExample(op, JSON_TYPE);
  if (bodySchema(op, MULTIPART_TYPE)) options.parts = exampleParts(op);
  return options;
}

/** The house games' operations and the house game each needs a session of (tests/server/house-games.test.ts plays them). */
const HOUSE_GAME_OF: Record<string, string> = {
  houseGetTable: 'house-dice',
  housePlayDice: 'house-dice',
  housePlayLimbo: 'house-limbo',
  housePlayPlinko: 'house-plinko',
  housePlaySlot: 'house-classic-slot',
  houseMinesStart: 'house-mines',
  houseMinesReveal: 'house-mines',
  houseMinesCashOut: 'house-mines',
  houseSetNextSeed: 'house-dice',
  houseRotateSeeds: 'house-dice',
};

/** A demo session of a house game, with a Mines round open (and a safe tile revealed) when the operation needs one. */
async function houseInput(op: OperationInfo, valid: CallOptions): Promise<CallOptions> {
  const [game] = await server.db.query<{ id: number }>('SELECT id::int AS id FROM games WHERE identifier = $1', [HOUSE_GAME_OF[op.operationId]]);
  const sessionId = (await server.call('casinoInitGameDemo', { body: { gameId: game!.id } })).body.data.gameSession.sessionId as string;
  const input = { ...valid, params: { ...valid.params, sessionId } };
  if (op.operationId !== 'houseMinesReveal' && op.operationId !== 'houseMinesCashOut') return input;
  const round = (await server.call('houseMinesStart', { params: { sessionId }, body: { amount: '1', mineCount: 1 } })).body.data.houseRound as { roundId: string };
  const [row] = await server.db.query<{ mine: number }>("SELECT (outcome -> 'mines' ->> 0)::int AS mine FROM house_rounds WHERE round_id = $1", [round.roundId]);
  const safe = row!.mine === 0 ? 1 : 0;
  if (op.operationId === 'houseMinesReveal') return { ...input, body: { tile: safe } };
  await server.call('houseMinesReveal', { params: { sessionId }, body: { tile: safe } });
  return input;
}

/** A valid input naming something that exists: a game session's page needs an open session. */
async function existingInput(op: OperationInfo): Promise<CallOptions> {
  const valid = validInput(op);
  if (op.operationId in HOUSE_GAME_OF) return houseInput(op, valid);
  if (op.operationId !== 'casinoGetGameSession') return valid;
  const games = (await server.call('casinoGetAllGames', { query: { limit: 20 } })).body.data.casinoGames.rows as { id: number; hasDemo: boolean }[];
  const game = games.find((candidate) => candidate.hasDemo);
  if (!game) throw new Error('no game with a demo in the catalogue');
  const session = (await server.call('casinoInitGameDemo', { body: { gameId: game.id } })).body.data.gameSession as { sessionId: string };
  return { ...valid, query: { ...valid.query, sessionId: session.sessionId } };
}

// ── Running cases ────────────────────────────────────────────────────────────────────────────────

let server: TestServer;
let token: string;
let login: { email: string; password: string };
const calls = new Map<string, number>();

beforeAll(async () => {
  server = await startTestServer();
  const player = await registeredPlayer(server);
  token = player.token;
  login = { email: player.payload.email, password: player.payload.password };
});

afterAll(async () => {
  const total = [...calls.values()].reduce((sum, n) => sum + n, 0);
  console.info(`bad-input: ${total} requests over ${operations.length} operations (${[...calls].map(([k, n]) => `${k} ${n}`).join(', ')})`);
  await server?.close();
});

/** Like server.call, for what it cannot send: repeated query parameters. Same contract check and coverage record. */
async function callWithQuery(operationId: string, op: OperationInfo, query: Record<string, string | string[]>, options: CallOptions) {
  const url =
    '/api/v1' + op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(options.params?.[name] ?? '')));
  const response = await server.app.inject({
    method: op.method.toUpperCase() as 'GET' | 'POST',
    url,
    query,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
  });
  const contentType = String(response.headers['content-type'] ?? '');
  const body: unknown = contentType.startsWith(JSON_TYPE) ? response.json() : response.body;
  const violation = checkResponse(operationId, response.statusCode, contentType, body);
  if (violation) throw new Error(`${operationId} answered ${response.statusCode} against openapi.yaml: ${violation}\n${response.body.slice(0, 500)}`);
  const code = (body as { errors?: { description?: string }[] }).errors?.[0]?.description ?? null;
  recordCoverage(operationId, response.statusCode, code);
  return { status: response.statusCode, body } as CallResult;
}

interface Case {
  label: string;
  send: () => Promise<CallResult>;
  /** Returns what is wrong with the answer, or null. */
  check: (result: CallResult) => string | null;
}

type FieldIssue = { field: string; code: string };

function describeResult(result: CallResult): string {
  return `${result.status} ${JSON.stringify(result.body).slice(0, 300)}`;
}

function answers(status: number, code: string) {
  return (result: CallResult) =>
    result.status === status && result.body?.errors?.[0]?.description === code ? null : `expected ${status} ${code}, got ${describeResult(result)}`;
}

const answersOk = (result: CallResult) => (result.status === 200 ? null : `expected 200, got ${describeResult(result)}`);

/** 400 PLEASE_CHECK_REQUEST_DATA, naming `field` among its `fields` when given. */
function badRequest(field?: string) {
  return (result: CallResult) => {
    const wrong = answers(400, 'PLEASE_CHECK_REQUEST_DATA')(result);
    if (wrong) return wrong;
    if (field === undefined) return null;
    const fields = (result.body.errors[0].fields ?? []) as FieldIssue[];
    return fields.some((issue) => issue.field === field) ? null : `expected fields to name '${field}', got ${JSON.stringify(fields)}`;
  };
}

/** Runs cases in moderate parallel batches and returns every problem, so one failure shows them all. */
async function run(category: string, operationId: string, cases: Case[]): Promise<string[]> {
  calls.set(category, (calls.get(category) ?? 0) + cases.length);
  const problems: string[] = [];
  for (let start = 0; start < cases.length; start += 25) {
    const batch = cases.slice(start, start + 25);
    const outcomes = await Promise.all(
      batch.map(async (c) => {
        try {
          return c.check(await c.send());
        } catch (error) {
          return `threw ${(error as Error).message}`;
        }
      }),
    );
    outcomes.forEach((problem, index) => {
      if (problem) problems.push(`${operationId}: ${batch[index]!.label}: ${problem}`);
    });
  }
  return problems;
}

const call = (op: OperationInfo, options: CallOptions) => () => server.call(op.operationId, options);
const tokenFor = (op: OperationInfo) => (needsToken(op) ? token : undefined);

// ── The contract itself ──────────────────────────────────────────────────────────────────────────

describe('the contract the generated cases rely on', () => {
  it('has request examples that match their schemas', () => {
    const wrong = [...jsonOperations, ...multipartOperations]
      .filter((op) => {
        const mediaType = bodySchema(op, JSON_TYPE) ? JSON_TYPE : MULTIPART_TYPE;
        const example = bodyExample(op, mediaType);
        // Multipart examples stand for files with text; their shape is what counts.
        return mediaType === JSON_TYPE && !conforms(bodySchema(op, JSON_TYPE)!, example);
      })
      .map((op) => op.operationId);
    expect(wrong).toEqual([]);
  });

  it('declares on every operation the statuses the shared plumbing can answer', () => {
    const missing: string[] = [];
    for (const op of operations) {
      const expected = [400, 500];
      if (needsToken(op)) expected.push(401, 403); // session checks: no token, expired, inactive, self-excluded
      if (op.method !== 'get') expected.push(415); // content types without a parser, or not declared
      if (multipartOperations.includes(op)) expected.push(413); // file size limits
      for (const status of expected) if (!declares(op, status)) missing.push(`${op.operationId} ${status}`);
    }
    expect(missing).toEqual([]);
  });

  it('has a handler for every operation and none for an operation the contract lacks', () => {
    const { json, raw } = createHandlers(server.ctx);
    const handled = new Set([...Object.keys(json), ...Object.keys(raw)]);
    expect(operations.filter((op) => !handled.has(op.operationId)).map((op) => op.operationId)).toEqual([]);
    const known = new Set(operations.map((op) => op.operationId));
    expect([...handled].filter((id) => !known.has(id))).toEqual([]);
  });
});

// ── Per operation ────────────────────────────────────────────────────────────────────────────────

/** Operations with something to get wrong: a session to require, parameters or a body. */
const withInput = operations.filter(
  (op) => authMode(op.operation) !== 'none' || operationParameters(op.operation, spec).length > 0 || op.method !== 'get',
);

describe('every operation without input', () => {
  it('answers 200 whatever it is sent: unknown query parameters and GET bodies are ignored', async () => {
    const rest = operations.filter((op) => !withInput.includes(op));
    expect(rest.length).toBeGreaterThan(0);
    const cases = rest.flatMap((op) => [
      { label: 'unknown parameter', send: call(op, { query: { unexpected: 'x' } }), check: answersOk },
      // GET requests have no body: Fastify does not parse one, whatever its content type (so no 415 on GET).
      { label: 'text/plain body on GET', send: call(op, { raw: { payload: 'hello', contentType: 'text/plain' } }), check: answersOk },
    ]);
    expect(await run('no-input', 'operations without input', cases)).toEqual([]);
  });
});

describe.each(withInput.map((op) => [op.operationId, op] as const))('%s', (operationId, op) => {
  const json = bodySchema(op, JSON_TYPE);
  const multipartSchema = bodySchema(op, MULTIPART_TYPE);
  const parameters = operationParameters(op.operation, spec);

  if (needsToken(op)) {
    it('answers 401 without a valid session, before looking at the request', async () => {
      const valid = validInput(op);
      // Change the signature's first character: it carries six whole bits, where the last character may
      // carry only padding bits and leave the signature as it was.
      const forged = () => {
        const [header, payload, signature = ''] = token.split('.');
        return `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
      };
      const unauthorized = answers(401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
      const cases: Case[] = [
        { label: 'no token', send: call(op, valid), check: unauthorized },
        { label: 'garbage token', send: call(op, { ...valid, token: 'garbage' }), check: unauthorized },
        { label: 'token with a broken signature', send: call(op, { ...valid, token: forged() }), check: unauthorized },
        {
          label: 'Basic credentials',
          send: call(op, { ...valid, headers: { authorization: 'Basic dXNlcjpwYXNz' } }),
          check: unauthorized,
        },
        { label: 'Bearer without a token', send: call(op, { ...valid, headers: { authorization: 'Bearer ' } }), check: unauthorized },
      ];
      if (json || multipartSchema) {
        cases.push(
          { label: 'no token, schema-invalid body', send: call(op, { ...valid, parts: undefined, body: { unexpectedField: 1 } }), check: unauthorized },
          { label: 'no token, text/plain body', send: call(op, { ...valid, parts: undefined, raw: { payload: 'hello', contentType: 'text/plain' } }), check: unauthorized },
        );
      }
      const numeric = parameters.find((p) => p.in === 'query' && acceptedKinds(p.schema as Schema)?.has('integer'));
      if (numeric) {
        cases.push({ label: `no token, ${numeric.name}=abc`, send: call(op, { ...valid, query: { ...valid.query, [numeric.name]: 'abc' } }), check: unauthorized });
      }
      expect(await run('auth', operationId, cases)).toEqual([]);
    });
  } else if (authMode(op.operation) === 'optional') {
    it('treats a garbage token as no token', async () => {
      const anonymous = await server.call(operationId, await existingInput(op));
      // An input of its own: a Mines tile revealed once is not revealed again.
      const valid = await existingInput(op);
      const cases: Case[] = [
        {
          label: 'garbage token',
          send: call(op, { ...valid, token: 'garbage' }),
          check: (result) => (result.status === anonymous.status ? null : `expected ${anonymous.status} as without a token, got ${describeResult(result)}`),
        },
      ];
      expect(anonymous.status).toBe(200);
      expect(await run('auth', operationId, cases)).toEqual([]);
    });
  }

  if (json) {
    it('refuses schema-invalid JSON bodies with 400, naming the field', async () => {
      const base = bodyExample(op, JSON_TYPE);
      const { query, params } = validParameters(op);
      const send = (body: unknown) => call(op, { query, params, body, token: tokenFor(op) });
      const cases: Case[] = [];
      const required = requiredOf(json);
      if (required.length > 0) {
        cases.push({
          label: '{}',
          send: send({}),
          check: (result) => {
            const wrong = badRequest()(result);
            if (wrong) return wrong;
            const named = new Set(((result.body.errors[0].fields ?? []) as FieldIssue[]).filter((f) => f.code === 'required').map((f) => f.field));
            const unnamed = required.filter((name) => !named.has(name));
            return unnamed.length ? `required fields not named: ${unnamed.join(', ')}` : null;
          },
        });
      }
      for (const mutation of bodyMutations(json, base)) {
        if (conforms(json, mutation.body)) throw new Error(`generator: ${mutation.label} is valid for ${operationId}`);
        cases.push({ label: mutation.label, send: send(mutation.body), check: badRequest(mutation.field) });
      }
      if (isClosed(json)) {
        const unknown = { ...(base as object), unexpectedField: 1 };
        cases.push({
          label: 'unknown member',
          send: send(unknown),
          check: (result) => {
            const wrong = badRequest('unexpectedField')(result);
            if (wrong) return wrong;
            const issue = (result.body.errors[0].fields as FieldIssue[]).find((f) => f.field === 'unexpectedField');
            return issue?.code === 'unknownField' ? null : `expected code unknownField, got ${issue?.code}`;
          },
        });
        const longName = 'x'.repeat(300);
        cases.push({ label: 'unknown member with a 300-character name', send: send({ ...(base as object), [longName]: 1 }), check: badRequest(longName.slice(0, 200)) });
      }
      for (const [label, body] of [
        ['an array', []],
        ['null', null],
        ['a string', 'text'],
        ['a number', 1],
      ] as const) {
        cases.push({ label: `body is ${label}`, send: send(body), check: badRequest('') });
      }
      expect(await run('json-schema', operationId, cases)).toEqual([]);
    });

    it('refuses malformed, empty, oversized and non-JSON bodies (400, 415), never 500', async () => {
      const base = bodyExample(op, JSON_TYPE);
      const { query, params } = validParameters(op);
      const raw = (payload: string | Buffer, contentType: string) => call(op, { query, params, token: tokenFor(op), raw: { payload, contentType } });
      const unsupported = answers(415, 'UNSUPPORTED_MEDIA_TYPE');
      const cases: Case[] = [
        { label: 'malformed JSON', send: raw('{"a": ', JSON_TYPE), check: badRequest() },
        { label: 'not JSON at all', send: raw('hello=world', JSON_TYPE), check: badRequest() },
        { label: 'prototype poisoning', send: raw('{"__proto__": {"admin": true}}', JSON_TYPE), check: badRequest() },
        { label: 'empty body with the JSON type', send: raw('', JSON_TYPE), check: badRequest('') },
        { label: 'no body and no content type', send: call(op, { query, params, token: tokenFor(op) }), check: badRequest('') },
        { label: 'JSON body over 64 KiB', send: raw(JSON.stringify({ ...(base as object), padding: 'x'.repeat(70 * 1024) }), JSON_TYPE), check: badRequest() },
        { label: 'text/plain', send: raw(JSON.stringify(base), 'text/plain'), check: unsupported },
        { label: 'form-urlencoded', send: raw('a=1', 'application/x-www-form-urlencoded'), check: unsupported },
        { label: 'JSON under another type', send: raw(JSON.stringify(base), 'application/vnd.api+json'), check: unsupported },
        { label: 'multipart', send: call(op, { query, params, token: tokenFor(op), parts: [{ name: 'field', value: 'value' }] }), check: unsupported },
        isClosed(json)
          ? { label: 'JSON with a charset', send: raw(JSON.stringify({ ...(base as object), unexpectedField: 1 }), 'application/json; charset=utf-8'), check: badRequest('unexpectedField') }
          : {
              label: 'JSON with a charset',
              send: raw(JSON.stringify(base), 'application/json; charset=utf-8'),
              check: (result) => (result.status === 415 || result.status >= 500 ? `a charset was refused: ${describeResult(result)}` : null),
            },
      ];
      expect(await run('json-raw', operationId, cases)).toEqual([]);
    });
  }

  if (bodilessPosts.includes(op)) {
    it('takes no body: ignores an empty or JSON one, refuses other content types with 415', async () => {
      for (const [label, options, status] of [
        ['text/plain body', { raw: { payload: 'hello', contentType: 'text/plain' } }, 415],
        ['JSON body', { body: { ignored: true } }, 200],
        ['empty body with the JSON type', { raw: { payload: '', contentType: JSON_TYPE } }, 200],
      ] as const) {
        // Parameters naming something that exists, each request its own (a Mines cash out ends its round).
        const { query, params } = await existingInput(op);
        // A session of its own for each request: the operation may end it (userLogout).
        const session = await server.call('userLogin', { body: login });
        expect(session.status).toBe(200);
        const own = needsToken(op) ? (session.body.data.accessToken as string) : undefined;
        const result = await server.call(operationId, { query, params, token: own, ...options });
        expect(result.status, `${label}: ${describeResult(result)}`).toBe(status);
      }
      calls.set('bodiless', (calls.get('bodiless') ?? 0) + 3);
    });
  }

  // Header parameters (webhook and game-wallet signatures) are checked by their operations' own tests.
  if (parameters.some((param) => param.in === 'query' || param.in === 'path')) {
    it('refuses invalid parameters with 400, naming the parameter', async () => {
      const valid = validParameters(op);
      const cases: Case[] = [];
      for (const param of parameters) {
        if (param.in !== 'query' && param.in !== 'path') continue;
        for (const mutation of parameterMutations(param, `${operationId} ${param.name}`)) {
          const query = param.in === 'query' ? { ...valid.query, [param.name]: mutation.value } : valid.query;
          const params = param.in === 'path' ? { ...valid.params, [param.name]: mutation.value as string } : valid.params;
          cases.push({
            label: mutation.label,
            send: () => callWithQuery(operationId, op, query, { params, token: tokenFor(op) }),
            check: badRequest(param.name),
          });
        }
        if (param.in === 'query' && param.required) {
          const { [param.name]: _omitted, ...rest } = valid.query;
          cases.push({ label: `${param.name} missing`, send: call(op, { query: rest, params: valid.params, token: tokenFor(op) }), check: badRequest(param.name) });
        }
      }
      expect(cases.length).toBeGreaterThan(0);
      expect(await run('parameters', operationId, cases)).toEqual([]);
    });
  }

  if (multipartSchema) {
    it('refuses other content types (415) and missing or unknown parts (400)', async () => {
      const { query, params } = validParameters(op);
      const options = { query, params, token: tokenFor(op) };
      const required = requiredOf(multipartSchema);
      const unsupported = answers(415, 'UNSUPPORTED_MEDIA_TYPE');
      const namesAll = (result: CallResult) => {
        const wrong = badRequest()(result);
        if (wrong) return wrong;
        const named = new Set(((result.body.errors[0].fields ?? []) as FieldIssue[]).map((f) => f.field));
        const unnamed = required.filter((name) => !named.has(name));
        return unnamed.length ? `required parts not named: ${unnamed.join(', ')}` : null;
      };
      const cases: Case[] = [
        { label: 'JSON instead of multipart', send: call(op, { ...options, body: bodyExample(op, MULTIPART_TYPE) }), check: unsupported },
        { label: 'text/plain', send: call(op, { ...options, raw: { payload: 'hello', contentType: 'text/plain' } }), check: unsupported },
        { label: 'no body', send: call(op, options), check: namesAll },
        { label: 'no parts', send: call(op, { ...options, parts: [] }), check: namesAll },
        { label: 'unknown part', send: call(op, { ...options, parts: [...exampleParts(op), { name: 'unexpectedPart', value: 'x' }] }), check: badRequest('unexpectedPart') },
      ];
      for (const name of required) {
        cases.push({ label: `${name} missing`, send: call(op, { ...options, parts: exampleParts(op, [name]) }), check: badRequest(name) });
      }
      for (const [name, property] of propertiesOf(multipartSchema)) {
        const text = stringSchema(deref(property).items ?? property);
        if (text?.maxLength === undefined || text.format === 'binary') continue;
        const parts = exampleParts(op).map((part) => (part.name === name ? { name, value: 'a'.repeat(text.maxLength! + 1) } : part));
        const isArray = deref(property).type === 'array';
        cases.push({ label: `${name} of ${text.maxLength + 1} characters`, send: call(op, { ...options, parts }), check: badRequest(isArray ? `${name}.0` : name) });
      }
      expect(await run('multipart', operationId, cases)).toEqual([]);
    });
  }
});
