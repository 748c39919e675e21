import { Ajv2020 } from 'ajv/dist/2020.js';
import type { AnySchema, ValidateFunction } from 'ajv';

/**
 * Each test server builds an app of its own (tests/helpers/api.ts), and each app makes new Ajv instances
 * that compile again every request and response schema its requests meet (server/app.ts compiles a schema
 * at its first use), the same code every time. Within a worker, a schema compiled once with
 * the same Ajv options gives the same validator, so it is kept and handed to the next app. Only schemas
 * without an `$id` are kept: one that registers itself for others' `$ref`s is compiled by each instance.
 */
const compiled = new Map<string, ValidateFunction>();
const optionKeys = ['strict', 'allErrors', 'coerceTypes', 'useDefaults', 'removeAdditional', 'verbose', 'discriminator', 'allowUnionTypes'] as const;
const instanceKeys = new WeakMap<object, string>();
// Ajv's core class, which the server's Ajv2020 instances compile with.
const prototype = Object.getPrototypeOf(Ajv2020.prototype) as { compile(schema: AnySchema, meta?: boolean): ValidateFunction; __testCache?: true };

if (!prototype.__testCache) {
  const compile = prototype.compile;
  prototype.__testCache = true;
  prototype.compile = function (this: { opts: Record<string, unknown>; formats: Record<string, unknown> }, schema: AnySchema, meta?: boolean) {
    const text = typeof schema === 'object' && !meta ? JSON.stringify(schema) : undefined;
    if (text === undefined || text.includes('"$id"')) return compile.call(this, schema, meta);
    let options = instanceKeys.get(this);
    if (options === undefined) {
      options = JSON.stringify([optionKeys.map((key) => this.opts[key] ?? null), Object.keys(this.formats).sort()]);
      instanceKeys.set(this, options);
    }
    const key = `${options}\n${text}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = compile.call(this, schema, meta);
      compiled.set(key, validate);
    }
    return validate;
  };
}
