import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { listOperations, loadOpenApi, type OperationInfo } from '../../server/http/openapi.ts';
import { failureFromAnswer } from '../../src/machines/actors.ts';
import { ApiFailure } from '../../src/machines/failure.ts';
import { checkResponse } from '../helpers/contract.ts';
import { apiOperation } from './operations.ts';
import { errorName } from '../../server/http/status.ts';

/*
 * Deferred fakes for the actors a view invokes: each call waits until the path settles it with a
 * fixture outcome. For API actors the request the machine sent and the answer the fixture stands for
 * are both checked against openapi.yaml (the answer through tests/helpers/contract.ts, as the server
 * tests check real answers).
 */

const spec = loadOpenApi();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ components: spec.components } as object, 'openapi.yaml');
const byRoute = new Map<string, OperationInfo>(listOperations(spec).map((op) => [`${op.method.toUpperCase()} ${op.path}`, op]));
const validators = new Map<string, ValidateFunction>();

function operationOf(route: string): OperationInfo {
  const op = byRoute.get(route);
  if (!op) throw new Error(`no operation ${route} in openapi.yaml`);
  return op;
}

function resolve<T>(node: T): T {
  const ref = (node as { $ref?: string }).$ref;
  if (!ref) return node;
  const [, , section, name] = ref.split('/');
  return spec.components[section!]?.[name!] as T;
}

function validator(key: string, schema: unknown): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.yaml#/components/')) as object);
    validators.set(key, validate);
  }
  return validate;
}

/** Null when the request agrees with the operation's body and query parameters, else what is wrong. */
export function checkRequest(route: string, request: { body?: unknown; query?: Record<string, unknown> }): string | null {
  const { operation, operationId } = operationOf(route);
  const problems: string[] = [];
  // A multipart body is checked as its parts: text fields, and a file as its name.
  const bodySchema = operation.requestBody?.content['application/json']?.schema ?? operation.requestBody?.content['multipart/form-data']?.schema;
  if (request.body !== undefined) {
    if (!bodySchema) problems.push('the operation takes no JSON body');
    else {
      const validate = validator(`${operationId} body`, bodySchema);
      if (!validate(request.body)) problems.push(ajv.errorsText(validate.errors, { dataVar: 'body' }));
    }
  } else if (operation.requestBody?.required) problems.push('the body is required');
  const parameters = (operation.parameters ?? []).map((parameter) => resolve(parameter as { name: string; in: string; required?: boolean; schema?: unknown }));
  for (const parameter of parameters.filter((candidate) => candidate.in === 'query')) {
    const value = request.query?.[parameter.name];
    if (value === undefined) {
      if (parameter.required) problems.push(`query parameter ${parameter.name} is required`);
      continue;
    }
    const validate = validator(`${operationId} query ${parameter.name}`, parameter.schema ?? {});
    if (!validate(value)) problems.push(ajv.errorsText(validate.errors, { dataVar: parameter.name }));
  }
  for (const name of Object.keys(request.query ?? {})) {
    if (!parameters.some((parameter) => parameter.in === 'query' && parameter.name === name)) problems.push(`unknown query parameter ${name}`);
  }
  return problems.length ? `${route}: ${problems.join('; ')}` : null;
}

/** The error envelope the server sends for a failure. */
export function errorEnvelope(failure: ApiFailure): unknown {
  const name = errorName(failure.status);
  const error = { name, description: failure.code, ...(failure.fields.length ? { fields: failure.fields } : {}) };
  return { data: {}, errors: [error] };
}

/**
 * Null when the outcome is an answer the operation can give (or, for a failure, no answer at all), else
 * what is wrong. A failure must also be what the real client makes of that answer.
 */
export function checkOutcome(src: string, outcome: { done: true; output: unknown } | { done: false; error: unknown }): string | null {
  const entry = apiOperation(src);
  if (!entry) return null;
  const { operationId } = operationOf(entry.route);
  if (outcome.done) {
    const body = entry.response(outcome.output);
    if (body === null) return null;
    const problem = checkResponse(operationId, 200, 'application/json', body);
    return problem && `${entry.route} 200: ${problem}`;
  }
  const failure = outcome.error;
  if (!(failure instanceof ApiFailure)) return `${src} rejects only with ApiFailure (src/machines/actors.ts), not ${String(failure)}`;
  if (failure.status === 0) return failure.code === null ? null : 'a failure without an answer has no code';
  const body = errorEnvelope(failure);
  const problem = checkResponse(operationId, failure.status, 'application/json', body);
  if (problem) return `${entry.route} ${failure.status}: ${problem}`;
  const read = failureFromAnswer(failure.status, body);
  if (read.code !== failure.code || JSON.stringify(read.fields) !== JSON.stringify(failure.fields)) {
    return `${entry.route} ${failure.status}: the client reads this answer as ${read.code}`;
  }
  return null;
}

/** The request an API actor sends for an input, checked; null when right (or not an API actor). */
export function checkActorRequest(src: string, input: unknown): string | null {
  const entry = apiOperation(src);
  return entry && checkRequest(entry.route, entry.request(input));
}

export interface PendingCall {
  src: string;
  input: unknown;
  signal: AbortSignal | undefined;
  settled: boolean;
  resolve(output: unknown): void;
  reject(error: unknown): void;
}

/** The calls the view has made, in order, each waiting for the path to settle it. */
export class DeferredActors {
  readonly calls: PendingCall[] = [];
  readonly violations: string[] = [];

  /** What a fake actor does when the view invokes it. */
  call<T>(src: string, input: unknown, signal?: AbortSignal): Promise<T> {
    const problem = checkActorRequest(src, input);
    if (problem) this.violations.push(`request of ${src}: ${problem}`);
    return new Promise<T>((resolve, reject) => {
      this.calls.push({
        src,
        input,
        signal,
        settled: false,
        resolve: (output) => resolve(output as T),
        reject,
      });
    });
  }

  /** The calls still waiting for an answer (a call whose actor was stopped is given up). */
  waiting(): PendingCall[] {
    return this.calls.filter((call) => !call.settled && !call.signal?.aborted);
  }

  settle(src: string, outcome: { done: true; output: unknown } | { done: false; error: unknown }): void {
    const call = this.waiting().find((candidate) => candidate.src === src);
    if (!call) throw new Error(`the view has no ${src} call waiting for an answer (calls: ${this.calls.map((c) => c.src).join(', ') || 'none'})`);
    const problem = checkOutcome(src, outcome);
    if (problem) throw new Error(`fixture answer of ${src} breaks openapi.yaml: ${problem}`);
    call.settled = true;
    if (outcome.done) call.resolve(outcome.output);
    else call.reject(outcome.error);
  }
}
