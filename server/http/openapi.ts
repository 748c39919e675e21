import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const OPENAPI_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'openapi.yaml');

export interface OpenApiOperation {
  operationId: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, unknown>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: Record<string, Record<string, unknown>>;
}

let cached: OpenApiDocument | undefined;

/** openapi.yaml, parsed once: the routes, validation and security of the server come from it. */
export function loadOpenApi(): OpenApiDocument {
  cached ??= parse(readFileSync(OPENAPI_PATH, 'utf8')) as OpenApiDocument;
  return cached;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

export interface OperationInfo {
  operationId: string;
  method: string;
  path: string;
  operation: OpenApiOperation;
}

export function listOperations(spec: OpenApiDocument = loadOpenApi()): OperationInfo[] {
  const result: OperationInfo[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (METHODS.has(method)) result.push({ operationId: operation.operationId, method, path, operation });
    }
  }
  return result;
}

/** Security requirement of an operation: none, required bearer token, or optional (`{}` among the choices). */
export function authMode(operation: OpenApiOperation): 'none' | 'required' | 'optional' {
  const security = operation.security ?? [];
  const bearer = security.some((requirement) => 'bearerAuth' in requirement);
  if (!bearer) return 'none';
  return security.some((requirement) => Object.keys(requirement).length === 0) ? 'optional' : 'required';
}
