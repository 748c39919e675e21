import { enShell } from './en.shell.ts';
import { enScreens } from './en.screens.ts';

/**
 * English: the default and fallback language, and the list of every key the other languages must have.
 * The app loads it in two parts (en.shell.ts first, en.screens.ts with the first screen or dialog that is
 * not the lobby); this whole is for the types, the tests and the reviewers' flow charts.
 */
export const en = { ...enShell, ...enScreens };

/** The shape every dictionary has: the same keys as English, any strings. */
type Widen<T> = { -readonly [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type Dictionary = Widen<typeof en>;
export type ShellDictionary = Widen<typeof enShell>;
export type ScreensDictionary = Widen<typeof enScreens>;
