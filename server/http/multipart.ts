import type { FastifyRequest } from 'fastify';
import { MAX_UPLOAD_BYTES } from '../../src/rules/files.ts';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { DomainError } from '../domain/errors.ts';
import { schemaRuleCode } from './field-codes.ts';
import { listOperations, loadOpenApi } from './openapi.ts';

export interface UploadedFile {
  field: string;
  fileName: string;
  bytes: Buffer;
}

export interface MultipartForm {
  fields: Map<string, string[]>;
  files: UploadedFile[];
}

/** Text parts a form may carry at most. */
const MAX_FIELDS = 40;

/**
 * Reads a multipart body whole, within limits: files under MAX_UPLOAD_BYTES each, at most maxFiles files
 * and a bounded number of text fields. Anything else is refused before it is stored anywhere.
 */
export async function readMultipart(req: FastifyRequest, maxFiles: number): Promise<MultipartForm> {
  if (!req.isMultipart()) throw new DomainError('UNSUPPORTED_MEDIA_TYPE');
  const fields = new Map<string, string[]>();
  const files: UploadedFile[] = [];
  try {
    // Inside the try: a body whose Content-Type has no boundary fails here, before any part is read.
    const parts = req.parts({ limits: { fileSize: MAX_UPLOAD_BYTES - 1, files: maxFiles, fields: MAX_FIELDS, fieldSize: 1024 } });
    for await (const part of parts) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        files.push({ field: part.fieldname, fileName: part.filename, bytes });
      } else {
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        fields.set(part.fieldname, [...(fields.get(part.fieldname) ?? []), value]);
      }
    }
  } catch (error) {
    // More parts than the operation takes is a malformed request (400), not a too large one (413).
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw new DomainError('PLEASE_CHECK_REQUEST_DATA', [{ field: 'file', code: 'maxItems' }]);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw new DomainError('PLEASE_CHECK_REQUEST_DATA', [{ field: '', code: 'maxItems' }]);
    // The plugin's own refusals carry a code and a status (a file over the size limit: 413).
    if (typeof code === 'string' && code.startsWith('FST_')) throw error;
    // Anything else here is the body failing to parse as multipart (busboy's plain errors: no boundary,
    // a body that ends before its closing boundary, a malformed part header): bad request data.
    throw new DomainError('PLEASE_CHECK_REQUEST_DATA');
  }
  return { fields, files };
}

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; [key: string]: unknown };

const partValidators = new Map<string, ValidateFunction>();

function multipartSchema(operationId: string): JsonSchema {
  const operation = listOperations().find((op) => op.operationId === operationId);
  const schema = operation?.operation.requestBody?.content['multipart/form-data']?.schema as JsonSchema | undefined;
  if (!schema) throw new Error(`${operationId} has no multipart/form-data body in openapi.yaml`);
  return schema;
}

/**
 * Checks the parts against the operation's multipart schema in openapi.yaml (the same file the JSON
 * routes are validated from). File parts are checked for presence and count here, for content elsewhere.
 */
export function checkParts(operationId: string, form: MultipartForm): void {
  const schema = multipartSchema(operationId);
  let validator = partValidators.get(operationId);
  if (!validator) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const spec = loadOpenApi();
    ajv.addSchema({ components: spec.components } as object, 'openapi.yaml');
    const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.yaml#/components/')) as object;
    validator = ajv.compile(rewritten);
    partValidators.set(operationId, validator);
  }
  const value: Record<string, unknown> = {};
  const names = new Set([...form.fields.keys(), ...form.files.map((f) => f.field)]);
  for (const name of names) {
    const texts = form.fields.get(name) ?? [];
    const files = form.files.filter((f) => f.field === name).map(() => 'file');
    const all = [...texts, ...files];
    const isArray = schema.properties?.[name]?.type === 'array';
    value[name] = isArray || all.length > 1 ? all : all[0];
  }
  if (!validator(value)) {
    const fields = (validator.errors ?? []).map((error) => {
      const params = error.params as Record<string, unknown>;
      const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
      if (error.keyword === 'required') return { field: String(params.missingProperty), code: 'required' };
      if (error.keyword === 'additionalProperties') return { field: String(params.additionalProperty), code: 'unknownField' };
      // A label id that is not an id written in decimal names no label.
      if (/^documentLabelId(\.\d+)?$/.test(base) && (error.keyword === 'pattern' || error.keyword === 'maxLength')) {
        return { field: base, code: 'documentLabel' };
      }
      return { field: base, code: schemaRuleCode(base, error) ?? error.keyword };
    });
    throw new DomainError('PLEASE_CHECK_REQUEST_DATA', fields);
  }
}
