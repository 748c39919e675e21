import rosetta from 'rosetta';
import type { Dictionary } from './en.ts';

export const LANGUAGES = ['en', 'pt', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export const LANGUAGE_STORAGE_KEY = 'casino.language';

/*
 * Each language's dictionary comes in two chunks of its own: the shell (header, navigation, lobby), which
 * the entry loads beside the app for the stored language, and the screens (error messages, forms, wallet,
 * profile, bonuses, pages), loaded with the first lazily loaded screen, dialog or toast. A visitor
 * downloads only their language's shell for the lobby; a language picked later is loaded whole before the
 * interface switches to it.
 */
type Part = 'shell' | 'screens';
const importers: Record<Language, Record<Part, () => Promise<Partial<Dictionary>>>> = {
  en: {
    shell: () => import('./en.shell.ts').then((module) => module.enShell),
    screens: () => import('./en.screens.ts').then((module) => module.enScreens),
  },
  pt: {
    shell: () => import('./pt.shell.ts').then((module) => module.ptShell),
    screens: () => import('./pt.screens.ts').then((module) => module.ptScreens),
  },
  es: {
    shell: () => import('./es.shell.ts').then((module) => module.esShell),
    screens: () => import('./es.screens.ts').then((module) => module.esScreens),
  },
};

/** The dictionaries loaded so far, each with the parts that have arrived (tests register all three whole). */
const loaded: Partial<Record<Language, Partial<Dictionary>>> = {};
const loadedParts = new Map<Language, Set<Part>>();

/** Makes (part of) a dictionary available to every translator, without loading it (tests, and after a load). */
export function registerDictionary(language: Language, dictionary: Partial<Dictionary>): void {
  loaded[language] = { ...loaded[language], ...dictionary };
}

async function loadPart(language: Language, part: Part): Promise<void> {
  const parts = loadedParts.get(language) ?? new Set<Part>();
  if (parts.has(part)) return;
  registerDictionary(language, await importers[language][part]());
  parts.add(part);
  loadedParts.set(language, parts);
}

/** The first load: the shell of the stored language. */
export function loadShellDictionary(language: Language): Promise<void> {
  return loadPart(language, 'shell');
}

/** A language the player picks: both parts, before the interface switches to it. */
export async function loadDictionary(language: Language): Promise<void> {
  await Promise.all([loadPart(language, 'shell'), loadPart(language, 'screens')]);
}

/** Before a screen, dialog or toast shows: the screens part of every language loaded so far. */
export async function loadScreensDictionaries(): Promise<void> {
  await Promise.all([...loadedParts.keys()].map((language) => loadPart(language, 'screens')));
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
 * A translator over the dictionaries loaded so far, as they are at each lookup (a part that arrives later
 * is seen at once). `tables` is for tests (a language missing a key).
 */
export function createTranslator(language: Language, tables: Partial<Record<Language, Partial<Dictionary>>> = loaded): Translator {
  const i18n = rosetta<Partial<Dictionary>>();
  const given = new Map<Language, Partial<Dictionary>>();
  const table = (lang: Language) => {
    const dictionary = tables[lang];
    if (dictionary && given.get(lang) !== dictionary) {
      i18n.set(lang, dictionary);
      given.set(lang, dictionary);
    }
    return dictionary;
  };
  const lookup = (key: string, params?: Record<string, string | number>): string | undefined => {
    // Fallback English for a key a language lacks (the dictionary test keeps this from happening).
    const lang = messageAt(table(language), key) !== undefined ? language : messageAt(table('en'), key) !== undefined ? 'en' : null;
    return lang === null ? undefined : i18n.t(key, params ?? {}, lang);
  };
  return {
    language,
    t: (key, params) => lookup(key, params) ?? key,
    maybe: lookup,
  };
}
