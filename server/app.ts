import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import responseValidation from '@fastify/response-validation';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ErrorObject } from 'ajv';
import type { AppContext } from './context.ts';
import { ApiError, errorName, type ErrorCode, type FieldIssue } from './errors.ts';
import { assertMayPlay } from './domain/auth.ts';
import { findUserById } from './domain/users.ts';
import { authMode, listOperations, loadOpenApi, OPENAPI_PATH } from './http/openapi.ts';
import type { Auth, JsonHandlers, RawHandlers } from './http/types.ts';
import { createHandlers } from './http/handlers.ts';

function newAjv(coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
  });
  addFormats.default(ajv);
  return ajv;
}

/** Per-field issues from Ajv errors: the dot path of the field and the keyword that failed. */
function fieldIssues(errors: readonly Partial<ErrorObject>[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const error of errors) {
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
    if (!issues.some((issue) => issue.field === field && issue.code === code)) issues.push({ field, code });
  }
  return issues.slice(0, 50);
}

function envelope(code: ErrorCode, status: number, fields?: FieldIssue[]) {
  return { data: {}, errors: [{ name: errorName(status), description: code, ...(fields?.length ? { fields } : {}) }] };
}

interface Failure {
  status: number;
  code: ErrorCode;
  fields?: FieldIssue[];
  headers?: Record<string, string>;
}

/** Every failure, whoever raised it, becomes one status and one code of openapi.yaml. */
function classify(error: FastifyError & { errors?: unknown[] }): Failure {
  if (error instanceof ApiError) {
    return { status: error.statusCode, code: error.code, fields: error.fields, headers: error.headers };
  }
  if (error.name === 'Unauthorized' && Array.isArray(error.errors)) {
    // fastify-openapi-glue's SecurityError: report the reason our security handler gave.
    const reason = error.errors.find((e): e is ApiError => e instanceof ApiError);
    return reason ? classify(reason as unknown as FastifyError) : { status: 401, code: 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED' };
  }
  if (error.validation) {
    return { status: 400, code: 'PLEASE_CHECK_REQUEST_DATA', fields: fieldIssues(error.validation) };
  }
  switch (error.code) {
    case 'FST_RESPONSE_VALIDATION_FAILED_VALIDATION':
      return { status: 500, code: 'RESPONSE_VALIDATION_FAILED' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
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

async function authenticate(ctx: AppContext, req: FastifyRequest): Promise<Auth> {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) throw new ApiError(401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
  const now = ctx.now();
  const session = await ctx.tokens.verify(ctx.db, match[1], now);
  if (!session) throw new ApiError(401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
  const user = await findUserById(ctx.db, session.userId);
  if (!user) throw new ApiError(401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
  assertMayPlay(user, now);
  return { userId: user.id, sessionId: session.sessionId, user };
}

export interface BuildOptions {
  logger?: boolean | { level: string };
  /** Replaces or adds handlers (tests of failure paths). */
  overrideHandlers?: JsonHandlers;
  /** The built SPA: served at /, with client-side routes falling back to its index.html. */
  spaDir?: string;
}

export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 64 * 1024,
    trustProxy: false,
    ajv: { customOptions: {} },
  });
  app.decorateRequest('auth', null);
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

  // Multipart operations validate their parts in the handler: the request body is a stream, not an object.
  app.addHook('onRoute', (route) => {
    const body = (route.schema as { body?: { content?: Record<string, unknown> } } | undefined)?.body;
    if (body?.content?.['multipart/form-data']) delete (route.schema as { body?: unknown }).body;
  });

  await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024 } });
  if (ctx.config.validateResponses) {
    await app.register(responseValidation, { ajv: newAjv(false) });
  }

  const { json, raw } = createHandlers(ctx);
  const jsonHandlers: JsonHandlers = { ...json, ...options.overrideHandlers };
  const serviceHandlers = buildServiceHandlers(ctx, jsonHandlers, raw);

  app.setErrorHandler((error: FastifyError, req, reply) => {
    const failure = classify(error);
    if (failure.status >= 500) req.log.error({ err: error }, 'request failed');
    if (failure.headers) reply.headers(failure.headers);
    reply.code(failure.status).type('application/json').send(envelope(failure.code, failure.status, failure.fields));
  });
  const spaDir = options.spaDir;
  if (spaDir) await app.register(fastifyStatic, { root: spaDir, wildcard: false });
  app.setNotFoundHandler((req, reply) => {
    if (spaDir && req.method === 'GET' && !req.url.startsWith('/api/')) {
      reply.type('text/html').sendFile('index.html');
      return;
    }
    reply.code(404).type('application/json').send(envelope('NOT_FOUND', 404));
  });

  await app.register(
    async (api) => {
      await api.register(openapiGlue, {
        // Response media types (images) have no request parser on purpose; glue would warn about each.
        logLevel: 'error',
        specification: OPENAPI_PATH,
        serviceHandlers,
        securityHandlers: {
          bearerAuth: async (req: FastifyRequest) => {
            req.auth = await authenticate(ctx, req);
          },
        },
      });
    },
    { prefix: '/api/v1' },
  );
  return app;
}

function buildServiceHandlers(ctx: AppContext, json: JsonHandlers, raw: RawHandlers) {
  const handlers: Record<string, (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>> = {};
  for (const { operationId, operation } of listOperations(loadOpenApi())) {
    const mode = authMode(operation);
    const rawHandler = raw[operationId as keyof RawHandlers];
    const jsonHandler = json[operationId as keyof JsonHandlers] as
      | ((input: Record<string, unknown>) => Promise<unknown>)
      | undefined;
    handlers[operationId] = async (req, reply) => {
      if (mode === 'optional' && req.headers.authorization) {
        // Signing in is optional here: a bad or expired token just means a visitor.
        req.auth = await authenticate(ctx, req).catch(() => null);
      }
      if (rawHandler) return rawHandler(req, reply);
      if (!jsonHandler) throw new ApiError(501, 'NOT_IMPLEMENTED');
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
  }
  return handlers;
}
