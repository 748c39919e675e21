import type { Dictionary } from './en.ts';
import { esShell } from './es.shell.ts';
import { esScreens } from './es.screens.ts';

/**
 * Spanish (neutral). Same keys and placeholders as English.
 * The app loads it in two parts, as English (en.ts); this whole is for the tests.
 */
export const es: Dictionary = { ...esShell, ...esScreens };
