import type { ErrorObject } from 'ajv';
import type { RuleCode } from '../../src/rules/codes.ts';
import { amountIssue } from '../../src/rules/amount.ts';
import { ADDRESS_MAX_LENGTH } from '../../src/rules/user.ts';

/**
 * Request validation against openapi.yaml runs before the handlers' own rules (src/rules), and several
 * SPEC §5 rules are written in both places (the username pattern, the email format, maximum lengths).
 * A value the schema refuses must still be reported with the rule catalogue's code, which the SPA
 * translates, not with Ajv's keyword ('pattern', 'format', ...): this table names, per request member,
 * the rule each schema keyword stands for.
 */
type KeywordCodes = Partial<
  Record<string, RuleCode | ((params: Record<string, unknown>, data: unknown) => RuleCode | null)>
>;

const password: KeywordCodes = { maxLength: 'password.maxLength' };

/**
 * An `Amount` the schema refuses (sign, exponent, 9 decimals, letters, too long): the amount rule's own
 * code for the value (Ajv errors carry it, the request validators are verbose), else 'amount.format'.
 * A well-formed amount refused all the same is over a narrower ceiling (`ProviderAmount`): 'amount.max'.
 */
const amountCode =
  (positiveCode: 'amount.positive' | 'limits.positive') =>
  (_params: Record<string, unknown>, data: unknown): RuleCode => {
    const issue = typeof data === 'string' ? amountIssue(data, { positiveCode }) : null;
    // '' is refused by the schema; an optional limit that is sent must be a number, as in src/rules/limits.ts.
    if (issue === 'required' && positiveCode === 'limits.positive') return 'amount.format';
    if (issue === null && typeof data === 'string') return 'amount.max';
    return issue ?? 'amount.format';
  };
const transferAmount: KeywordCodes = { pattern: amountCode('amount.positive'), maxLength: amountCode('amount.positive') };
const limitAmount: KeywordCodes = { pattern: amountCode('limits.positive'), maxLength: amountCode('limits.positive') };
const personName: KeywordCodes = { maxLength: 'name.length' };

const CODES_BY_FIELD: Record<string, KeywordCodes> = {
  email: { format: 'email', maxLength: 'email', pattern: 'email' },
  username: { pattern: 'username', minLength: 'username.length', maxLength: 'username.length' },
  firstName: personName,
  middleName: personName,
  lastName: personName,
  city: { maxLength: 'city.length' },
  phone: { pattern: 'phone', maxLength: 'phone.length' },
  phoneCode: { pattern: 'phoneCode', maxLength: 'phoneCode' },
  dateOfBirth: { format: 'date' },
  // Transaction and bet history filters.
  startDate: { format: 'date' },
  endDate: { format: 'date' },
  gender: { enum: 'gender' },
  stateCode: { maxLength: 'state', pattern: 'state' },
  countryCode: { maxLength: 'country', pattern: 'country' },
  zipCode: { maxLength: 'zip', pattern: 'zip' },
  referralCode: { maxLength: 'referralCode', pattern: 'referralCode' },
  label: { maxLength: 'addressLabel' },
  // 'address' is also a withdrawal's crypto address, which has other bounds.
  address: { maxLength: (params) => (params.limit === ADDRESS_MAX_LENGTH ? 'address.length' : null) },
  amount: transferAmount,
  daily: limitAmount,
  weekly: limitAmount,
  monthly: limitAmount,
  password,
  confirmPassword: password,
  oldPassword: password,
  newPassword: password,
};

/** The rule code for one Ajv error on a request member (`field` is its dotted path), when there is one. */
export function schemaRuleCode(field: string, error: Partial<ErrorObject>): RuleCode | null {
  const keyword = error.keyword ?? '';
  const params = (error.params ?? {}) as Record<string, unknown>;
  // A string that must not be empty: the catalogue's 'required' covers ''.
  if (keyword === 'minLength' && params.limit === 1) return 'required';
  const name = field.slice(field.lastIndexOf('.') + 1);
  const code = CODES_BY_FIELD[name]?.[keyword];
  if (typeof code === 'function') return code(params, error.data);
  return code ?? null;
}

/**
 * Drops what Ajv adds for optional members written `anyOf: [X, {type: 'null'}]`: the 'anyOf' summary and
 * "must be null" from the null branch, which would otherwise come with every real failure of X.
 */
export function withoutNullAlternatives<E extends Partial<ErrorObject>>(errors: readonly E[]): E[] {
  const isNullBranch = (error: E) =>
    error.keyword === 'type' && (error.params as { type?: unknown } | undefined)?.type === 'null';
  return errors.filter((error) => {
    if (error.keyword === 'anyOf') {
      return !errors.some((other) => other !== error && other.instancePath === error.instancePath && other.keyword !== 'anyOf');
    }
    if (!isNullBranch(error)) return true;
    return !errors.some((other) => other.instancePath === error.instancePath && other.keyword !== 'anyOf' && !isNullBranch(other));
  });
}
