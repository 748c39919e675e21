import { createElement, StrictMode, useEffect, useMemo, useState, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { glob, setup as setupGoober } from 'goober';
import { createTranslator, isLanguage, loadDictionary, storedLanguage, type Language } from '../../i18n/index.ts';
import { TranslatorContext } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { createBrowserHouseWiring, HouseWiringContext, type HouseWiring } from './wiring.ts';

/*
 * A house page's start (each game is a build entry of its own, src/house/*.tsx): the language the player
 * chose on this device (the game page tells a later change with a `house:language` message), the
 * composition root, and the game for the session of the address (`?session=`).
 */

function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function HouseRoot({ wiring, language: initial, game }: { wiring: HouseWiring; language: Language; game: ReactElement }) {
  const [language, setLanguage] = useState(initial);
  useEffect(() => {
    const listener = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      const data = event.data as { type?: unknown; language?: unknown } | null;
      if (data?.type !== 'house:language' || !isLanguage(data.language)) return;
      const next = data.language;
      void loadDictionary(next).then(() => setLanguage(next));
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, []);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  const translator = useMemo(() => createTranslator(language), [language]);
  return (
    <HouseWiringContext.Provider value={wiring}>
      <TranslatorContext.Provider value={translator}>{game}</TranslatorContext.Provider>
    </HouseWiringContext.Provider>
  );
}

export function mountHouse(render: (sessionId: string) => ReactElement): void {
  setupGoober(createElement);
  // eslint-disable-next-line @typescript-eslint/no-unused-expressions
  glob`
    body { margin: 0; background: ${theme.color.background}; color: ${theme.color.text}; font-family: ${theme.font.body}; }
    *, *::before, *::after { box-sizing: border-box; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  `;
  const element = document.getElementById('root');
  if (!element) return;
  const language = storedLanguage(localStorageOrNull());
  const sessionId = new URLSearchParams(window.location.search).get('session') ?? '';
  const wiring = createBrowserHouseWiring();
  void loadDictionary(language).then(() => {
    createRoot(element).render(
      <StrictMode>
        <HouseRoot wiring={wiring} language={language} game={render(sessionId)} />
      </StrictMode>,
    );
  });
}
