/**
 * The shared plumbing of server/app.ts on the failures no well-behaved handler produces: an unexpected
 * exception, an answer that breaks openapi.yaml, an error carrying field issues the contract cannot hold,
 * a session whose account is gone, and routes that are not operations. Every answer is still the
 * envelope, checked against openapi.yaml by the test helpers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../server/domain/errors.ts';
import type { JsonHandlers } from '../../server/http/types.ts';
import { registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';

let server: TestServer;
let healthMode: 'throw' | 'break contract' | 'odd fields' | 'undeclared status' = 'throw';

// getHealth stands for any JSON operation: its handler is replaced by one that misbehaves on demand.
const overrideHandlers: JsonHandlers = {
  getHealth: async () => {
    if (healthMode === 'throw') throw new Error('database password is hunter2');
    if (healthMode === 'undeclared status') throw new DomainError('EMAIL_ALREADY_EXISTS');
    if (healthMode === 'odd fields') {
      throw new DomainError('PLEASE_CHECK_REQUEST_DATA', [
        { field: 'x'.repeat(500), code: 'not a rule code!' },
        ...Array.from({ length: 150 }, (_, index) => ({ field: `item.${index}`, code: 'required' })),
      ]);
    }
    return { status: 42 } as never;
  },
};

beforeAll(async () => {
  server = await startTestServer({}, { overrideHandlers });
});
afterAll(async () => server?.close());

describe('failures inside an operation', () => {
  it('answers an unexpected exception with 500 INTERNAL_SERVER_ERROR, without its message', async () => {
    healthMode = 'throw';
    const result = await server.call('getHealth');
    expect(result.status).toBe(500);
    expect(result.body).toEqual({ data: {}, errors: [{ name: 'InternalServerError', description: 'INTERNAL_SERVER_ERROR' }] });
    expect(JSON.stringify(result.body)).not.toContain('hunter2');
  });

  it('answers with 500 RESPONSE_VALIDATION_FAILED rather than send an answer that breaks openapi.yaml', async () => {
    healthMode = 'break contract';
    const result = await server.call('getHealth');
    expect(result.status).toBe(500);
    expect(result.body.errors[0]).toEqual({ name: 'InternalServerError', description: 'RESPONSE_VALIDATION_FAILED' });
  });

  it('answers 500 RESPONSE_VALIDATION_FAILED rather than a status the operation does not declare', async () => {
    healthMode = 'undeclared status';
    const result = await server.call('getHealth');
    expect(result.status).toBe(500);
    expect(result.body.errors[0]).toEqual({ name: 'InternalServerError', description: 'RESPONSE_VALIDATION_FAILED' });
  });

  it('keeps field issues within the contract: 100 at most, fields of 200 characters, rule codes of letters', async () => {
    healthMode = 'odd fields';
    const result = await server.call('getHealth');
    expect(result.status).toBe(400);
    const fields = result.body.errors[0].fields as { field: string; code: string }[];
    expect(fields).toHaveLength(100);
    expect(fields[0]).toEqual({ field: 'x'.repeat(200), code: 'invalid' });
    expect(fields[1]).toEqual({ field: 'item.0', code: 'required' });
  });
});

describe('sessions', () => {
  it('answers 401 User_Not_Exists_Error_Type to a live session whose account no longer exists', async () => {
    const { token, user } = await registeredPlayer(server);
    expect((await server.call('userGetUser', { token })).status).toBe(200);
    // No operation deletes accounts, and foreign keys keep the session from outliving its account: drop
    // them (this file's own database, and the owner may) and delete the row, as an operator might.
    const references = await server.db.query<{ tbl: string; name: string }>(
      `SELECT conrelid::regclass::text AS tbl, conname AS name FROM pg_constraint WHERE contype = 'f' AND confrelid = 'users'::regclass`,
    );
    for (const { tbl, name } of references) await server.db.query(`ALTER TABLE ${tbl} DROP CONSTRAINT "${name}"`);
    await server.db.query('DELETE FROM users WHERE id = $1', [user.id]);
    const result = await server.call('userGetUser', { token });
    expect(result.status).toBe(401);
    expect(result.body.errors[0]).toEqual({ name: 'Unauthorized', description: 'User_Not_Exists_Error_Type' });
  });
});

describe('requests that are no operation', () => {
  it.each([
    ['GET', '/api/v1/no-such-operation'],
    ['POST', '/api/v1/user/get-user'],
    ['DELETE', '/api/v1/user/logout'],
  ] as const)('answers %s %s with the 404 NOT_FOUND envelope', async (method, url) => {
    const result = await server.app.inject({ method, url });
    expect(result.statusCode).toBe(404);
    expect(result.headers['content-type']).toMatch(/^application\/json/);
    expect(result.json()).toEqual({ data: {}, errors: [{ name: 'NotFound', description: 'NOT_FOUND' }] });
  });
});
