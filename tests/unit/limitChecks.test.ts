import { describe, expect, it } from 'vitest';
import { LIMIT_PERIODS, limitPeriodCodes } from '../../src/rules/limitChecks.ts';
import { LimitPeriods } from '../../src/rules/limits.ts';
import { codesByField, validate } from '../../src/rules/validate.ts';

/*
 * The limits form checks with src/rules/limitChecks.ts alone; the server with the struct of
 * src/rules/limits.ts. They must say the same of every form.
 */

const VALUES = ['', ' ', '1', '5', '0', '0.00000000', '-1', 'abc', '1e3', '0.123456789', '5.', '010', '1'.repeat(23), '10', '0.5', '15'];

describe('limitPeriodCodes', () => {
  it('reports per period what validate(LimitPeriods) reports, for every form of three values from the samples', () => {
    for (const daily of VALUES) {
      for (const weekly of VALUES) {
        for (const monthly of ['', '5', '0', '15', 'abc']) {
          const form = { daily, weekly, monthly };
          const result = validate(LimitPeriods, form);
          const byField = result.ok ? {} : codesByField(result.fields);
          const expected = Object.fromEntries(LIMIT_PERIODS.map((period) => [period, byField[period] ?? []]));
          expect(limitPeriodCodes(form), JSON.stringify(form)).toEqual(expected);
        }
      }
    }
  });

  it('reports a broken order on the later period, and zero as not positive', () => {
    expect(limitPeriodCodes({ daily: '5', weekly: '2', monthly: '' })).toEqual({ daily: [], weekly: ['limits.order'], monthly: [] });
    expect(limitPeriodCodes({ daily: '0', weekly: '', monthly: '' })).toEqual({ daily: ['limits.positive'], weekly: [], monthly: [] });
  });
});
