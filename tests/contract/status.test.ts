import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DomainError } from '../../server/domain/errors.ts';
import { HTTP_STATUS } from '../../server/http/status.ts';

/*
 * The code → HTTP status table (server/http/status.ts) against openapi.yaml: every ErrorCode has a status,
 * and it is the one the contract's table gives it ("Status | Name | Codes" in the API description); the
 * business rules it leaves unnamed are 422.
 */

const spec = parse(readFileSync('openapi.yaml', 'utf8')) as {
  info: { description: string };
  components: { schemas: { ErrorCode: { enum: string[] } } };
};
const codes = spec.components.schemas.ErrorCode.enum;

/** The codes each row of the description's table names, by status. */
function contractTable(): Map<string, number> {
  const table = new Map<string, number>();
  for (const line of spec.info.description.split('\n')) {
    const row = /^\|\s*(\d{3})\s*\|\s*\w+\s*\|(.*)\|\s*$/.exec(line);
    if (!row) continue;
    for (const word of row[2]!.split(/[^A-Za-z_]+/)) if (codes.includes(word)) table.set(word, Number(row[1]));
  }
  return table;
}

describe('the HTTP status of each error code', () => {
  it('covers exactly the codes of openapi.yaml', () => {
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...codes].sort());
  });

  it("is the status openapi.yaml's table gives the code, 422 for the business rules it does not name", () => {
    const table = contractTable();
    expect(table.size).toBeGreaterThan(30);
    const differences = codes.flatMap((code) => {
      const expected = table.get(code) ?? 422;
      const actual = HTTP_STATUS[code as keyof typeof HTTP_STATUS];
      return actual === expected ? [] : [`${code}: ${actual}, openapi.yaml says ${expected}`];
    });
    expect(differences).toEqual([]);
  });

  it('lets the domain refuse by code alone', () => {
    const refusal = new DomainError('INSUFFICIENT_BALANCE');
    expect(Object.keys(refusal)).not.toContain('statusCode');
    expect(HTTP_STATUS[refusal.code]).toBe(422);
  });
});
