import rosetta from 'rosetta';
import type { Dictionary } from './en.ts';

export const LANGUAGES = ['en', 'pt', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export const LANGUAGE_STORAGE_KEY = 'casino.language';

/*
 * Each dictionary is a chunk of its own: a visitor downloads the language they use, and another one only
 * when they choose it. The entry loads the stored language's dictionary beside the app; a language
 * picked later is loaded before the interface switches to it.
 */
const importers: Record<Language, () => Promise<Dictionary>> = {
  en: () => import('./en.ts').then((module) => module.en),
  pt: () => import('./pt.ts').then((module) => module.pt),
  es: () => import('./es.ts').then((module) => module.es),
};

/** The dictionaries loaded so far (tests register all three). */
const loaded: Partial<Record<Language, Dictionary>> = {};

/** Makes a dictionary available to createTranslator without loading it (tests, and after a load). */
export function registerDictionary(language: Language, dictionary: Dictionary): void {
  loaded[language] = dictionary;
}

export function isDictionaryLoaded(language: Language): boolean {
  return loaded[language] !== undefined;
}

/** Loads a language's dictionary once; later calls answer from memory. */
export async function loadDictionary(language: Language): Promise<Dictionary> {
  const known = loaded[language];
  if (known) return known;
  const dictionary = await importers[language]();
  registerDictionary(language, dictionary);
  return dictionary;
}

/** Dot paths of every string in the English dictionary: 'nav.login', 'errors.codes.WRONG_PASSWORD', ... */
type Paths<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Paths<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
export type MessageKey = Paths<Dictionary>;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The stored choice, else English (SPEC §1: stored locally, default and fallback English). */
export function storedLanguage(storage: Pick<Storage, 'getItem'> | null): Language {
  try {
    const value = storage?.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/** Saves the player's choice; a storage that refuses (private mode, quota) leaves the session language as is. */
export function storeLanguage(storage: Pick<Storage, 'setItem'> | null, language: Language): void {
  try {
    storage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // The choice still applies to this session.
  }
}

/**
 * The message at a dot path, only when it is a string the dictionary itself holds: rosetta's own lookup
 * walks inherited members too, so a server code such as 'toString' or 'constructor' must not reach it.
 */
export function messageAt(dictionary: unknown, key: string): string | undefined {
  let node: unknown = dictionary;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' && node !== '' ? node : undefined;
}

export interface Translator {
  language: Language;
  t(key: MessageKey, params?: Record<string, string | number>): string;
  /** A key that may not exist (an error code from the server): undefined when missing. */
  maybe(key: string, params?: Record<string, string | number>): string | undefined;
}

/**
 * A translator over the dictionaries loaded so far (the language's own must be loaded: loadDictionary).
 * `tables` is for tests (a language missing a key).
 */
export function createTranslator(language: Language, tables: Partial<Record<Language, Dictionary>> = loaded): Translator {
  const i18n = rosetta<Dictionary>({ ...tables } as Record<Language, Dictionary>);
  i18n.locale(language);
  const lookup = (key: string, params?: Record<string, string | number>): string | undefined => {
    // Fallback English for a key a language lacks (the dictionary test keeps this from happening).
    const lang = messageAt(tables[language], key) !== undefined ? language : messageAt(tables.en, key) !== undefined ? 'en' : null;
    return lang === null ? undefined : i18n.t(key, params ?? {}, lang);
  };
  return {
    language,
    t: (key, params) => lookup(key, params) ?? key,
    maybe: lookup,
  };
}
