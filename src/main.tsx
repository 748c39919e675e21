import { loadShellDictionary, storedLanguage } from './i18n/index.ts';

/*
 * Entry: the loading screen is in index.html, so it shows before any script runs; the application and the
 * shell of the stored language's dictionary are chunks of their own, loaded side by side here, and the loading screen
 * leaves once the app has mounted.
 */
function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const root = document.getElementById('root');
if (root) {
  const language = storedLanguage(localStorageOrNull());
  void Promise.all([import('./views/App.tsx'), loadShellDictionary(language)]).then(([{ mountApp }]) => {
    mountApp(root);
    document.getElementById('loading')?.remove();
  });
}
