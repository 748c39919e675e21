import { registerDictionary } from '../../src/i18n/index.ts';
import { en } from '../../src/i18n/en.ts';
import { pt } from '../../src/i18n/pt.ts';
import { es } from '../../src/i18n/es.ts';

// The app loads one dictionary at a time (src/main.tsx, App.tsx); tests translate in every language at once.
registerDictionary('en', en);
registerDictionary('pt', pt);
registerDictionary('es', es);
