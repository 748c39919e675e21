import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  FLOW_FALLBACK_KEYS,
  SERVER_FIELD_CODES,
  UNKNOWN_RULE_KEY,
  errorCodeOf,
  errorMessageKey,
  fieldErrorKeys,
  fieldErrorsOf,
  isErrorCode,
  ruleMessageKey,
  type FlowFallback,
} from '../../src/api/errors.ts';
import { en } from '../../src/i18n/en.ts';
import { createTranslator, messageAt } from '../../src/i18n/index.ts';
import { RULE_CODES } from '../../src/rules/codes.ts';

const envelope = (description: unknown, extra: Record<string, unknown> = {}) => ({
  data: {},
  errors: [{ name: 'UnprocessableEntity', description, ...extra }],
});

const english = createTranslator('en');

describe('errorCodeOf', () => {
  it('reads errors[0].description of an error envelope', () => {
    expect(errorCodeOf(envelope('WRONG_PASSWORD'))).toBe('WRONG_PASSWORD');
    expect(errorCodeOf(envelope('User_Not_Exists_Error_Type'))).toBe('User_Not_Exists_Error_Type');
    expect(
      errorCodeOf({ data: {}, errors: [{ name: 'Conflict', description: 'EMAIL_ALREADY_EXISTS' }, { name: 'X', description: 'WRONG_PASSWORD' }] }),
    ).toBe('EMAIL_ALREADY_EXISTS');
  });

  it('is null for a code the catalogue does not know', () => {
    expect(errorCodeOf(envelope('SOMETHING_NEW'))).toBeNull();
    expect(errorCodeOf(envelope('wrong_password'))).toBeNull();
    expect(errorCodeOf(envelope('toString'))).toBeNull();
    expect(errorCodeOf(envelope('__proto__'))).toBeNull();
  });

  it('is null for anything that is not an error envelope', () => {
    const bodies: unknown[] = [
      undefined,
      null,
      '',
      'WRONG_PASSWORD',
      42,
      true,
      [],
      ['WRONG_PASSWORD'],
      {},
      { errors: [] },
      { errors: null },
      { errors: 'WRONG_PASSWORD' },
      { errors: {} },
      { errors: [null] },
      { errors: ['WRONG_PASSWORD'] },
      { errors: [{}] },
      { errors: [{ description: 7 }] },
      { errors: [{ description: { code: 'WRONG_PASSWORD' } }] },
      { data: { success: true }, errors: [] },
      '<html>502 Bad Gateway</html>',
    ];
    for (const body of bodies) expect(errorCodeOf(body), JSON.stringify(body)).toBeNull();
  });
});

describe('errorMessageKey', () => {
  const flows: Record<FlowFallback, string> = {
    login: 'Failed to login',
    signup: 'Something went wrong!',
    verification: 'Verification Failed',
    limits: 'Something went wrong',
    bonus: 'Something went wrong.',
    documentUpload: 'Failed to upload document',
    default: 'Internal Server Error!',
  };

  it('maps a known code to its catalogue message, whatever the flow', () => {
    for (const flow of Object.keys(flows) as FlowFallback[]) {
      expect(errorMessageKey('WRONG_PASSWORD', flow)).toBe('errors.codes.WRONG_PASSWORD');
    }
    expect(english.t(errorMessageKey('WRONG_PASSWORD', 'login'))).toBe('Wrong Password!');
    expect(english.t(errorMessageKey('ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED', 'default'))).toBe('Session expired. Please login again.');
    expect(english.t(errorMessageKey('MONTHLY_LOSS_LIMIT_EXCEEDED', 'default'))).toBe('Monthly loss limit exceeded');
  });

  it('words an inactive account its SPEC §6 way at login, and the catalogue way elsewhere', () => {
    expect(english.t(errorMessageKey('USER_INACTIVE', 'login'))).toBe('User Account Inactivated By Admin');
    expect(english.t(errorMessageKey('USER_INACTIVE', 'default'))).toBe('User Inactive');
    expect(english.t(errorMessageKey('USER_INACTIVE', 'signup'))).toBe('User Inactive');
  });

  it("falls back to the flow's SPEC §8 message for no code or an unknown one", () => {
    for (const [flow, text] of Object.entries(flows) as [FlowFallback, string][]) {
      expect(english.t(errorMessageKey(null, flow)), flow).toBe(text);
      expect(english.t(errorMessageKey(undefined, flow)), flow).toBe(text);
      expect(english.t(errorMessageKey('SOMETHING_NEW', flow)), flow).toBe(text);
      expect(english.t(errorMessageKey('constructor', flow)), flow).toBe(text);
      expect(errorMessageKey('', flow)).toBe(FLOW_FALLBACK_KEYS[flow]);
    }
  });

  it('composes with errorCodeOf', () => {
    expect(errorMessageKey(errorCodeOf(envelope('BONUS_ALREADY_AVAILED')), 'bonus')).toBe('errors.codes.BONUS_ALREADY_AVAILED');
    expect(errorMessageKey(errorCodeOf('<html/>'), 'bonus')).toBe('errors.bonusFailed');
  });

  it('knows exactly the ErrorCode enum of openapi.yaml', () => {
    const spec = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as {
      components: { schemas: { ErrorCode: { enum: string[] } } };
    };
    const codes = spec.components.schemas.ErrorCode.enum;
    expect([...ERROR_CODES].sort()).toEqual([...codes].sort());
    for (const code of codes) {
      expect(isErrorCode(code)).toBe(true);
      expect(messageAt(en, errorMessageKey(code, 'default'))).toBeTruthy();
    }
    expect(isErrorCode('hasOwnProperty')).toBe(false);
    expect(isErrorCode(null)).toBe(false);
  });
});

describe('ruleMessageKey', () => {
  it('gives every RuleCode a message, including codes that prefix others', () => {
    for (const code of RULE_CODES) {
      const key = ruleMessageKey(code);
      expect(key, code).not.toBeNull();
      expect(messageAt(en, key as string), code).toBeTruthy();
    }
    expect(ruleMessageKey('amount.max')).toBe('rules.amount.max');
    expect(ruleMessageKey('password.minLength')).toBe('rules.password.minLength');
    expect(english.t(ruleMessageKey('password.minLength')!)).toBe('At least 8 characters');
    expect(ruleMessageKey('username')).toBe('rules.username.invalid');
    expect(ruleMessageKey('username.length')).toBe('rules.username.length');
  });

  it('gives the server-only field codes a message', () => {
    for (const code of SERVER_FIELD_CODES) {
      const key = ruleMessageKey(code);
      expect(key, code).not.toBeNull();
      expect(messageAt(en, key as string), code).toBeTruthy();
    }
  });

  it('is null for codes outside the catalogue', () => {
    for (const code of ['pattern', 'rules.required', 'password', 'amount', '', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(ruleMessageKey(code), code).toBeNull();
    }
  });

  it('covers every field code written in the server source', () => {
    const files = readdirSync(new URL('../../server', import.meta.url), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(join(new URL('../../server', import.meta.url).pathname, file), 'utf8'));
    const written = new Set<string>();
    for (const source of files) {
      for (const match of source.matchAll(/\{\s*field:[^{}]*?code:\s*'([A-Za-z.]+)'\s*\}/g)) written.add(match[1]!);
    }
    expect(written.size).toBeGreaterThan(5);
    expect([...written].filter((code) => ruleMessageKey(code) === null)).toEqual([]);
  });
});

describe('fieldErrorKeys and fieldErrorsOf', () => {
  it('groups message keys by field, in order, without repeats', () => {
    expect(
      fieldErrorKeys([
        { field: 'password', code: 'password.uppercase' },
        { field: 'password', code: 'password.number' },
        { field: 'email', code: 'email' },
        { field: 'password', code: 'password.uppercase' },
        { field: 'deposit.weekly', code: 'limits.order' },
        { field: '', code: 'address.limit' },
      ]),
    ).toEqual({
      password: ['rules.password.uppercase', 'rules.password.number'],
      email: ['rules.email'],
      'deposit.weekly': ['rules.limits.order'],
      '': ['rules.address.limit'],
    });
  });

  it("shows an uncatalogued code as 'Invalid value'", () => {
    expect(fieldErrorKeys([{ field: 'x', code: 'pattern' }, { field: 'x', code: 'minimum' }])).toEqual({ x: [UNKNOWN_RULE_KEY] });
    expect(english.t(UNKNOWN_RULE_KEY)).toBe('Invalid value');
  });

  it('is empty for no fields', () => {
    expect(fieldErrorKeys(undefined)).toEqual({});
    expect(fieldErrorKeys(null)).toEqual({});
    expect(fieldErrorKeys([])).toEqual({});
  });

  it('reads the fields of every error of an envelope, skipping malformed entries', () => {
    const body = {
      data: {},
      errors: [
        {
          name: 'BadRequest',
          description: 'PLEASE_CHECK_REQUEST_DATA',
          fields: [{ field: 'email', code: 'email' }, { field: 'zip' }, null, 'x', { field: 1, code: 'zip' }, { field: 'zipCode', code: 'zip' }],
        },
        { name: 'BadRequest', description: 'PLEASE_CHECK_REQUEST_DATA', fields: 'nope' },
        { name: 'BadRequest', description: 'PLEASE_CHECK_REQUEST_DATA', fields: [{ field: 'file.1', code: 'file.size' }] },
      ],
    };
    expect(fieldErrorsOf(body)).toEqual([
      { field: 'email', code: 'email' },
      { field: 'zipCode', code: 'zip' },
      { field: 'file.1', code: 'file.size' },
    ]);
    for (const other of [null, undefined, 'x', {}, { errors: 'x' }, envelope('WRONG_PASSWORD')]) expect(fieldErrorsOf(other)).toEqual([]);
  });
});
