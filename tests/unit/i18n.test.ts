import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { en, type Dictionary } from '../../src/i18n/en.ts';
import { pt } from '../../src/i18n/pt.ts';
import { es } from '../../src/i18n/es.ts';
import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  LANGUAGE_STORAGE_KEY,
  createTranslator,
  isLanguage,
  messageAt,
  storeLanguage,
  storedLanguage,
  type Language,
  type MessageKey,
} from '../../src/i18n/index.ts';
import { RULE_CODES } from '../../src/rules/codes.ts';
import { errorMessageKey, ruleMessageKey } from '../../src/api/errors.ts';

type Tree = { [key: string]: string | Tree };

/** Every leaf of a dictionary as [dot path, value]; objects are walked, anything else is a leaf. */
function leaves(tree: unknown, prefix = ''): [string, unknown][] {
  if (typeof tree !== 'object' || tree === null) return [[prefix, tree]];
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value] as [string, unknown]],
  );
}

const placeholders = (text: string): string[] => [...text.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].map((m) => m[1] ?? '').sort();

const englishLeaves = leaves(en);
const englishPaths = new Set(englishLeaves.map(([path]) => path));
const others = { pt, es } as const satisfies Record<string, Dictionary>;

function openApiErrorCodes(): string[] {
  const spec = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as {
    components: { schemas: { ErrorCode: { enum: string[] } } };
  };
  return spec.components.schemas.ErrorCode.enum;
}

const dictionaries: Record<Language, Dictionary> = { en, pt, es };

describe('dictionaries', () => {
  it('English is a tree of non-empty strings', () => {
    expect(englishLeaves.length).toBeGreaterThan(400);
    for (const [path, value] of englishLeaves) {
      expect(typeof value, path).toBe('string');
      expect((value as string).trim(), path).not.toBe('');
    }
  });

  for (const [language, dictionary] of Object.entries(others)) {
    describe(language, () => {
      const own = new Map(leaves(dictionary));

      it('has a non-empty string at every English key', () => {
        const missing = englishLeaves
          .map(([path]) => path)
          .filter((path) => typeof own.get(path) !== 'string' || (own.get(path) as string).trim() === '');
        expect(missing).toEqual([]);
      });

      it('has no key English lacks', () => {
        expect([...own.keys()].filter((path) => !englishPaths.has(path))).toEqual([]);
      });

      it('uses the same placeholders as English in every message', () => {
        const differing = englishLeaves
          .filter(([path]) => typeof own.get(path) === 'string')
          .filter(([path, text]) => placeholders(text as string).join() !== placeholders(own.get(path) as string).join())
          .map(([path]) => path);
        expect(differing).toEqual([]);
      });

      it('is translated, not copied: only names and international words equal the English', () => {
        // Words that read the same in this language (brand, language names, codes, units).
        const sameEverywhere = new Set([
          'app.name',
          'languages.en',
          'languages.pt',
          'languages.es',
          'nav.lobby',
          'nav.casino',
          'nav.menu',
          'common.ok',
          'games.lobbyTitle',
          'games.casinoTitle',
          'games.demo',
          'wallet.transactions.types.casino',
          'common.no',
          // Durations written with the units' symbols (min, h).
          'responsibleGambling.duration.minutes',
          'responsibleGambling.duration.hours',
          'responsibleGambling.duration.hoursMinutes',
        ]);
        const copied = englishLeaves
          .filter(([path, text]) => own.get(path) === text && !sameEverywhere.has(path))
          .map(([path]) => path);
        expect(copied).toEqual([]);
      });
    });
  }

  it('lists the three SPEC languages, English first and default', () => {
    expect(LANGUAGES).toEqual(['en', 'pt', 'es']);
    expect(DEFAULT_LANGUAGE).toBe('en');
    for (const language of LANGUAGES) expect(messageAt(dictionaries[language], `languages.${language}`)).toBeTruthy();
  });
});

describe('SPEC wording in English', () => {
  it('keeps the success messages word for word, typos included', () => {
    expect(en.messages).toMatchObject({
      loginSuccess: 'Login successful!',
      logoutSuccess: 'Logged out successfully!',
      registerSuccess: 'Registered Successfully !',
      profileUpdated: 'Profile Updated Successfully!',
      passwordChanged: 'Password Updated Sucessfully',
      resetLinkSent: 'Password reset link sended successfully.',
      passwordReset: 'Password updated successfully.',
      limitsUpdated: 'Limits Updated Successfully!',
      bonusClaimed: 'Bonus Claimed.',
      referralClaimed: 'Referral Bonus Claimed.',
      bonusForfeited: 'Bonus Forfeited.',
      documentUploadFailed: 'Failed to upload document',
      pleaseLogin: 'Please login first',
      sessionExpired: 'Session expired. Please login again.',
      inactive: 'User Account Inactivated By Admin',
    });
  });

  it('keeps the §8 fallbacks and the catalogue texts word for word', () => {
    expect(en.errors).toMatchObject({
      fallback: 'Internal Server Error!',
      loginFailed: 'Failed to login',
      signupFailed: 'Something went wrong!',
      verificationFailed: 'Verification Failed',
      limitsFailed: 'Something went wrong',
      bonusFailed: 'Something went wrong.',
    });
    expect(en.errors.codes).toMatchObject({
      USERNAME_OR_EMAIL_ALREADY_EXISTS: 'Username or Email already exists!',
      USER_DOES_NOT_EXISTS: 'User does not exists!',
      User_Not_Exists_Error_Type: 'User does not exists',
      NOT_ENOUGH_AMOUNT: 'Insufficient balance on this network',
      MAXIMUM_DEPOSIT_AMOUNT_LIMIT: 'Amount above maximum withdraw limit',
      PAYMENT_ERROR: 'Payment error, Please contact Admin',
      PAYMENT_ERROR_PLEASE_CONTACT_ADMIN: 'Payment error, Please contact Admin',
      DAILY_BET_LIMIT_EXCEEDED: 'Daily bet limit exceeded',
      WEEKLY_BET_LIMIT_EXCEEDED: 'Weekly bet limit exceeded',
      MONTHLY_BET_LIMIT_EXCEEDED: 'Monthly bet limit exceeded',
      WITHDRAWAL_REQUEST_IN_PENDING: 'Your withdrawal request is in pending',
      ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED: 'Session expired. Please login again.',
    });
  });

  it('names the social buttons as the product does', () => {
    expect(en.auth.social.google).toBe('Continue with Google');
    expect(en.auth.social.facebook).toBe('Continue with Facebook');
  });
});

describe('catalogue coverage', () => {
  const codes = openApiErrorCodes();

  it('has a message for every ErrorCode of openapi.yaml, in every language, and no other code', () => {
    expect(codes.length).toBeGreaterThan(50);
    expect(Object.keys(en.errors.codes).sort()).toEqual([...codes].sort());
    for (const language of LANGUAGES) {
      const t = createTranslator(language);
      for (const code of codes) {
        const key = errorMessageKey(code, 'default');
        expect(key).toBe(`errors.codes.${code}`);
        expect(messageAt(dictionaries[language], key), `${language} ${code}`).toBeTruthy();
        expect(t.t(key)).not.toBe(key);
      }
    }
  });

  it('has a message for every RuleCode of src/rules, in every language', () => {
    for (const language of LANGUAGES) {
      for (const code of RULE_CODES) {
        const key = ruleMessageKey(code);
        expect(key, code).not.toBeNull();
        expect(messageAt(dictionaries[language], key as string), `${language} ${code}`).toBeTruthy();
      }
    }
  });
});

describe('storedLanguage', () => {
  const storage = (value: string | null) => ({ getItem: (key: string) => (key === LANGUAGE_STORAGE_KEY ? value : null) });

  it('is English when nothing is stored or there is no storage', () => {
    expect(storedLanguage(null)).toBe('en');
    expect(storedLanguage(storage(null))).toBe('en');
  });

  it('returns a stored supported language', () => {
    expect(storedLanguage(storage('pt'))).toBe('pt');
    expect(storedLanguage(storage('es'))).toBe('es');
    expect(storedLanguage(storage('en'))).toBe('en');
  });

  it('falls back to English for anything else', () => {
    for (const value of ['fr', '', 'PT', 'pt-BR', ' es', 'undefined']) expect(storedLanguage(storage(value))).toBe('en');
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(storedLanguage(throwing)).toBe('en');
  });

  it('stores a choice that storedLanguage reads back, and survives a storage that refuses', () => {
    const map = new Map<string, string>();
    const memory = { getItem: (key: string) => map.get(key) ?? null, setItem: (key: string, value: string) => void map.set(key, value) };
    storeLanguage(memory, 'es');
    expect(storedLanguage(memory)).toBe('es');
    expect(() =>
      storeLanguage(
        {
          setItem: () => {
            throw new Error('QuotaExceededError');
          },
        },
        'pt',
      ),
    ).not.toThrow();
    expect(() => storeLanguage(null, 'pt')).not.toThrow();
    expect(isLanguage('pt')).toBe(true);
    expect(isLanguage('fr')).toBe(false);
  });
});

describe('translator', () => {
  it('translates in the chosen language and fills placeholders', () => {
    expect(createTranslator('en').t('messages.loginSuccess')).toBe('Login successful!');
    expect(createTranslator('pt').t('messages.loginSuccess')).toBe('Login efetuado com sucesso!');
    expect(createTranslator('es').t('messages.loginSuccess')).toBe('¡Inicio de sesión exitoso!');
    expect(createTranslator('en').t('notifications.unreadCount', { count: 3 })).toBe('3 unread');
    expect(createTranslator('es').t('games.searchResultsFor', { query: 'roulette' })).toBe('Resultados para «roulette»');
  });

  it('falls back to English for a key the language lacks', () => {
    const partial = structuredClone(pt) as unknown as Tree;
    delete (partial.messages as Tree).loginSuccess;
    const t = createTranslator('pt', { en, pt: partial as unknown as Dictionary, es });
    expect(t.t('messages.loginSuccess')).toBe('Login successful!');
    expect(t.maybe('messages.loginSuccess')).toBe('Login successful!');
    expect(t.t('messages.logoutSuccess')).toBe(pt.messages.logoutSuccess);
  });

  it('gives the key from t and undefined from maybe when no language has it', () => {
    const t = createTranslator('pt');
    expect(t.t('errors.codes.NOPE' as MessageKey)).toBe('errors.codes.NOPE');
    expect(t.maybe('errors.codes.NOPE')).toBeUndefined();
    expect(t.maybe('errors.codes.WRONG_PASSWORD')).toBe('Senha incorreta!');
  });

  it('never returns a branch or an inherited member as a message', () => {
    const t = createTranslator('en');
    for (const key of ['errors.codes', 'errors', '', 'errors.codes.toString', 'errors.codes.constructor', 'errors.codes.__proto__', 'toString']) {
      expect(t.maybe(key), key).toBeUndefined();
    }
  });
});
