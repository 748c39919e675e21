import { createContext, useContext } from 'react';
import { createTranslator, type Translator } from '../i18n/index.ts';

export const TranslatorContext = createContext<Translator>(createTranslator('en'));

/** The translator of the language the player chose. */
export function useT(): Translator {
  return useContext(TranslatorContext);
}
