import { Server as NetServer, type Socket } from 'node:net';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import responseValidation from '@fastify/response-validation';
import multipart from '@fastify/multipart';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import type { AppContext } from './context.ts';
import { DomainError, type ErrorCode, type FieldIssue } from './domain/errors.ts';
import { errorName, HTTP_STATUS } from './http/status.ts';
import { assertMayUse } from './domain/auth.ts';
import { isClientRoute, serveSpa } from './http/static.ts';
import { authMode, listOperations, loadOpenApi, resolveRef, type OperationInfo } from './http/openapi.ts';
import type { Auth, JsonHandlers, RawHandlers } from './http/types.ts';
import { createHandlers } from './http/handlers.ts';
import { walletAnswer, type WalletTransport } from './games/wallet-client.ts';
import { schemaRuleCode, withoutNullAlternatives } from './http/field-codes.ts';
import { answered, rawAnswerHeaders, registerSecurity, securityHeaders, securitySettings } from './http/security.ts';

/** Media types that only responses use (images): no request body may have them. */
function responseOnlyMediaTypes(): string[] {
  const types = new Set<string>();
  for (const { operation } of listOperations(loadOpenApi())) {
    for (const response of Object.values(operation.responses)) {
      const content = (resolveRef(response) as { content?: Record<string, unknown> } | undefined)?.content;
      for (const type of Object.keys(content ?? {})) types.add(type);
    }
  }
  return [...types].filter((type) => type !== 'application/json' && !type.startsWith('multipart/'));
}

/**
 * Makes `ajv` compile a schema when a request or an answer first meets it rather than when its route is
 * made: a server no longer compiles every request and response schema of openapi.yaml before it listens,
 * two fifths of a start's CPU. A schema with an `$id` is compiled at once, since others may `$ref` it.
 */
function compileOnFirstUse(ajv: Ajv2020): void {
  const compileNow = ajv.compile.bind(ajv) as (schema: AnySchema, meta?: boolean) => ValidateFunction;
  const compile = (schema: AnySchema, meta?: boolean): ValidateFunction => {
    if (typeof schema !== 'object' || '$id' in schema) return compileNow(schema, meta);
    let compiled: ValidateFunction | undefined;
    const now = (): ValidateFunction => (compiled ??= compileNow(schema, meta));
    const validate = function (this: unknown, ...args: Parameters<ValidateFunction>) {
      const inner = now();
      const valid = inner.apply(this, args);
      validate.errors = inner.errors;
      return valid;
    } as ValidateFunction;
    // Fastify reads schemaEnv before each call (to let a root value be coerced in place).
    Object.defineProperty(validate, 'schemaEnv', { get: () => now().schemaEnv });
    validate.schema = schema;
    return validate;
  };
  ajv.compile = compile as typeof ajv.compile;
}

function newAjv(coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    // Errors carry the refused value: field-codes.ts names an amount's rule from it (amount.decimals, ...).
    verbose: true,
  });
  addFormats.default(ajv);
  compileOnFirstUse(ajv);
  return ajv;
}

/** Per-field issues from Ajv errors: the dot path of the field and the keyword that failed. */
function fieldIssues(errors: readonly Partial<ErrorObject>[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const error of withoutNullAlternatives(errors)) {
    const base = (error.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    const params = (error.params ?? {}) as Record<string, unknown>;
    let field = base;
    let code = error.keyword ?? 'invalid';
    if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
      field = base ? `${base}.${params.missingProperty}` : params.missingProperty;
    } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      field = base ? `${base}.${params.additionalProperty}` : params.additionalProperty;
      code = 'unknownField';
    }
    code = schemaRuleCode(field, error) ?? code;
    if (!issues.some((issue) => issue.field === field && issue.code === code)) issues.push({ field, code });
  }
  return issues.slice(0, 50);
}

/**
 * FieldError in openapi.yaml: at most 100 entries, fields of at most 200 characters (an unknown member's
 * name can be longer), rule codes of dotted letters. The envelope is the error handler's own answer: if
 * it broke the contract, response validation would fail inside the error handler and the client would
 * get Fastify's default error body instead of the envelope.
 */
const MAX_FIELD_ISSUES = 100;
const MAX_FIELD_LENGTH = 200;
const RULE_CODE = /^[A-Za-z]{1,64}(\.[A-Za-z]{1,64})*$/;

function envelope(code: ErrorCode, status: number, fields?: FieldIssue[]) {
  const issues = (fields ?? []).slice(0, MAX_FIELD_ISSUES).map((issue) => ({
    field: issue.field.slice(0, MAX_FIELD_LENGTH),
    code: RULE_CODE.test(issue.code) && issue.code.length <= 64 ? issue.code : 'invalid',
  }));
  return { data: {}, errors: [{ name: errorName(status), description: code, ...(issues.length ? { fields: issues } : {}) }] };
}

interface Failure {
  status: number;
  code: ErrorCode;
  fields?: FieldIssue[];
  headers?: Record<string, string>;
}

/** Every failure, whoever raised it, becomes one status and one code of openapi.yaml. */
function classify(error: FastifyError & { errors?: unknown[] }): Failure {
  if (error instanceof DomainError) {
    const headers = error.retryAfterSeconds === undefined ? undefined : { 'retry-after': String(error.retryAfterSeconds) };
    return { status: HTTP_STATUS[error.code], code: error.code, fields: error.fields, headers };
  }
  if (error.name === 'Unauthorized' && Array.isArray(error.errors)) {
    // fastify-openapi-glue's SecurityError: report the reason our security handler gave.
    const reason = error.errors.find((e): e is DomainError => e instanceof DomainError);
    return reason ? classify(reason as unknown as FastifyError) : { status: 401, code: 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED' };
  }
  // Response validation errors carry `validation` too: the server's answer, not the request, is at fault.
  if (error.code === 'FST_RESPONSE_VALIDATION_FAILED_VALIDATION') return { status: 500, code: 'RESPONSE_VALIDATION_FAILED' };
  if (error.validation) {
    return { status: 400, code: 'PLEASE_CHECK_REQUEST_DATA', fields: fieldIssues(error.validation) };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      // Only JSON bodies are read whole, and every string of every JSON body is bounded: no valid body
      // comes near the limit, so an oversized one is bad request data (413 is for uploads).
      return { status: 400, code: 'PLEASE_CHECK_REQUEST_DATA' };
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return { status: 413, code: 'FILE_TOO_LARGE' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    if (status === 404) return { status, code: 'NOT_FOUND' };
    if (status === 413) return { status, code: 'FILE_TOO_LARGE' };
    if (status === 415) return { status, code: 'UNSUPPORTED_MEDIA_TYPE' };
    if (status === 429) return { status, code: 'RATE_LIMITED' };
    return { status: 400, code: 'PLEASE_CHECK_REQUEST_DATA' };
  }
  return { status: 500, code: 'INTERNAL_SERVER_ERROR' };
}

interface RouteSchema {
  operationId?: string;
  body?: { content?: Record<string, { schema?: unknown }> };
  querystring?: { properties?: Record<string, { type?: string | string[] }> };
  params?: { properties?: Record<string, { type?: string | string[] }> };
}

function hookList<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/**
 * Refuses a request body whose media type the operation does not declare (415), and reports a missing
 * multipart body as its missing parts (400) as an empty multipart body would be. Operations without a
 * request body ignore whatever JSON or multipart body they are sent.
 */
function contentTypeGate(op: OperationInfo) {
  const body = op.operation.requestBody;
  const declared = Object.keys(body?.content ?? {});
  const multipartSchema = resolveRef<{ required?: string[] } | undefined>(body?.content['multipart/form-data']?.schema);
  return async (req: FastifyRequest) => {
    if (!body) return;
    const header = req.headers['content-type'];
    if (header === undefined) {
      if (body.required && multipartSchema && !declared.includes('application/json')) {
        throw new DomainError('PLEASE_CHECK_REQUEST_DATA', (multipartSchema.required ?? []).map((field) => ({ field, code: 'required' })));
      }
      return;
    }
    const mediaType = header.split(';')[0]?.trim().toLowerCase() ?? '';
    if (!declared.includes(mediaType)) throw new DomainError('UNSUPPORTED_MEDIA_TYPE');
  };
}

const INTEGER_TEXT = /^-?[0-9]+$/;
const NUMBER_TEXT = /^-?[0-9]+(\.[0-9]+)?$/;

/**
 * Ajv coerces any text that JavaScript reads as a number (`0x10`, ` 5`, `1e1`, `1.0` for an integer),
 * so query and path numbers would accept spellings no client sends. Text that is not plain decimal is
 * wrapped in an object, which Ajv neither coerces nor range-checks: the parameter fails with `type` alone.
 */
function strictNumbers(schema: RouteSchema) {
  const numeric = (part: RouteSchema['querystring']) =>
    Object.entries(part?.properties ?? {}).flatMap(([name, property]) => {
      const types = ([] as (string | undefined)[]).concat(property.type);
      if (types.includes('integer')) return [[name, INTEGER_TEXT] as const];
      if (types.includes('number')) return [[name, NUMBER_TEXT] as const];
      return [];
    });
  const parts = [
    ['query', numeric(schema.querystring)],
    ['params', numeric(schema.params)],
  ] as const;
  return async (req: FastifyRequest) => {
    for (const [part, names] of parts) {
      const values = req[part] as Record<string, unknown> | undefined;
      if (!values) continue;
      for (const [name, pattern] of names) {
        const value = values[name];
        const strict = (text: unknown) => (typeof text === 'string' && !pattern.test(text) ? { notDecimal: text } : text);
        if (Array.isArray(value)) values[name] = value.map(strict);
        else if (value !== undefined) values[name] = strict(value);
      }
    }
  };
}

/**
 * The dot paths of the strings (member names included) that hold a NUL character, in the order they come,
 * at most MAX_FIELD_ISSUES. Walked with a stack of its own: the depth of a value is the sender's choice.
 */
function nulPaths(values: readonly unknown[]): string[] {
  const found: string[] = [];
  // [value, its path, whether its member name holds a NUL]; the next to visit last.
  const pending: [unknown, string, boolean][] = values.map((value) => [value, '', false] as [unknown, string, boolean]).reverse();
  for (let next = pending.pop(); next && found.length < MAX_FIELD_ISSUES; next = pending.pop()) {
    const [value, path, nulName] = next;
    if (nulName) found.push(path);
    if (typeof value === 'string') {
      if (value.includes('\u0000')) found.push(path);
    } else if (value !== null && typeof value === 'object') {
      const members = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
      for (let i = members.length - 1; i >= 0; i -= 1) {
        const [key, item] = members[i]!;
        pending.push([item, path ? `${path}.${key}` : key, !Array.isArray(value) && key.includes('\u0000')]);
      }
    }
  }
  return found.slice(0, MAX_FIELD_ISSUES);
}

/**
 * openapi.yaml: a JSON body nested deeper than this (arrays and objects) is bad request data. The deepest
 * body of the contract has a few levels; walking a value costs a stack frame per level in most code
 * (Ajv's, JSON.stringify's), so the sender may not choose the depth.
 */
const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text opens more than `limit` arrays and objects inside one another, read on the text
 * itself, one character after the other: brackets inside strings (escapes included) do not count. Text
 * that is not JSON at all is left to the parser to refuse.
 */
function jsonDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* backslash: the next character is escaped */) i += 1;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * No text of the contract holds a NUL character, and PostgreSQL cannot store one in text (it fails the
 * query): a parameter or body member with one is refused as bad request data before any handler runs.
 */
async function refuseNulCharacters(req: FastifyRequest): Promise<void> {
  const found = nulPaths([req.params, req.query, req.body]);
  if (found.length > 0) throw new DomainError('PLEASE_CHECK_REQUEST_DATA', found.map((field) => ({ field, code: 'pattern' })));
}

async function authenticate(ctx: AppContext, req: FastifyRequest): Promise<Auth> {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) throw new DomainError('ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
  const now = ctx.now();
  const session = await ctx.tokens.verify(ctx.db, match[1], now);
  if (!session) throw new DomainError('ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
  const { user } = session;
  // openapi.yaml: a live session whose account is gone is 401 User_Not_Exists_Error_Type (SPEC §8).
  if (!user) throw new DomainError('User_Not_Exists_Error_Type');
  // openapi-glue copies the operation's x- members into the route schema.
  const schema = req.routeOptions.schema as { 'x-while-self-excluded'?: boolean } | undefined;
  assertMayUse(user, now, schema?.['x-while-self-excluded'] === true);
  return { userId: user.id, sessionId: session.sessionId, user };
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The first step of stopping (server/main.ts), before close(): no new connection is taken, open
     * event streams end, and the requests already taken (the house's wallet calls inside them included)
     * are let finish, at most `timeoutMs`. Resolves whether they all did.
     */
    drain(timeoutMs: number): Promise<boolean>;
  }
}

/**
 * The work a stopping server waits for: each request from its arrival until its answer is out (or its
 * client gone), and each handler until it returns (a client that left does not end its round).
 */
class InFlight {
  private readonly pending = new Set<Promise<void>>();

  track(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
  }

  /** Whether everything tracked, including what is taken meanwhile, ended within `timeoutMs`. */
  async settled(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, left)));
      await Promise.race([Promise.all([...this.pending]), timeout]);
      clearTimeout(timer);
    }
    return true;
  }
}

export interface BuildOptions {
  logger?: boolean | { level: string };
  /** Replaces or adds handlers (tests of failure paths). */
  overrideHandlers?: JsonHandlers;
  /** The built SPA: served at /, with client-side routes falling back to its index.html. */
  spaDir?: string;
}

/**
 * The house games' wallet calls handed to this server's own router (HOUSE_WALLET_HOP=in-process): the
 * same signed body through the same routes, validation and handlers, without the socket and the network.
 */
function inProcessWalletTransport(app: FastifyInstance): WalletTransport {
  return async (path, rawBody, signature) => {
    const response = await app.inject({
      method: 'POST',
      url: `/api/v1${path}`,
      headers: { 'content-type': 'application/json', 'x-game-signature': signature },
      payload: rawBody,
    });
    return walletAnswer(response.statusCode, response.body);
  };
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers over its 16 KiB, a malformed
 * request line, headers not received in time) answer the envelope on the socket, then close it. Like a
 * JSON body over its limit, no valid request comes near these: 400 PLEASE_CHECK_REQUEST_DATA.
 */
function clientErrorHandler(ctx: AppContext) {
  const headers = rawAnswerHeaders(ctx.config);
  return (error: Error & { code?: string }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (socket.writable && !answering) {
      const body = JSON.stringify(envelope('PLEASE_CHECK_REQUEST_DATA', 400));
      const lines = Object.entries({
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        connection: 'close',
        ...headers,
      }).map(([name, value]) => `${name}: ${value}`);
      socket.write(`HTTP/1.1 400 Bad Request\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
    }
    socket.destroy(error);
  };
}

export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 64 * 1024,
    trustProxy: ctx.config.trustProxy,
    ajv: { customOptions: {} },
    // Fastify's own refusals before routing (a URL that does not decode) answer the envelope too.
    frameworkErrors: (error, req, reply) => {
      const failure = classify(error);
      // Sent before any hook: the protections the onSend hook adds to every other answer are added here.
      (reply as FastifyReply).headers(securityHeaders(securitySettings(ctx.config), answered(req.url)));
      (reply as FastifyReply).code(failure.status).type('application/json').send(envelope(failure.code, failure.status, failure.fields));
    },
    clientErrorHandler: clientErrorHandler(ctx),
  });
  registerSecurity(app, ctx.config);
  app.decorateRequest('auth', null);
  app.decorateRequest('rawBody', null);
  // Set by drain(): from then on the server takes no new connection, and the house games' wallet calls,
  // which reach this server where it listens, are handed to its router in process instead.
  let draining = false;
  const inFlight = new InFlight();
  const inProcess = inProcessWalletTransport(app);
  const overNetwork = ctx.houseWallet.transport;
  ctx.houseWallet = {
    ...ctx.houseWallet,
    transport: ctx.config.houseWalletHop === 'in-process' ? inProcess : (path, rawBody, signature) => (draining ? inProcess : overNetwork)(path, rawBody, signature),
  };
  app.addHook('onRequest', async (req, reply) => {
    inFlight.track(new Promise((resolve) => reply.raw.once('close', resolve)));
  });
  // An answer sent while draining closes its connection: the client's next request opens a new one,
  // which is refused, rather than arriving on a connection the server is about to close.
  app.addHook('onSend', async (_req, reply) => {
    if (draining) reply.header('connection', 'close');
  });
  // Only JSON and multipart bodies are accepted; anything else is 415.
  app.removeContentTypeParser('text/plain');

  const bodyAjv = newAjv(false);
  const paramsAjv = newAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    // fastify-openapi-glue gives schemas an $id of its own; refs inside are local, so it is not needed.
    const { $id: _ignored, ...rest } = schema as Record<string, unknown>;
    return (httpPart === 'body' ? bodyAjv : paramsAjv).compile(rest);
  });
  // Handlers return plain JSON; responses are checked against openapi.yaml by response validation instead.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // An empty JSON body is no body (POSTs that take none, like userLogout, may still be sent with the
  // JSON content type); operations that need one then fail schema validation with 400.
  // A body nested deeper than MAX_JSON_DEPTH is refused before it is parsed: nothing after (validation,
  // the hooks, the handlers, logging) ever meets one.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    req.rawBody = text;
    if (text === '') done(null, undefined);
    else if (jsonDeeperThan(text, MAX_JSON_DEPTH)) done(new DomainError('PLEASE_CHECK_REQUEST_DATA'), undefined);
    else parseJson(req, text, done);
  });

  // fastify-openapi-glue wants a request parser for every media type the contract names, responses
  // included, and warns at start without one. No operation accepts an image body: these parsers refuse it.
  for (const type of responseOnlyMediaTypes()) {
    app.addContentTypeParser(type, (_req, _payload, done) => done(new DomainError('UNSUPPORTED_MEDIA_TYPE')));
  }

  const operationsById = new Map(listOperations(loadOpenApi()).map((op) => [op.operationId, op]));
  app.addHook('onRoute', (route) => {
    const schema = route.schema as RouteSchema | undefined;
    const op = schema?.operationId ? operationsById.get(schema.operationId) : undefined;
    if (!schema || !op) return;
    const content = schema.body?.content;
    if (content) {
      // Fastify validates a body per content type and skips validation when the request's type has no
      // schema (no Content-Type at all, or multipart sent to a JSON operation): the handler would then
      // get an unchecked body. The content type is checked by the gate below instead, and the JSON
      // schema applies to whatever was parsed. Multipart operations check their parts in the handler.
      const json = content['application/json']?.schema;
      if (json) schema.body = json as RouteSchema['body'];
      else delete schema.body;
    }
    // Fastify matches a header schema's names to the request's lowercased headers only when it compiles
    // the schema itself; with the compiler above, `Idempotency-Key` was never checked (a key of any
    // length reached the database and failed its insert).
    const headers = (schema as { headers?: { properties?: Record<string, unknown>; required?: string[] } }).headers;
    if (headers?.properties) {
      headers.properties = Object.fromEntries(Object.entries(headers.properties).map(([name, property]) => [name.toLowerCase(), property]));
      if (headers.required) headers.required = headers.required.map((name) => name.toLowerCase());
    }
    route.preValidation = [...hookList(route.preValidation), contentTypeGate(op), strictNumbers(schema), refuseNulCharacters];
    // fastify-openapi-glue runs the security handler as a preHandler, after parsing and validation, so
    // an anonymous caller would learn about the body (400, 415) before being told to sign in. Run it
    // first instead: without a valid session an authenticated operation answers 401 whatever it is sent.
    if (route.preHandler) {
      route.onRequest = [...hookList(route.onRequest), ...hookList(route.preHandler)];
      route.preHandler = undefined;
    }
    // With the simulator off its operations do not exist: 404 before the request is even parsed.
    if (op.operation.tags?.includes('simulator') && !ctx.config.simulator) {
      const missing = async () => {
        throw new DomainError('NOT_FOUND');
      };
      route.onRequest = [missing, ...hookList(route.onRequest)];
    }
  });

  await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024 } });
  if (ctx.config.validateResponses) {
    await app.register(responseValidation, { ajv: newAjv(false) });
  }

  const { json, raw, live } = createHandlers(ctx);
  // Open event streams would hold the server's close: they end first. Then the connections waiting for a
  // next request are closed (Node's own close leaves a connection that never sent one to its keep-alive
  // time, 72 s); a request still being answered finishes.
  const sockets = new Set<Socket>();
  app.addHook('onListen', async () => {
    app.server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
  });
  app.decorate('drain', async (timeoutMs: number) => {
    draining = true;
    // net.Server's own close stops taking connections and leaves the open ones be; http.Server's would
    // also close those waiting for a next request, which their client may be sending right now. They
    // are closed by close(), once the requests taken are answered.
    if (app.server.listening) NetServer.prototype.close.call(app.server);
    // Open event streams would hold the drain: they end first.
    await live.close();
    return inFlight.settled(timeoutMs);
  });
  app.addHook('preClose', async () => {
    await live.close();
    for (const socket of sockets) {
      if (!(socket as Socket & { _httpMessage?: unknown })._httpMessage) socket.destroy();
    }
  });
  const jsonHandlers: JsonHandlers = { ...json, ...options.overrideHandlers };
  // The requests whose bearer token the security handler below has already checked, whatever it found.
  const tokenChecked = new WeakSet<FastifyRequest>();
  const serviceHandlers = buildServiceHandlers(ctx, jsonHandlers, raw, tokenChecked, inFlight);

  app.setErrorHandler((error: FastifyError, req, reply) => {
    let failure = classify(error);
    const declared = (req.routeOptions.schema as { response?: Record<string, unknown> } | undefined)?.response;
    if (ctx.config.validateResponses && declared && !(String(failure.status) in declared)) {
      // A status the operation does not declare breaks openapi.yaml as much as a malformed body does.
      req.log.error({ err: error, status: failure.status, code: failure.code }, 'status not declared in openapi.yaml');
      failure = { status: 500, code: 'RESPONSE_VALIDATION_FAILED' };
    }
    if (failure.status >= 500) req.log.error({ err: error }, 'request failed');
    if (failure.headers) reply.headers(failure.headers);
    reply.code(failure.status).type('application/json').send(envelope(failure.code, failure.status, failure.fields));
  });
  const spaDir = options.spaDir;
  if (spaDir) await serveSpa(app, spaDir);
  app.setNotFoundHandler((req, reply) => {
    if (spaDir && isClientRoute(req.method, req.url)) {
      reply.type('text/html').sendFile('index.html');
      return;
    }
    reply.code(404).type('application/json').send(envelope('NOT_FOUND', 404));
  });

  // The payment simulator calls the server's webhook where it listens, and mines blocks while it runs.
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address && typeof address === 'object') {
      const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
      ctx.listening.url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    }
    ctx.payments.start?.();
  });
  app.addHook('onClose', async () => {
    await ctx.payments.stop?.();
  });

  await app.register(
    async (api) => {
      await api.register(openapiGlue, {
        // The document already parsed (the plugin clones it before resolving its references): openapi.yaml
        // is read and parsed once per start.
        specification: loadOpenApi(),
        serviceHandlers,
        securityHandlers: {
          bearerAuth: async (req: FastifyRequest) => {
            tokenChecked.add(req);
            req.auth = await authenticate(ctx, req);
          },
        },
      });
    },
    { prefix: '/api/v1' },
  );
  return app;
}

function buildServiceHandlers(ctx: AppContext, json: JsonHandlers, raw: RawHandlers, tokenChecked: WeakSet<FastifyRequest>, inFlight: InFlight) {
  const handlers: Record<string, (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>> = {};
  const operations = listOperations(loadOpenApi());
  // Every operation of the contract is served: a missing handler stops the server at start, not a player later.
  const unserved = operations.map((op) => op.operationId).filter((id) => !(id in raw) && !(id in json));
  if (unserved.length > 0) throw new Error(`openapi.yaml operations without a handler: ${unserved.join(', ')}`);
  for (const { operationId, operation } of operations) {
    const mode = authMode(operation);
    const rawHandler = raw[operationId as keyof RawHandlers];
    const jsonHandler = json[operationId as keyof JsonHandlers] as
      | ((input: Record<string, unknown>) => Promise<unknown>)
      | undefined;
    const handle = async (req: FastifyRequest, reply: FastifyReply) => {
      // Signing in is optional here: a bad or expired token just means a visitor. The security handler has
      // usually tried the token already (bearerAuth comes first in these operations' security): a second
      // look-up of the same session and player would find the same.
      if (mode === 'optional' && req.headers.authorization && !tokenChecked.has(req)) {
        req.auth = await authenticate(ctx, req).catch(() => null);
      }
      if (rawHandler) return rawHandler(req, reply);
      if (!jsonHandler) throw new Error(`no handler for ${operationId}`); // checked above, at start
      const data = await jsonHandler({
        body: req.body,
        query: req.query ?? {},
        params: req.params ?? {},
        auth: req.auth,
        ip: req.ip,
        req,
        reply,
      });
      return { data, errors: [] };
    };
    handlers[operationId] = (req, reply) => {
      const work = handle(req, reply);
      inFlight.track(work);
      return work;
    };
  }
  return handlers;
}
