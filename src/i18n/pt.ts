import type { Dictionary } from './en.ts';
import { ptShell } from './pt.shell.ts';
import { ptScreens } from './pt.screens.ts';

/**
 * Portuguese (neutral between Portugal and Brazil where the two differ). Same keys and placeholders as English.
 * The app loads it in two parts, as English (en.ts); this whole is for the tests.
 */
export const pt: Dictionary = { ...ptShell, ...ptScreens };
