import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { listOperations, loadOpenApi, type OperationInfo } from '../../server/http/openapi.ts';

/**
 * The tests' own check of every response against openapi.yaml, independent of the server's: the
 * status must be declared on the operation and the body must match its schema.
 */
const spec = loadOpenApi();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ components: spec.components } as object, 'openapi.yaml');

const operations = new Map<string, OperationInfo>(listOperations(spec).map((op) => [op.operationId, op]));
const validators = new Map<string, ValidateFunction>();

export function operation(operationId: string): OperationInfo {
  const op = operations.get(operationId);
  if (!op) throw new Error(`No operation ${operationId} in openapi.yaml`);
  return op;
}

type ResponseObject = { $ref?: string; content?: Record<string, { schema?: unknown }> };

function resolveResponse(response: ResponseObject): ResponseObject {
  if (!response.$ref) return response;
  const name = response.$ref.replace('#/components/responses/', '');
  return spec.components.responses?.[name] as ResponseObject;
}

function rewriteRefs(schema: unknown): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.yaml#/components/')) as object;
}

export interface ContractViolation {
  operationId: string;
  status: number;
  message: string;
}

/** Returns null when the response agrees with openapi.yaml, else what is wrong. */
export function checkResponse(operationId: string, status: number, contentType: string, body: unknown): string | null {
  const op = operation(operationId);
  const declared = op.operation.responses[String(status)] as ResponseObject | undefined;
  if (!declared) return `status ${status} is not declared for ${operationId}`;
  const response = resolveResponse(declared);
  const mediaType = contentType.split(';')[0]?.trim() ?? '';
  const media = response.content?.[mediaType];
  if (!media) return `content type ${mediaType} is not declared for ${operationId} ${status}`;
  if (!media.schema) return null;
  const key = `${operationId} ${status} ${mediaType}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(rewriteRefs(media.schema));
    validators.set(key, validate);
  }
  if (validate(body)) return null;
  return ajv.errorsText(validate.errors, { dataVar: 'response' });
}

/** Which operations and error codes the tests produced, gathered across test files for the coverage check. */
const coverageDir = join(process.cwd(), '.tmp', 'contract-coverage');
let coverageFile: string | null = null;

export function recordCoverage(operationId: string, status: number, code: string | null): void {
  coverageFile ??= join(coverageDir, `${process.pid}-${Date.now()}.jsonl`);
  mkdirSync(coverageDir, { recursive: true });
  appendFileSync(coverageFile, JSON.stringify({ operationId, status, code }) + '\n');
}
