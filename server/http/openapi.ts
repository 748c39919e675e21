import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
/** The contract at the project's root; a built server has it beside it, already parsed (scripts/lib/build-server.ts). */
const OPENAPI_PATH = join(here, '..', '..', 'openapi.yaml');
const BUILT_OPENAPI = join(here, 'openapi.json');

export interface OpenApiOperation {
  operationId: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: unknown; examples?: Record<string, unknown> }> };
  responses: Record<string, unknown>;
}

/** A parameter of an operation, its `$ref` resolved (the schema itself may still hold refs). */
export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: unknown;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: Record<string, Record<string, unknown>>;
}

let cached: OpenApiDocument | undefined;

/** openapi.yaml, parsed once: the routes, validation and security of the server come from it. */
export function loadOpenApi(): OpenApiDocument {
  cached ??= (existsSync(BUILT_OPENAPI) ? JSON.parse(readFileSync(BUILT_OPENAPI, 'utf8')) : parse(readFileSync(OPENAPI_PATH, 'utf8'))) as OpenApiDocument;
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

/** Follows a local `$ref` (`#/components/...`) until the node is not a reference. */
export function resolveRef<T = unknown>(node: unknown, spec: OpenApiDocument = loadOpenApi()): T {
  let current = node;
  for (let depth = 0; depth < 32; depth += 1) {
    const ref = (current as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== 'string') return current as T;
    if (!ref.startsWith('#/')) throw new Error(`only local references are supported: ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((parent, key) => (parent as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
    if (current === undefined) throw new Error(`unresolved reference ${ref}`);
  }
  throw new Error('reference chain too deep');
}

/** The operation's parameters (path-level ones are not used in openapi.yaml), references resolved. */
export function operationParameters(operation: OpenApiOperation, spec: OpenApiDocument = loadOpenApi()): OpenApiParameter[] {
  return (operation.parameters ?? []).map((parameter) => resolveRef<OpenApiParameter>(parameter, spec));
}
