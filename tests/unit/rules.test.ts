import { Buffer } from 'node:buffer';
import { object, refine, string, type Struct } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../src/money.ts';
import { TransferAmount, amountIssue, createAmount, transferAmountIssue } from '../../src/rules/amount.ts';
import {
  EncodedLoginInput,
  EncodedPasswordChange,
  EncodedResetPasswordInput,
  ForgotPasswordInput,
  LoginInput,
  PasswordChange,
  PasswordChangeForm,
  ResetPasswordForm,
  ResetPasswordInput,
} from '../../src/rules/auth.ts';
import {
  ALLOWED_DOCUMENT_TYPES,
  ALLOWED_PROFILE_IMAGE_TYPES,
  MAX_UPLOAD_BYTES,
  acceptAttribute,
  checkFile,
  checkFileContent,
  fileExtension,
  sniffFileType,
} from '../../src/rules/files.ts';
import { LimitPeriods, LimitsInput, limitAmount, limitOrderViolations } from '../../src/rules/limits.ts';
import {
  CurrentPassword,
  EncodedCurrentPassword,
  EncodedPassword,
  PASSWORD_CHECKS,
  Password,
  decodePassword,
  encodePassword,
  isStrongPassword,
  passwordChecks,
  type PasswordCheck,
} from '../../src/rules/password.ts';
import {
  AddressInput,
  EncodedSignupInput,
  ProfileUpdateInput,
  SignupInput,
  addressFields,
  ageOn,
  createProfileUpdateInput,
  createSignupInput,
  isAdult,
  isEmail,
  parseIsoDate,
  profileFields,
  signupFields,
  userFields,
} from '../../src/rules/user.ts';
import {
  RULE_CODES,
  codesByField,
  failureCode,
  fieldCodes,
  isRuleCode,
  validate,
  type FieldError,
  type RuleCode,
  type ValidationResult,
} from '../../src/rules/validate.ts';

function errorsOf(result: ValidationResult<unknown>): FieldError[] {
  return result.ok ? [] : result.fields;
}

/** The codes a struct reports for a value, in order. */
function codes<T, S>(struct: Struct<T, S>, value: unknown): RuleCode[] {
  return errorsOf(validate(struct, value)).map((error) => error.code);
}

const TODAY = new Date('2024-05-10T12:00:00Z');
const now = (): Date => TODAY;

const validSignup = {
  firstName: 'Ana-Maria',
  lastName: "O'Neil",
  email: 'ana.maria@example.com',
  username: 'anamaria90',
  phoneCode: '+351',
  phone: '912345678',
  dateOfBirth: '1990-01-31',
  gender: 'female',
  address: 'Rua Augusta 100, 2º Esq.',
  city: 'São Paulo',
  stateCode: 'SP',
  countryCode: 'BR',
  zipCode: '12345-6789',
  password: 'Abcdef1!',
  confirmPassword: 'Abcdef1!',
};

describe('RULE_CODES', () => {
  it('is a list of unique, dotted-lower-camel codes', () => {
    expect(new Set(RULE_CODES).size).toBe(RULE_CODES.length);
    for (const code of RULE_CODES) expect(code).toMatch(/^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)?$/);
  });

  it('isRuleCode narrows only known codes', () => {
    expect(isRuleCode('password.special')).toBe(true);
    expect(isRuleCode('password.nope')).toBe(false);
    expect(isRuleCode(3)).toBe(false);
  });
});

describe('password rules', () => {
  const allTrue: Record<PasswordCheck, boolean> = {
    minLength: true,
    uppercase: true,
    lowercase: true,
    number: true,
    special: true,
    noSpaces: true,
    printable: true,
  };

  it('lists the seven live checks in display order', () => {
    expect(PASSWORD_CHECKS).toEqual(['minLength', 'uppercase', 'lowercase', 'number', 'special', 'noSpaces', 'printable']);
  });

  it.each(['Abcdef1!', 'P@ssw0rd', 'aB3$aB3$', 'Zz9&Zz9&Zz9&', 'Abcdef1!#^()[]{}~', 'Aa1@Aa1?Aa1*Aa1%'])(
    'accepts %j',
    (pw) => {
      expect(passwordChecks(pw)).toEqual(allTrue);
      expect(isStrongPassword(pw)).toBe(true);
      expect(codes(Password, pw)).toEqual([]);
    },
  );

  it.each<[string, string, PasswordCheck]>([
    ['7 characters', 'Abcde1!', 'minLength'],
    ['no uppercase', 'abcdef1!', 'uppercase'],
    ['no lowercase', 'ABCDEF1!', 'lowercase'],
    ['no digit', 'Abcdefg!', 'number'],
    ['no listed special', 'Abcdefg1', 'special'],
    ['a special not in the list', 'Abcdef1#', 'special'],
    ['a space', 'Abcd ef1!', 'noSpaces'],
    ['a leading space', ' Abcdef1!', 'noSpaces'],
    ['a tab', 'Abcd\tef1!', 'noSpaces'],
    ['a newline', 'Abcdef1!\n', 'noSpaces'],
    ['a no-break space', 'Abcd\u00a0ef1!', 'noSpaces'],
    ['an emoji', 'Abcdef1!😀', 'printable'],
    ['an accented letter', 'Abcdéf1!', 'printable'],
    ['a NUL', 'Abcdef1!\u0000', 'printable'],
    ['a BEL control character', 'Abcdef1!\u0007', 'printable'],
    ['DEL', 'Abcdef1!\u007f', 'printable'],
    ['a zero-width space', 'Abcdef1!\u200b', 'printable'],
    ['a CJK character', 'Abcdef1!密', 'printable'],
  ])('%s fails exactly one rule', (_label, pw, failing) => {
    expect(passwordChecks(pw)).toEqual({ ...allTrue, [failing]: false });
    expect(codes(Password, pw)).toEqual([`password.${failing}`]);
    expect(isStrongPassword(pw)).toBe(false);
  });

  it('does not count a non-ASCII capital as the uppercase letter', () => {
    expect(passwordChecks('abcdef1!É')).toEqual({ ...allTrue, uppercase: false, printable: false });
    expect(codes(Password, 'abcdef1!É')).toEqual(['password.uppercase', 'password.printable']);
  });

  it('counts characters, not UTF-16 units, for the length', () => {
    // 4 ASCII + 4 emoji = 8 characters: long enough, but not printable
    expect(passwordChecks('Ab1!😀😀😀😀')).toEqual({ ...allTrue, printable: false });
    // 7 ASCII + 1 emoji = 8 code points (9 UTF-16 units)
    expect(passwordChecks('Abc1!de😀').minLength).toBe(true);
    expect(passwordChecks('Abc1!d😀').minLength).toBe(false);
  });

  it('reports every broken rule at once', () => {
    expect(codes(Password, 'ab c')).toEqual([
      'password.minLength',
      'password.uppercase',
      'password.number',
      'password.special',
      'password.noSpaces',
    ]);
    expect(passwordChecks('')).toEqual({
      minLength: false,
      uppercase: false,
      lowercase: false,
      number: false,
      special: false,
      noSpaces: true,
      printable: true,
    });
  });

  it("an empty password is only 'required'", () => {
    expect(codes(Password, '')).toEqual(['required']);
    expect(codes(Password, undefined)).toEqual(['required']);
    expect(codes(Password, null)).toEqual(['required']);
    expect(codes(Password, 12345678)).toEqual(['type']);
  });

  it('caps the length at 128 characters', () => {
    const at128 = `Aa1!${'a'.repeat(124)}`;
    expect(codes(Password, at128)).toEqual([]);
    expect(codes(Password, `${at128}a`)).toEqual(['password.maxLength']);
    expect(passwordChecks(`${at128}a`)).toEqual(allTrue); // not a live tick
  });

  it('CurrentPassword only requires a value', () => {
    expect(codes(CurrentPassword, 'weak')).toEqual([]);
    expect(codes(CurrentPassword, '')).toEqual(['required']);
  });
});

describe('password transport (base64 of UTF-8)', () => {
  it('matches the standard encoding', () => {
    expect(encodePassword('Abcdef1!')).toBe('QWJjZGVmMSE=');
    for (const plain of ['a', 'ab', 'abc', 'pässwörd', '密码Abc1!', '😀🎰', '']) {
      expect(encodePassword(plain)).toBe(Buffer.from(plain, 'utf8').toString('base64'));
    }
  });

  it.each(['Abcdef1!', 'pässwörd', 'Ωμέγα', '密码', '😀🎰👨‍👩‍👧', 'tab\there', '', 'a'.repeat(10_000)])(
    'round-trips %j',
    (plain) => {
      expect(decodePassword(encodePassword(plain))).toBe(plain);
    },
  );

  it('keeps a leading byte-order mark', () => {
    expect(decodePassword(encodePassword('\ufeffAbc'))).toBe('\ufeffAbc');
  });

  it.each([
    ['wrong length', 'QWJj='],
    ['missing padding', 'QWJjZA'],
    ['whitespace', 'QWJj ZGVm'],
    ['trailing newline', 'QWJjZGVmMSE=\n'],
    ['URL-safe alphabet', 'PDw_Pz4-'],
    ['not base64 at all', 'Abcdef1!'],
    ['padding in the middle', 'QQ==QQ=='],
    ['invalid UTF-8 bytes', Buffer.from([0xff, 0xfe, 0xfd]).toString('base64')],
    ['a lone surrogate encoded as CESU', Buffer.from([0xed, 0xa0, 0x80]).toString('base64')],
  ])('decode rejects %s', (_label, b64) => {
    expect(decodePassword(b64)).toBeNull();
  });

  it('EncodedPassword decodes, then applies every password rule', () => {
    expect(codes(EncodedPassword, encodePassword('Abcdef1!'))).toEqual([]);
    expect(codes(EncodedPassword, encodePassword('abcdef1!'))).toEqual(['password.uppercase']);
    expect(codes(EncodedPassword, encodePassword('Abcdef1!😀'))).toEqual(['password.printable']);
    expect(codes(EncodedPassword, 'Abcdef1!')).toEqual(['password.encoding']);
    expect(codes(EncodedPassword, '')).toEqual(['required']);
    expect(codes(EncodedPassword, undefined)).toEqual(['required']);
  });

  it('EncodedCurrentPassword only needs a decodable, non-empty value', () => {
    expect(codes(EncodedCurrentPassword, encodePassword('x'))).toEqual([]);
    expect(codes(EncodedCurrentPassword, '***')).toEqual(['password.encoding']);
    expect(codes(EncodedCurrentPassword, '')).toEqual(['required']);
  });
});

describe('email', () => {
  const local64 = 'a'.repeat(64);
  const domain189 = `${'b'.repeat(61)}.${'b'.repeat(61)}.${'b'.repeat(61)}.bbb`;

  it.each([
    'a@b.co',
    'first.last+tag@sub.example.com',
    "o'neil@example.pt",
    'USER_1@EXAMPLE.ORG',
    'x@xn--p1ai.xn--p1ai',
    `${local64}@${domain189}`, // exactly 254
  ])('accepts %j', (email) => {
    expect(codes(userFields.email, email)).toEqual([]);
  });

  it.each([
    'plainaddress',
    'a@b',
    'a@@b.co',
    '@b.co',
    'a@',
    '.a@b.co',
    'a.@b.co',
    'a..b@b.co',
    'a@-b.co',
    'a@b-.co',
    'a@b..co',
    'a b@c.co',
    'a@b.co ',
    ' a@b.co',
    'ana@exämple.com',
    'a@b.c_o',
    `${local64}@${domain189}b`, // 255
    `${local64}a@b.co`, // 65-character local part
  ])('rejects %j', (email) => {
    expect(codes(userFields.email, email)).toEqual(['email']);
  });

  it('blank is required', () => {
    expect(codes(userFields.email, '')).toEqual(['required']);
    expect(codes(userFields.email, '   ')).toEqual(['required']);
    expect(isEmail('')).toBe(false);
  });
});

describe('username', () => {
  it.each(['abc', 'Player123', '007', 'a'.repeat(20)])('accepts %j', (name) => {
    expect(codes(userFields.username, name)).toEqual([]);
  });

  it.each<[string, RuleCode]>([
    ['ab', 'username.length'],
    ['a'.repeat(21), 'username.length'],
    ['ab_c', 'username'],
    ['ab.c', 'username'],
    ['ab c', 'username'],
    ['usér', 'username'],
    ['a@b.co', 'username'],
    ['', 'required'],
  ])('%j -> %s', (name, code) => {
    expect(codes(userFields.username, name)).toEqual([code]);
  });
});

describe('names and city', () => {
  it.each([
    'Ana',
    'Ana-Maria',
    "O'Neil",
    'O’Neil',
    'José',
    'Jose\u0301', // decomposed accent
    'São',
    'Zoë',
    'Nguyễn',
    'Łukasz',
    'Müller-Lüdenscheidt',
    'Mary Ann',
    '李',
    'Ωμέγα',
    'X',
    'a'.repeat(50),
  ])('accepts the name %j', (name) => {
    expect(codes(userFields.firstName, name)).toEqual([]);
    expect(codes(userFields.lastName, name)).toEqual([]);
  });

  it.each(['Ana1', 'R2D2', 'Ana!', 'Ana  Maria', ' Ana', 'Ana ', 'Ana-', '-Ana', 'Ana--Maria', "Ana'", 'Ana.', 'Ana😀', 'A_B'])(
    'rejects the name %j',
    (name) => {
      expect(codes(userFields.firstName, name)).toEqual(['name']);
    },
  );

  it('limits names to 50 characters (code points)', () => {
    expect(codes(userFields.firstName, 'a'.repeat(51))).toEqual(['name.length']);
    expect(codes(userFields.firstName, 'é'.repeat(50))).toEqual([]);
  });

  it('requires first and last name, not middle name', () => {
    expect(codes(userFields.firstName, '')).toEqual(['required']);
    expect(codes(userFields.lastName, undefined)).toEqual(['required']);
    expect(codes(userFields.middleName, undefined)).toEqual([]);
    expect(codes(userFields.middleName, null)).toEqual([]);
    expect(codes(userFields.middleName, '')).toEqual([]);
    expect(codes(userFields.middleName, 'Luísa')).toEqual([]);
    expect(codes(userFields.middleName, 'X1')).toEqual(['name']);
    expect(codes(userFields.middleName, ' ')).toEqual(['name']);
    expect(codes(userFields.middleName, 'a'.repeat(51))).toEqual(['name.length']);
  });

  it.each(['São Paulo', 'New York', 'Rio de Janeiro', "L'Aquila", 'Saint-Étienne', 'München', 'Zürich'])(
    'accepts the city %j',
    (city) => {
      expect(codes(userFields.city, city)).toEqual([]);
    },
  );

  it.each<[string, RuleCode]>([
    ['Paris 15', 'city'],
    ['St. Louis', 'city'],
    ['a'.repeat(51), 'city.length'],
    ['', 'required'],
  ])('city %j -> %s', (city, code) => {
    expect(codes(userFields.city, city)).toEqual([code]);
  });
});

describe('phone', () => {
  it.each(['123456', '912345678', '1'.repeat(15)])('accepts the number %j', (phone) => {
    expect(codes(userFields.phone, phone)).toEqual([]);
  });

  it.each<[string, RuleCode]>([
    ['12345', 'phone.length'],
    ['1'.repeat(16), 'phone.length'],
    ['91-2345678', 'phone'],
    ['+351912345', 'phone'],
    ['912 345 678', 'phone'],
    ['91234567a', 'phone'],
    ['１２３４５６', 'phone'],
    ['', 'required'],
  ])('number %j -> %s', (phone, code) => {
    expect(codes(userFields.phone, phone)).toEqual([code]);
  });

  it.each(['1', '+1', '351', '+351', '+1-684', '+44-1481', '9999'])('accepts the code %j', (code) => {
    expect(codes(userFields.phoneCode, code)).toEqual([]);
  });

  it.each<[unknown, RuleCode]>([
    ['', 'required'],
    [undefined, 'required'],
    ['+', 'phoneCode'],
    ['0351', 'phoneCode'],
    ['+12345', 'phoneCode'],
    ['351a', 'phoneCode'],
    ['++351', 'phoneCode'],
    ['+1-', 'phoneCode'],
    [351, 'type'],
  ])('code %j -> %s', (code, expected) => {
    expect(codes(userFields.phoneCode, code)).toEqual([expected]);
  });
});

describe('address, state, country, zip', () => {
  it.each<[string, RuleCode | null]>([
    ['Rua 1', null],
    ['abc', null],
    ['a'.repeat(100), null],
    ['ab', 'address.length'],
    ['  ab  ', 'address.length'],
    ['a'.repeat(101), 'address.length'],
    ['Rua\n1', 'address'],
    ['Rua\t1', 'address'],
    ['', 'required'],
    ['   ', 'required'],
  ])('address %j -> %s', (address, code) => {
    expect(codes(userFields.address, address)).toEqual(code === null ? [] : [code]);
  });

  it.each<[string, RuleCode | null]>([
    ['CA', null],
    ['13', null],
    ['ENG', null],
    ['SH-AC', null],
    ['a'.repeat(10), null],
    ['a'.repeat(11), 'state'],
    ['CA!', 'state'],
    ['-CA', 'state'],
    ['C A', 'state'],
    ['', 'required'],
  ])('stateCode %j -> %s', (state, code) => {
    expect(codes(userFields.stateCode, state)).toEqual(code === null ? [] : [code]);
  });

  it.each<[string, RuleCode | null]>([
    ['PT', null],
    ['US', null],
    ['pt', 'country'],
    ['PRT', 'country'],
    ['P1', 'country'],
    ['P', 'country'],
    ['', 'required'],
  ])('countryCode %j -> %s', (country, code) => {
    expect(codes(userFields.countryCode, country)).toEqual(code === null ? [] : [code]);
  });

  it.each(['12345', '123456789', '12345-6789', '00000'])('accepts the zip %j', (zip) => {
    expect(codes(userFields.zipCode, zip)).toEqual([]);
  });

  it.each(['1234', '123456', '12345678', '1234567890', '12345-678', '1234-56789', '12345 6789', 'abcde', '1000-001', ' 12345'])(
    'rejects the zip %j',
    (zip) => {
      expect(codes(userFields.zipCode, zip)).toEqual(['zip']);
    },
  );

  it('zip is required', () => {
    expect(codes(userFields.zipCode, '')).toEqual(['required']);
    expect(codes(userFields.zipCode, 12345)).toEqual(['type']);
  });
});

describe('gender and referral code', () => {
  it.each(['male', 'female', 'other'])('accepts %j', (gender) => {
    expect(codes(userFields.gender, gender)).toEqual([]);
  });

  it.each<[unknown, RuleCode]>([
    ['Male', 'gender'],
    ['unknown', 'gender'],
    ['', 'required'],
    [undefined, 'required'],
    [1, 'type'],
  ])('gender %j -> %s', (gender, code) => {
    expect(codes(userFields.gender, gender)).toEqual([code]);
  });

  it.each<[unknown, RuleCode | null]>([
    [undefined, null],
    [null, null],
    ['', null],
    ['ABCD', null],
    ['friend2024', null],
    ['a'.repeat(32), null],
    ['abc', 'referralCode'],
    ['a'.repeat(33), 'referralCode'],
    ['ab-cd', 'referralCode'],
  ])('referralCode %j -> %s', (code, expected) => {
    expect(codes(userFields.referralCode, code)).toEqual(expected === null ? [] : [expected]);
  });
});

describe('dates of birth and age', () => {
  it('parses real calendar dates only', () => {
    expect(parseIsoDate('2000-02-29')).toEqual({ year: 2000, month: 2, day: 29 });
    expect(parseIsoDate('2004-02-29')).not.toBeNull();
    expect(parseIsoDate('2001-12-31')).not.toBeNull();
    for (const bad of [
      '2001-02-29', // not a leap year
      '1900-02-29', // century, not divisible by 400
      '2001-02-30',
      '2001-04-31',
      '2001-13-01',
      '2001-00-10',
      '2001-01-00',
      '2001-01-32',
      '2001-4-3',
      '01-04-2001',
      '2001/04/03',
      '2001-04-03T00:00:00Z',
      '20010403',
      ' 2001-04-03',
      '',
    ]) {
      expect(parseIsoDate(bad), bad).toBeNull();
    }
  });

  it('counts completed years on the UTC date of today', () => {
    expect(ageOn('2006-05-10', TODAY)).toBe(18);
    expect(ageOn('2006-05-11', TODAY)).toBe(17);
    expect(ageOn('2006-04-30', TODAY)).toBe(18);
    expect(ageOn('2006-06-01', TODAY)).toBe(17);
    expect(ageOn('2024-05-11', TODAY)).toBe(-1);
    expect(ageOn('2001-02-30', TODAY)).toBeNull();
  });

  it('is adult on the 18th birthday, not a day before', () => {
    expect(isAdult('2006-05-10', TODAY)).toBe(true);
    expect(isAdult('2006-05-11', TODAY)).toBe(false);
    expect(isAdult('1950-01-01', TODAY)).toBe(true);
    expect(isAdult('not a date', TODAY)).toBe(false);
  });

  it('treats 29 February birthdays as reaching an age on 1 March in common years', () => {
    expect(isAdult('2004-02-29', new Date('2022-02-28T12:00:00Z'))).toBe(false);
    expect(isAdult('2004-02-29', new Date('2022-03-01T00:00:00Z'))).toBe(true);
    expect(isAdult('2006-02-28', new Date('2024-02-29T00:00:00Z'))).toBe(true);
    expect(isAdult('2006-03-01', new Date('2024-02-29T23:59:59Z'))).toBe(false);
  });

  it('uses the UTC date of the instant, whatever the local zone', () => {
    // 23:30 on 10 May in UTC-5 is already 11 May in UTC
    expect(isAdult('2006-05-11', new Date('2024-05-10T23:30:00-05:00'))).toBe(true);
    // 00:30 on 11 May in UTC+2 is still 10 May in UTC
    expect(isAdult('2006-05-11', new Date('2024-05-11T00:30:00+02:00'))).toBe(false);
  });

  it("defaults today to the real clock", () => {
    const thisYear = new Date().getUTCFullYear();
    expect(isAdult(`${thisYear - 30}-01-01`)).toBe(true);
    expect(isAdult(`${thisYear - 10}-01-01`)).toBe(false);
    expect(codes(userFields.dateOfBirth, `${thisYear - 30}-06-15`)).toEqual([]);
    expect(codes(userFields.dateOfBirth, `${thisYear + 1}-01-01`)).toEqual(['age']);
  });

  it('maps to date and age codes inside the signup struct, with an injected clock', () => {
    const Signup = createSignupInput({ now });
    const withDob = (dateOfBirth: string) => errorsOf(validate(Signup, { ...validSignup, dateOfBirth }));
    expect(withDob('2006-05-10')).toEqual([]);
    expect(withDob('2006-05-11')).toEqual([{ field: 'dateOfBirth', code: 'age' }]);
    expect(withDob('2030-01-01')).toEqual([{ field: 'dateOfBirth', code: 'age' }]);
    expect(withDob('2001-02-30')).toEqual([{ field: 'dateOfBirth', code: 'date' }]);
    expect(withDob('10/05/2000')).toEqual([{ field: 'dateOfBirth', code: 'date' }]);
    expect(withDob('1899-12-31')).toEqual([{ field: 'dateOfBirth', code: 'date' }]);
    expect(withDob('1900-01-01')).toEqual([]);
    expect(withDob('')).toEqual([{ field: 'dateOfBirth', code: 'required' }]);
  });

  it('reads the injected clock at validation time, not when the struct is built', () => {
    let today = new Date('2024-05-10T00:00:00Z');
    const Profile = createProfileUpdateInput({ now: () => today });
    const { email: _email, password: _pw, confirmPassword: _cpw, ...profile } = validSignup;
    const form = { ...profile, dateOfBirth: '2006-05-11' };
    expect(errorsOf(validate(Profile, form))).toEqual([{ field: 'dateOfBirth', code: 'age' }]);
    today = new Date('2024-05-11T00:00:00Z');
    expect(validate(Profile, form).ok).toBe(true);
  });
});

describe('SignupInput', () => {
  const Signup = createSignupInput({ now });

  it('accepts a complete form and returns it', () => {
    const result = validate(Signup, validSignup);
    expect(result).toEqual({ ok: true, value: validSignup });
    expect(validate(SignupInput, validSignup).ok).toBe(true);
  });

  it('accepts the optional fields', () => {
    const result = validate(Signup, { ...validSignup, middleName: 'Luísa', referralCode: 'FRIEND42' });
    expect(result.ok).toBe(true);
  });

  it('strips unknown keys by default and rejects them on request', () => {
    const withExtra = { ...validSignup, rememberMe: true, step: 2 };
    const stripped = validate(Signup, withExtra);
    expect(stripped).toEqual({ ok: true, value: validSignup });
    expect(errorsOf(validate(Signup, withExtra, { unknownKeys: 'reject' }))).toEqual([
      { field: 'rememberMe', code: 'unknownField' },
      { field: 'step', code: 'unknownField' },
    ]);
  });

  it('does not modify the input', () => {
    const input = { ...validSignup, extra: 1 };
    validate(Signup, input);
    expect(input.extra).toBe(1);
  });

  it('reports a password mismatch on confirmPassword', () => {
    expect(errorsOf(validate(Signup, { ...validSignup, confirmPassword: 'Abcdef1?' }))).toEqual([
      { field: 'confirmPassword', code: 'confirmPassword.mismatch' },
    ]);
    expect(errorsOf(validate(Signup, { ...validSignup, confirmPassword: '' }))).toEqual([
      { field: 'confirmPassword', code: 'required' },
    ]);
  });

  it('collects every field failure in one pass, in declaration order', () => {
    const result = validate(Signup, {
      ...validSignup,
      firstName: 5,
      email: 'nope',
      username: 'a b',
      phone: '12',
      zipCode: undefined,
      gender: 'x',
      password: 'abc',
      confirmPassword: 'abd',
      referralCode: '!',
    });
    expect(errorsOf(result)).toEqual([
      { field: 'firstName', code: 'type' },
      { field: 'email', code: 'email' },
      { field: 'username', code: 'username' },
      { field: 'phone', code: 'phone.length' },
      { field: 'gender', code: 'gender' },
      { field: 'zipCode', code: 'required' },
      { field: 'password', code: 'password.minLength' },
      { field: 'password', code: 'password.uppercase' },
      { field: 'password', code: 'password.number' },
      { field: 'password', code: 'password.special' },
      { field: 'confirmPassword', code: 'confirmPassword.mismatch' },
      { field: 'referralCode', code: 'referralCode' },
    ]);
  });

  it('still checks the confirmation when another field has the wrong type last', () => {
    const result = validate(Signup, { ...validSignup, confirmPassword: 'other', referralCode: 42 });
    expect(errorsOf(result)).toEqual([
      { field: 'confirmPassword', code: 'confirmPassword.mismatch' },
      { field: 'referralCode', code: 'type' },
    ]);
  });

  it('reports every missing required field', () => {
    const fields = errorsOf(validate(Signup, {}));
    expect(fields.every((error) => error.code === 'required')).toBe(true);
    expect(fields.map((error) => error.field)).toEqual([
      'firstName',
      'lastName',
      'email',
      'username',
      'phoneCode',
      'phone',
      'dateOfBirth',
      'gender',
      'address',
      'city',
      'stateCode',
      'countryCode',
      'zipCode',
      'password',
      'confirmPassword',
    ]);
  });

  it('rejects a value that is not an object', () => {
    expect(errorsOf(validate(Signup, 'form'))).toEqual([{ field: '', code: 'type' }]);
    expect(errorsOf(validate(Signup, [validSignup]))).toEqual([{ field: '', code: 'type' }]);
    expect(errorsOf(validate(Signup, null))).toEqual([{ field: '', code: 'required' }]);
  });

  it('EncodedSignupInput takes base64 passwords', () => {
    const encoded = {
      ...validSignup,
      password: encodePassword('Pässword1!'.replace('ä', 'a')),
      confirmPassword: encodePassword('Password1!'),
    };
    expect(validate(EncodedSignupInput, encoded).ok).toBe(true);
    expect(errorsOf(validate(EncodedSignupInput, validSignup))).toEqual([
      { field: 'password', code: 'password.encoding' },
    ]);
    expect(
      errorsOf(
        validate(EncodedSignupInput, {
          ...validSignup,
          password: encodePassword('password'),
          confirmPassword: encodePassword('Password1!'),
        }),
      ),
    ).toEqual([
      { field: 'password', code: 'password.uppercase' },
      { field: 'password', code: 'password.number' },
      { field: 'password', code: 'password.special' },
      { field: 'confirmPassword', code: 'confirmPassword.mismatch' },
    ]);
  });

  it('exposes per-field structs for live validation', () => {
    expect(Object.keys(signupFields)).toEqual(Object.keys(SignupInput.schema));
    expect(fieldCodes(signupFields.email, 'x@')).toEqual(['email']);
    expect(fieldCodes(signupFields.password, 'Abcdef1!')).toEqual([]);
    // alone, the confirmation has no password to compare with
    expect(fieldCodes(signupFields.confirmPassword, 'anything')).toEqual([]);
    expect(fieldCodes(signupFields.confirmPassword, '')).toEqual(['required']);
  });
});

describe('ProfileUpdateInput and AddressInput', () => {
  const { email: _email, password: _pw, confirmPassword: _cpw, ...profile } = validSignup;

  it('accepts the profile fields and leaves email immutable', () => {
    expect(validate(ProfileUpdateInput, profile).ok).toBe(true);
    expect(Object.keys(profileFields)).not.toContain('email');
    expect(errorsOf(validate(ProfileUpdateInput, { ...profile, email: 'new@example.com' }, { unknownKeys: 'reject' }))).toEqual([
      { field: 'email', code: 'unknownField' },
    ]);
  });

  it('requires everything but middleName', () => {
    const { middleName: _m, ...required } = profileFields;
    const fields = errorsOf(validate(ProfileUpdateInput, {}));
    expect(fields.map((error) => error.field)).toEqual(Object.keys(required));
    expect(fields.every((error) => error.code === 'required')).toBe(true);
  });

  const address = { address: 'Rua Augusta 100', city: 'Lisboa', stateCode: '11', countryCode: 'PT', zipCode: '12345' };

  it('accepts an address with or without a label', () => {
    expect(validate(AddressInput, address).ok).toBe(true);
    expect(validate(AddressInput, { ...address, label: 'Home' }).ok).toBe(true);
    expect(Object.keys(addressFields)).toEqual(['address', 'city', 'stateCode', 'countryCode', 'zipCode', 'label']);
  });

  it.each<[unknown, RuleCode]>([
    ['a'.repeat(51), 'addressLabel'],
    ['  ', 'addressLabel'],
    ['Home\n', 'addressLabel'],
    [3, 'type'],
  ])('label %j -> %s', (label, code) => {
    expect(errorsOf(validate(AddressInput, { ...address, label }))).toEqual([{ field: 'label', code }]);
  });

  it('reports address failures per field', () => {
    expect(errorsOf(validate(AddressInput, { ...address, address: 'ab', city: 'Lisboa 1', zipCode: '1000-001' }))).toEqual([
      { field: 'address', code: 'address.length' },
      { field: 'city', code: 'city' },
      { field: 'zipCode', code: 'zip' },
    ]);
  });
});

describe('login, password change, reset', () => {
  it('logs in by email or username', () => {
    expect(validate(LoginInput, { email: 'ana@example.com', password: 'x' }).ok).toBe(true);
    expect(validate(LoginInput, { email: 'anamaria90', password: 'x' }).ok).toBe(true);
    expect(errorsOf(validate(LoginInput, { email: 'ana maria', password: '' }))).toEqual([
      { field: 'email', code: 'loginId' },
      { field: 'password', code: 'required' },
    ]);
    expect(errorsOf(validate(LoginInput, {}))).toEqual([
      { field: 'email', code: 'required' },
      { field: 'password', code: 'required' },
    ]);
  });

  it('EncodedLoginInput needs a base64 password', () => {
    expect(validate(EncodedLoginInput, { email: 'ana@example.com', password: encodePassword('old pw') }).ok).toBe(true);
    expect(errorsOf(validate(EncodedLoginInput, { email: 'ana@example.com', password: 'old pw' }))).toEqual([
      { field: 'password', code: 'password.encoding' },
    ]);
  });

  it('ForgotPasswordInput needs a valid email', () => {
    expect(validate(ForgotPasswordInput, { email: 'a@b.co' }).ok).toBe(true);
    expect(errorsOf(validate(ForgotPasswordInput, { email: 'anamaria90' }))).toEqual([{ field: 'email', code: 'email' }]);
  });

  it('PasswordChange: any old password, a strong new one that differs', () => {
    expect(validate(PasswordChange, { oldPassword: 'legacy', newPassword: 'Abcdef1!' }).ok).toBe(true);
    expect(errorsOf(validate(PasswordChange, { oldPassword: 'Abcdef1!', newPassword: 'Abcdef1!' }))).toEqual([
      { field: 'newPassword', code: 'newPassword.sameAsOld' },
    ]);
    expect(errorsOf(validate(PasswordChange, { oldPassword: '', newPassword: 'abcdefgh' }))).toEqual([
      { field: 'oldPassword', code: 'required' },
      { field: 'newPassword', code: 'password.uppercase' },
      { field: 'newPassword', code: 'password.number' },
      { field: 'newPassword', code: 'password.special' },
    ]);
  });

  it('PasswordChangeForm adds the confirmation', () => {
    const form = { oldPassword: 'legacy', newPassword: 'Abcdef1!', confirmPassword: 'Abcdef1!' };
    expect(validate(PasswordChangeForm, form).ok).toBe(true);
    expect(errorsOf(validate(PasswordChangeForm, { ...form, confirmPassword: 'Abcdef1' }))).toEqual([
      { field: 'confirmPassword', code: 'confirmPassword.mismatch' },
    ]);
    expect(errorsOf(validate(PasswordChangeForm, { ...form, oldPassword: 'Abcdef1!', confirmPassword: 'x' }))).toEqual([
      { field: 'newPassword', code: 'newPassword.sameAsOld' },
      { field: 'confirmPassword', code: 'confirmPassword.mismatch' },
    ]);
  });

  it('EncodedPasswordChange compares the encoded forms', () => {
    const same = encodePassword('Abcdef1!');
    expect(errorsOf(validate(EncodedPasswordChange, { oldPassword: same, newPassword: same }))).toEqual([
      { field: 'newPassword', code: 'newPassword.sameAsOld' },
    ]);
    expect(
      validate(EncodedPasswordChange, { oldPassword: encodePassword('old'), newPassword: encodePassword('Abcdef1!') }).ok,
    ).toBe(true);
  });

  it('ResetPasswordInput needs the token and a strong password', () => {
    expect(validate(ResetPasswordInput, { token: 't0k3n', newPassword: 'Abcdef1!' }).ok).toBe(true);
    expect(errorsOf(validate(ResetPasswordInput, { token: '', newPassword: 'Abcde1!' }))).toEqual([
      { field: 'token', code: 'required' },
      { field: 'newPassword', code: 'password.minLength' },
    ]);
    expect(errorsOf(validate(ResetPasswordForm, { token: 't', newPassword: 'Abcdef1!', confirmPassword: 'b' }))).toEqual([
      { field: 'confirmPassword', code: 'confirmPassword.mismatch' },
    ]);
    expect(
      validate(EncodedResetPasswordInput, { token: 't', newPassword: encodePassword('Abcdef1!') }).ok,
    ).toBe(true);
  });
});

describe('TransferAmount', () => {
  it.each(['0.00000001', '0.5', '1', '10', '9999.99999999', '10000', '10000.00000000', '10000.0'])(
    'accepts %j',
    (amount) => {
      expect(codes(TransferAmount, amount)).toEqual([]);
      expect(transferAmountIssue(amount)).toBeNull();
    },
  );

  it.each<[unknown, RuleCode]>([
    ['', 'required'],
    ['   ', 'required'],
    [undefined, 'required'],
    [null, 'required'],
    [10, 'type'],
    ['abc', 'amount.format'],
    ['1e3', 'amount.format'],
    [' 10', 'amount.format'],
    ['10 ', 'amount.format'],
    ['+10', 'amount.format'],
    ['.5', 'amount.format'],
    ['5.', 'amount.format'],
    ['010', 'amount.format'],
    ['1,5', 'amount.format'],
    ['NaN', 'amount.format'],
    ['0.123456789', 'amount.decimals'],
    ['10000.000000000', 'amount.decimals'],
    ['1.000000000', 'amount.decimals'],
    ['0', 'amount.positive'],
    ['0.00000000', 'amount.positive'],
    ['-5', 'amount.positive'],
    ['-0.00000001', 'amount.positive'],
    ['10000.00000001', 'amount.max'],
    ['10001', 'amount.max'],
    ['1'.repeat(30), 'amount.max'],
  ])('%j -> %s (exactly one code)', (amount, code) => {
    expect(codes(TransferAmount, amount)).toEqual([code]);
    if (typeof amount === 'string') expect(transferAmountIssue(amount)).toBe(code);
  });

  it('createAmount takes another ceiling', () => {
    const upToOne = createAmount({ maxUnits: parseAmount('1') });
    expect(codes(upToOne, '1')).toEqual([]);
    expect(codes(upToOne, '1.00000001')).toEqual(['amount.max']);
    expect(amountIssue('123456789012345678901')).toBeNull(); // no ceiling by default
  });
});

describe('limits', () => {
  it('accepts any subset of set limits in increasing order', () => {
    for (const value of [
      {},
      { deposit: {} },
      { deposit: { daily: '10', weekly: '50', monthly: '100' } },
      { bet: { daily: '10', monthly: '10.00000001' } },
      { loss: { weekly: '5' } },
      { deposit: { daily: '1', weekly: null, monthly: '' }, bet: { monthly: '3' }, loss: {} },
    ]) {
      expect(errorsOf(validate(LimitsInput, value)), JSON.stringify(value)).toEqual([]);
    }
  });

  it('reports a broken order on the later period', () => {
    expect(errorsOf(validate(LimitsInput, { deposit: { daily: '50', weekly: '50' } }))).toEqual([
      { field: 'deposit.weekly', code: 'limits.order' },
    ]);
    expect(errorsOf(validate(LimitsInput, { bet: { daily: '100', monthly: '99.99999999' } }))).toEqual([
      { field: 'bet.monthly', code: 'limits.order' },
    ]);
    expect(errorsOf(validate(LimitsInput, { loss: { weekly: '10', monthly: '5' } }))).toEqual([
      { field: 'loss.monthly', code: 'limits.order' },
    ]);
  });

  it('checks each period against every earlier one', () => {
    // weekly is below daily; monthly is above weekly but still below daily
    expect(errorsOf(validate(LimitsInput, { deposit: { daily: '100', weekly: '50', monthly: '80' } }))).toEqual([
      { field: 'deposit.weekly', code: 'limits.order' },
      { field: 'deposit.monthly', code: 'limits.order' },
    ]);
    expect(limitOrderViolations({ daily: '100', weekly: '50', monthly: '80' })).toEqual(['weekly', 'monthly']);
    expect(limitOrderViolations({ daily: '1', weekly: '200', monthly: '150' })).toEqual(['monthly']);
    expect(limitOrderViolations({ monthly: '1' })).toEqual([]);
  });

  it('checks amounts: positive, decimal, at most 8 decimals', () => {
    expect(
      errorsOf(
        validate(LimitsInput, {
          deposit: { daily: '0' },
          bet: { daily: '-1', weekly: '1.123456789' },
          loss: { daily: '1e3', weekly: ' ', monthly: 5 },
        }),
      ),
    ).toEqual([
      { field: 'deposit.daily', code: 'limits.positive' },
      { field: 'bet.daily', code: 'limits.positive' },
      { field: 'bet.weekly', code: 'amount.decimals' },
      { field: 'loss.daily', code: 'amount.format' },
      { field: 'loss.weekly', code: 'amount.format' },
      { field: 'loss.monthly', code: 'type' },
    ]);
    expect(errorsOf(validate(LimitsInput, { deposit: { daily: '1'.repeat(23) } }))).toEqual([
      { field: 'deposit.daily', code: 'amount.max' },
    ]);
  });

  it('does not order against an invalid amount', () => {
    expect(errorsOf(validate(LimitsInput, { deposit: { daily: 'abc', weekly: '1' } }))).toEqual([
      { field: 'deposit.daily', code: 'amount.format' },
    ]);
  });

  it('compares as exact decimals, not strings', () => {
    expect(validate(LimitPeriods, { daily: '9', weekly: '10', monthly: '100.5' }).ok).toBe(true);
    expect(validate(LimitPeriods, { daily: '0.1', weekly: '0.10000001' }).ok).toBe(true);
    expect(errorsOf(validate(LimitPeriods, { daily: '0.5', weekly: '0.50000000' }))).toEqual([
      { field: 'weekly', code: 'limits.order' },
    ]);
  });

  it('a period struct alone checks only its amount', () => {
    expect(codes(limitAmount('weekly'), '5')).toEqual([]);
    expect(codes(limitAmount('weekly'), '0')).toEqual(['limits.positive']);
  });
});

describe('files', () => {
  const bytes = (...values: number[]) => Uint8Array.from(values);
  const ascii = (text: string) => new TextEncoder().encode(text);
  const JPEG_JFIF = bytes(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01);
  const JPEG_EXIF = bytes(0xff, 0xd8, 0xff, 0xe1, 0x2f, 0xfe, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00);
  const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52);
  const PDF = ascii('%PDF-1.7\n%âãÏÓ\n1 0 obj\n');

  it('sniffs real headers', () => {
    expect(sniffFileType(JPEG_JFIF)).toBe('jpeg');
    expect(sniffFileType(JPEG_EXIF)).toBe('jpeg');
    expect(sniffFileType(PNG)).toBe('png');
    expect(sniffFileType(PDF)).toBe('pdf');
    expect(sniffFileType(bytes(0xff, 0xd8, 0xff))).toBe('jpeg');
  });

  it.each<[string, Uint8Array]>([
    ['empty', new Uint8Array()],
    ['truncated JPEG', bytes(0xff, 0xd8)],
    ['truncated PNG', PNG.slice(0, 7)],
    ['PNG with a damaged byte', Uint8Array.from(PNG, (b, i) => (i === 4 ? 0x0a : b))],
    ['GIF', ascii('GIF89a\u0001\u0000')],
    ['%PDF without the dash', ascii('%PDF1.7')],
    ['lower-case %pdf-', ascii('%pdf-1.7')],
    ['PDF signature not at the start', ascii(' %PDF-1.7')],
    ['ZIP', bytes(0x50, 0x4b, 0x03, 0x04)],
    ['text', ascii('hello world')],
    ['HTML pretending', ascii('<html><body>%PDF-</body></html>')],
  ])('returns null for %s', (_label, data) => {
    expect(sniffFileType(data)).toBeNull();
  });

  it('lists the allowed types and the 5 MiB limit', () => {
    expect(ALLOWED_DOCUMENT_TYPES).toEqual(['jpg', 'jpeg', 'png', 'pdf']);
    expect(ALLOWED_PROFILE_IMAGE_TYPES).toEqual(['jpg', 'jpeg', 'png']);
    expect(MAX_UPLOAD_BYTES).toBe(5_242_880);
    expect(acceptAttribute('profileImage')).toBe('.jpg,.jpeg,.png,image/jpeg,image/png');
    expect(acceptAttribute('document')).toContain('application/pdf');
  });

  it('reads extensions case-insensitively', () => {
    expect(fileExtension('scan.PDF')).toBe('pdf');
    expect(fileExtension('archive.tar.gz')).toBe('gz');
    expect(fileExtension('noext')).toBe('');
    expect(fileExtension('.pdf')).toBe('');
    expect(fileExtension('trailing.')).toBe('');
  });

  it.each<[string, number, string | undefined, 'document' | 'profileImage', RuleCode | null]>([
    ['id.pdf', 1000, 'application/pdf', 'document', null],
    ['ID.JPG', 1000, 'image/jpeg', 'document', null],
    ['id.jpeg', 1000, undefined, 'document', null],
    ['id.jpg', 1000, 'image/jpg', 'document', null],
    ['id.png', 1000, '', 'document', null],
    ['me.png', MAX_UPLOAD_BYTES - 1, 'image/png', 'profileImage', null],
    ['me.png', MAX_UPLOAD_BYTES, 'image/png', 'profileImage', 'file.size'],
    ['id.pdf', MAX_UPLOAD_BYTES + 1, 'application/pdf', 'document', 'file.size'],
    ['id.pdf', 0, 'application/pdf', 'document', 'file.empty'],
    ['id.pdf', -1, 'application/pdf', 'document', 'file.size'],
    ['id.pdf', Number.NaN, 'application/pdf', 'document', 'file.size'],
    ['me.pdf', 1000, 'application/pdf', 'profileImage', 'file.type'],
    ['id.gif', 1000, 'image/gif', 'document', 'file.type'],
    ['id', 1000, 'application/pdf', 'document', 'file.type'],
    ['id.png', 1000, 'application/pdf', 'document', 'file.type'],
    ['id.png.exe', 1000, undefined, 'document', 'file.type'],
  ])('checkFile(%j, %d bytes, %j) for %s -> %s', (name, size, type, kind, code) => {
    const file = type === undefined ? { name, size } : { name, size, type };
    expect(checkFile(file, kind)).toBe(code);
  });

  it('checks the received content', () => {
    expect(checkFileContent(PNG, 'profileImage', 'me.png')).toBeNull();
    expect(checkFileContent(JPEG_JFIF, 'profileImage', 'me.JPEG')).toBeNull();
    expect(checkFileContent(PDF, 'document', 'passport.pdf')).toBeNull();
    expect(checkFileContent(PDF, 'document')).toBeNull();
    expect(checkFileContent(PDF, 'profileImage', 'me.png')).toBe('file.type');
    expect(checkFileContent(PNG, 'document', 'scan.pdf')).toBe('file.type');
    expect(checkFileContent(ascii('GIF89a'), 'document', 'a.gif')).toBe('file.type');
    expect(checkFileContent(new Uint8Array(), 'document', 'a.pdf')).toBe('file.empty');
    const big = new Uint8Array(MAX_UPLOAD_BYTES);
    big.set(PDF);
    expect(checkFileContent(big, 'document', 'a.pdf')).toBe('file.size');
    expect(checkFileContent(big.subarray(0, MAX_UPLOAD_BYTES - 1), 'document', 'a.pdf')).toBeNull();
  });
});

describe('validate()', () => {
  it('maps a refinement it does not know to type', () => {
    const custom = refine(string(), 'notACode', () => false);
    expect(codes(custom, 'x')).toEqual(['type']);
  });

  it('maps failures by shape', () => {
    const Shape = object({ a: string() });
    const result = validate(Shape, { a: null, b: 1 }, { unknownKeys: 'reject' });
    expect(errorsOf(result)).toEqual([
      { field: 'a', code: 'required' },
      { field: 'b', code: 'unknownField' },
    ]);
    if (!result.ok) expect(result.fields).toHaveLength(2);
  });

  it('failureCode reads the refinement name', () => {
    const [error] = Password.validate('abcdefg!');
    expect(error).toBeDefined();
    if (error !== undefined) expect(error.failures().map(failureCode)).toEqual(['password.uppercase', 'password.number']);
  });

  it('groups codes by field', () => {
    expect(
      codesByField([
        { field: 'password', code: 'password.uppercase' },
        { field: 'password', code: 'password.number' },
        { field: 'email', code: 'email' },
      ]),
    ).toEqual({ password: ['password.uppercase', 'password.number'], email: ['email'] });
  });

  it('returns a copy without unknown keys on success', () => {
    const input = { ...validSignup, extra: true };
    const result = validate(SignupInput, input);
    expect(result.ok && result.value).not.toBe(input);
    expect(result.ok && 'extra' in result.value).toBe(false);
  });
});

describe('reachability', () => {
  const signup = createSignupInput({ now });
  const signupCodes = (patch: Record<string, unknown>, options?: { unknownKeys: 'reject' }): RuleCode[] =>
    errorsOf(validate(signup, { ...validSignup, ...patch }, options)).map((error) => error.code);
  const samples: Record<RuleCode, () => readonly (RuleCode | null)[]> = {
    required: () => signupCodes({ email: '' }),
    type: () => signupCodes({ email: 1 }),
    unknownField: () => signupCodes({ extra: 1 }, { unknownKeys: 'reject' }),
    email: () => signupCodes({ email: 'a@b' }),
    username: () => signupCodes({ username: 'a_b' }),
    'username.length': () => signupCodes({ username: 'ab' }),
    loginId: () => codes(LoginInput, { email: 'a b', password: 'x' }),
    referralCode: () => signupCodes({ referralCode: 'ab' }),
    'password.minLength': () => signupCodes({ password: 'Abc1!', confirmPassword: 'Abc1!' }),
    'password.maxLength': () => codes(Password, `Aa1!${'a'.repeat(125)}`),
    'password.uppercase': () => codes(Password, 'abcdef1!'),
    'password.lowercase': () => codes(Password, 'ABCDEF1!'),
    'password.number': () => codes(Password, 'Abcdefg!'),
    'password.special': () => codes(Password, 'Abcdefg1'),
    'password.noSpaces': () => codes(Password, 'Abc def1!'),
    'password.printable': () => codes(Password, 'Abcdef1!😀'),
    'password.encoding': () => codes(EncodedPassword, 'not base64!'),
    'confirmPassword.mismatch': () => signupCodes({ confirmPassword: 'Abcdef1?' }),
    'newPassword.sameAsOld': () => codes(PasswordChange, { oldPassword: 'Abcdef1!', newPassword: 'Abcdef1!' }),
    name: () => signupCodes({ lastName: 'L0pes' }),
    'name.length': () => signupCodes({ lastName: 'a'.repeat(51) }),
    date: () => signupCodes({ dateOfBirth: '2001-02-30' }),
    age: () => signupCodes({ dateOfBirth: '2010-01-01' }),
    gender: () => signupCodes({ gender: 'M' }),
    phone: () => signupCodes({ phone: '91234567x' }),
    'phone.length': () => signupCodes({ phone: '12345' }),
    phoneCode: () => signupCodes({ phoneCode: '+' }),
    address: () => signupCodes({ address: 'Rua\u00071' }),
    'address.length': () => signupCodes({ address: 'ab' }),
    addressLabel: () => codes(AddressInput, { address: 'Rua 1', city: 'Porto', stateCode: '13', countryCode: 'PT', zipCode: '12345', label: ' ' }),
    city: () => signupCodes({ city: 'Porto 2' }),
    'city.length': () => signupCodes({ city: 'a'.repeat(51) }),
    state: () => signupCodes({ stateCode: 'S P' }),
    country: () => signupCodes({ countryCode: 'br' }),
    zip: () => signupCodes({ zipCode: '1234' }),
    'amount.format': () => codes(TransferAmount, '1e3'),
    'amount.decimals': () => codes(TransferAmount, '1.123456789'),
    'amount.positive': () => codes(TransferAmount, '0'),
    'amount.max': () => codes(TransferAmount, '10000.00000001'),
    'limits.positive': () => codes(LimitsInput, { bet: { daily: '0' } }),
    'limits.order': () => codes(LimitsInput, { bet: { daily: '2', weekly: '1' } }),
    'file.type': () => [checkFile({ name: 'a.gif', size: 1 }, 'document')],
    'file.size': () => [checkFile({ name: 'a.pdf', size: MAX_UPLOAD_BYTES }, 'document')],
    'file.empty': () => [checkFile({ name: 'a.pdf', size: 0 }, 'document')],
  };

  it.each(RULE_CODES)('%s is produced by its sample input, alone', (code) => {
    expect(samples[code]()).toEqual([code]);
  });
});
