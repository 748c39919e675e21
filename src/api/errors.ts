/**
 * The one error catalogue (SPEC §8, ARCHITECTURE "Errors"): a server code, or a field's rule code, to the
 * key of its translated message, else the flow's fallback. Pure: machines keep codes in context, views
 * translate the keys these functions return. Only types come from src/i18n, so no string reaches a machine.
 */
import type { components } from './schema.d.ts';
import type { RuleCode } from '../rules/codes.ts';
import type { en } from '../i18n/en.ts';
import type { MessageKey } from '../i18n/index.ts';
import { firstErrorOf, isRecord } from './envelope.ts';

/** `errors[].description` of the error envelope: the `ErrorCode` enum of openapi.yaml. */
export type ErrorCode = components['schemas']['ErrorCode'];

/** One per-field failure as the server sends it (`errors[].fields`); `code` is a rule code, or another check's. */
export type ApiFieldError = components['schemas']['FieldError'];

/**
 * Every code of the enum, once. A Record, so the compiler rejects a missing or an unknown code when
 * openapi.yaml changes and src/api/schema.d.ts is regenerated.
 */
const KNOWN_ERROR_CODES: Record<ErrorCode, true> = {
  USERNAME_OR_EMAIL_ALREADY_EXISTS: true,
  WRONG_PASSWORD: true,
  USER_DOES_NOT_EXISTS: true,
  PLEASE_CHECK_REQUEST_DATA: true,
  INTERNAL_SERVER_ERROR: true,
  RESPONSE_VALIDATION_FAILED: true,
  USER_INACTIVE: true,
  EMAIL_NOT_VERIFIED: true,
  SESSION_EXPIRED: true,
  USERNAME_IS_TAKEN: true,
  INVALID_VALUE: true,
  NOT_ENOUGH_AMOUNT: true,
  INVALID_BONUS_ID: true,
  INVALID_BONUS: true,
  BONUS_ALREADY_ACTIVE: true,
  CASHOUT_NOT_ALLOWED: true,
  FILE_FORMAT_NOT_SUPPORTED: true,
  DAILY_BET_LIMIT_EXCEEDED: true,
  WEEKLY_BET_LIMIT_EXCEEDED: true,
  MONTHLY_BET_LIMIT_EXCEEDED: true,
  ADDRESS_ALREADY_EXISTS: true,
  INSUFFICIENT_BALANCE: true,
  BONUS_ALREADY_AVAILED: true,
  EMAIL_ALREADY_VERIFIED: true,
  REFERRAL_CODE_NOT_FOUND: true,
  User_Not_Exists_Error_Type: true,
  GAME_NOT_FOUND_ERROR: true,
  COIN_PAYMENTS_SERVER_ERROR: true,
  PAYMENT_ERROR: true,
  PAYMENT_ERROR_PLEASE_CONTACT_ADMIN: true,
  MINIMUM_WITHDRAW_AMOUNT_LIMIT: true,
  MAXIMUM_WITHDRAW_AMOUNT_LIMIT: true,
  MINIMUM_DEPOSIT_AMOUNT_LIMIT: true,
  MAXIMUM_DEPOSIT_AMOUNT_LIMIT: true,
  PAYMENT_PROVIDER_LIMITS_NOT_EXISTS: true,
  PAYMENT_PROVIDER_WITHDRAW_NOT_ALLOWED: true,
  PAYMENT_PROVIDER_DEPOSIT_NOT_ALLOWED: true,
  EMAIL_ALREADY_EXISTS: true,
  PHONE_IS_TAKEN: true,
  CURRENCY_NOT_AVAILABLE: true,
  REFERRAL_LIMIT_EXCEEDED: true,
  DEPOSIT_LIMIT_EXCEED: true,
  WITHDRAWAL_REQUEST_IN_PENDING: true,
  ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED: true,
  SELF_EXCLUDED: true,
  FORBIDDEN: true,
  NOT_FOUND: true,
  RATE_LIMITED: true,
  FILE_TOO_LARGE: true,
  UNSUPPORTED_MEDIA_TYPE: true,
  INVALID_TOKEN: true,
  SOCIAL_LOGIN_FAILED: true,
  SOCIAL_LOGIN_NOT_CONFIGURED: true,
  DOCUMENT_ALREADY_SUBMITTED: true,
  PROFILE_INCOMPLETE: true,
  DAILY_LOSS_LIMIT_EXCEEDED: true,
  WEEKLY_LOSS_LIMIT_EXCEEDED: true,
  MONTHLY_LOSS_LIMIT_EXCEEDED: true,
  INVALID_ADDRESS: true,
  SAME_PASSWORD: true,
  INVALID_SIGNATURE: true,
  IDEMPOTENCY_KEY_REUSED: true,
  GAME_WALLET_UNAVAILABLE: true,
  ROUND_IN_PROGRESS: true,
  ROUND_NOT_OPEN: true,
  SELF_REFERRAL: true,
};

export const ERROR_CODES: readonly ErrorCode[] = Object.keys(KNOWN_ERROR_CODES) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(KNOWN_ERROR_CODES, value);
}

/** The dictionary holds exactly the enum's codes: compile-time checks in both directions. */
type CatalogueKey = `errors.codes.${ErrorCode}`;
type DictionaryCode = keyof (typeof en)['errors']['codes'];
const _noUnknownCodeInDictionary: [DictionaryCode] extends [ErrorCode] ? true : never = true;
void _noUnknownCodeInDictionary;

function catalogueKey(code: ErrorCode): MessageKey {
  // Fails to compile when an ErrorCode has no message in src/i18n/en.ts.
  const key: CatalogueKey = `errors.codes.${code}`;
  return key;
}

/** Per-flow fallbacks of SPEC §8 "Behaviour per flow". */
export type FlowFallback = 'login' | 'signup' | 'verification' | 'limits' | 'bonus' | 'documentUpload' | 'default';

export const FLOW_FALLBACK_KEYS: Readonly<Record<FlowFallback, MessageKey>> = {
  login: 'errors.loginFailed', // 'Failed to login'
  signup: 'errors.signupFailed', // 'Something went wrong!'
  verification: 'errors.verificationFailed', // 'Verification Failed'
  limits: 'errors.limitsFailed', // 'Something went wrong'
  bonus: 'errors.bonusFailed', // 'Something went wrong.' (claim, referral claim, forfeit)
  documentUpload: 'messages.documentUploadFailed', // 'Failed to upload document'
  default: 'errors.fallback', // 'Internal Server Error!' (also a withdrawal without spendRequestId)
};


/**
 * The code of an error envelope (`errors[0].description`), or null for anything else: no body, HTML from
 * a proxy, a success envelope, or a code this SPA does not know.
 */
export function errorCodeOf(body: unknown): ErrorCode | null {
  const description = firstErrorOf(body)?.description;
  return isErrorCode(description) ? description : null;
}

/**
 * Codes a flow words its own way. SPEC §6: a login refused because an admin inactivated the account says
 * "User Account Inactivated By Admin", where the catalogue's USER_INACTIVE message is "User Inactive".
 */
const FLOW_MESSAGE_KEYS: Readonly<Partial<Record<FlowFallback, Partial<Record<ErrorCode, MessageKey>>>>> = {
  login: { USER_INACTIVE: 'messages.inactive' },
};

/**
 * The message key for a failed call: the flow's own wording of the code, else the code's message when the
 * catalogue has it, else the flow's fallback.
 */
export function errorMessageKey(code: string | null | undefined, fallback: FlowFallback): MessageKey {
  if (!isErrorCode(code)) return FLOW_FALLBACK_KEYS[fallback];
  return FLOW_MESSAGE_KEYS[fallback]?.[code] ?? catalogueKey(code);
}

/**
 * Field codes the server sends besides src/rules' RuleCode: its own checks (see `FieldError` in
 * openapi.yaml and server/http) that have no client-side rule.
 */
export const SERVER_FIELD_CODES = [
  'documentLabel',
  'duplicate',
  'address.limit',
  'file.dimensions', // an image of more than 8000 pixels on a side (server/domain/images.ts)
  'selfExclusion.range',
  'selfReferral', // a sign-up with the referral code of an account with the same mailbox (SELF_REFERRAL)
  'count',
  'maxItems',
  'mismatch',
  'dateRange',
  // The house games' parameters (server/games, src/fairness).
  'dice.target',
  'dice.direction',
  'dice.chance',
  'limbo.target',
  'plinko.rows',
  'plinko.risk',
  'mines.count',
  'clientSeed',
] as const;
export type ServerFieldCode = (typeof SERVER_FIELD_CODES)[number];
export type FieldCode = RuleCode | ServerFieldCode;

/**
 * Rule code → message key. Mostly `rules.<code>`, but rosetta reads dots as paths, so a code that is also
 * the prefix of others ('username' beside 'username.length') keeps its message under `.invalid`.
 * A Record over FieldCode: a RuleCode added in src/rules without a message does not compile.
 */
const RULE_MESSAGE_KEYS: Readonly<Record<FieldCode, MessageKey>> = {
  required: 'rules.required',
  type: 'rules.type',
  unknownField: 'rules.unknownField',
  email: 'rules.email',
  username: 'rules.username.invalid',
  'username.length': 'rules.username.length',
  loginId: 'rules.loginId',
  referralCode: 'rules.referralCode',
  'password.minLength': 'rules.password.minLength',
  'password.maxLength': 'rules.password.maxLength',
  'password.uppercase': 'rules.password.uppercase',
  'password.lowercase': 'rules.password.lowercase',
  'password.number': 'rules.password.number',
  'password.special': 'rules.password.special',
  'password.noSpaces': 'rules.password.noSpaces',
  'password.printable': 'rules.password.printable',
  'password.encoding': 'rules.password.encoding',
  'confirmPassword.mismatch': 'rules.confirmPassword.mismatch',
  'newPassword.sameAsOld': 'rules.newPassword.sameAsOld',
  name: 'rules.name.invalid',
  'name.length': 'rules.name.length',
  date: 'rules.date',
  age: 'rules.age',
  gender: 'rules.gender',
  phone: 'rules.phone.invalid',
  'phone.length': 'rules.phone.length',
  phoneCode: 'rules.phoneCode',
  address: 'rules.address.invalid',
  'address.length': 'rules.address.length',
  addressLabel: 'rules.addressLabel',
  city: 'rules.city.invalid',
  'city.length': 'rules.city.length',
  state: 'rules.state',
  country: 'rules.country',
  zip: 'rules.zip',
  'amount.format': 'rules.amount.format',
  'amount.decimals': 'rules.amount.decimals',
  'amount.positive': 'rules.amount.positive',
  'amount.max': 'rules.amount.max',
  'limits.positive': 'rules.limits.positive',
  'limits.order': 'rules.limits.order',
  'file.type': 'rules.file.type',
  'file.size': 'rules.file.size',
  'file.empty': 'rules.file.empty',
  'file.dimensions': 'rules.file.dimensions',
  documentLabel: 'rules.documentLabel',
  duplicate: 'rules.duplicate',
  'address.limit': 'rules.address.limit',
  'selfExclusion.range': 'rules.selfExclusion.range',
  selfReferral: 'rules.selfReferral',
  count: 'rules.count',
  maxItems: 'rules.maxItems',
  mismatch: 'rules.mismatch',
  dateRange: 'rules.dateRange',
  'dice.target': 'rules.dice.target',
  'dice.direction': 'rules.dice.direction',
  'dice.chance': 'rules.dice.chance',
  'limbo.target': 'rules.limbo.target',
  'plinko.rows': 'rules.plinko.rows',
  'plinko.risk': 'rules.plinko.risk',
  'mines.count': 'rules.mines.count',
  clientSeed: 'rules.clientSeed',
};

/** For a code nobody catalogued (a schema keyword the server passes through, such as 'pattern'). */
export const UNKNOWN_RULE_KEY: MessageKey = 'rules.invalid';

/** The message key of one field rule code, or null when the code is not in the catalogue. */
export function ruleMessageKey(code: string): MessageKey | null {
  return Object.hasOwn(RULE_MESSAGE_KEYS, code) ? RULE_MESSAGE_KEYS[code as FieldCode] : null;
}

/** Translated messages of a field's rule codes, in order, without repeats (an uncatalogued code: 'Invalid value'). */
export function fieldMessages(t: (key: MessageKey) => string, codes: readonly string[] | undefined): string[] {
  return [...new Set((codes ?? []).map((code) => t(ruleMessageKey(code) ?? UNKNOWN_RULE_KEY)))];
}

/**
 * Message keys per field, in the order the codes came, without repeats; an uncatalogued code shows the
 * generic 'Invalid value'. Takes the server's `fields` or src/rules' FieldError list alike.
 */
export function fieldErrorKeys(
  fields: readonly { field: string; code: string }[] | null | undefined,
): Partial<Record<string, MessageKey[]>> {
  const byField: Partial<Record<string, MessageKey[]>> = {};
  for (const { field, code } of fields ?? []) {
    const key = ruleMessageKey(code) ?? UNKNOWN_RULE_KEY;
    const keys = (byField[field] ??= []);
    if (!keys.includes(key)) keys.push(key);
  }
  return byField;
}

/** Every `{ field, code }` of an error envelope (all of its errors), skipping malformed entries; [] otherwise. */
export function fieldErrorsOf(body: unknown): ApiFieldError[] {
  if (!isRecord(body) || !Array.isArray(body.errors)) return [];
  const fields: ApiFieldError[] = [];
  for (const error of body.errors as unknown[]) {
    if (!isRecord(error) || !Array.isArray(error.fields)) continue;
    for (const entry of error.fields as unknown[]) {
      if (isRecord(entry) && typeof entry.field === 'string' && typeof entry.code === 'string') {
        fields.push({ field: entry.field, code: entry.code });
      }
    }
  }
  return fields;
}
