import { createContext, useContext } from 'react';
import { createActor, type ActorRefFrom } from 'xstate';
import toast from 'react-hot-toast';
import { navigate as navigateTo } from 'wouter/use-browser-location';
import { createApiClient } from '../api/client.ts';
import { errorMessageKey } from '../api/errors.ts';
import { createTranslator, LANGUAGE_STORAGE_KEY, storedLanguage, type MessageKey } from '../i18n/index.ts';
import { appMachine } from '../machines/app.machine.ts';
import { createApiActors, type ApiActors } from '../machines/actors.ts';
import { settingsMachine } from '../machines/settings.machine.ts';
import { createSocialSignIn, type SocialSignIn } from './social.ts';
import { flowInspector } from './flows/inspector.ts';
import type { Notice } from '../machines/effects.ts';

/*
 * The one place where the machines' named side effects get their real implementations (ARCHITECTURE:
 * machine.provide at one place): storage, navigation, toasts and the API.
 */

export const TOKEN_STORAGE_KEY = 'casino.token';
export const LOGIN_TIME_STORAGE_KEY = 'casino.lastLoginAt';
/** Sent by the resetFlows action; the app restarts every flow it renders. */
export const RESET_FLOWS_EVENT = 'casino:reset-flows';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export interface Services {
  app: ActorRefFrom<typeof appMachine>;
  /** The server's public settings, loaded once at start (which social sign-ins are configured, limits). */
  settings: ActorRefFrom<typeof settingsMachine>;
  /** Google's and Facebook's SDKs, loaded on first use. */
  social: SocialSignIn;
  actors: ApiActors;
  notify(notice: Notice): void;
  navigate(to: string, options?: { replace?: boolean }): void;
  storeLoginTime(at: string | null): void;
}

export function createServices(): Services {
  const local = storage();
  let app: Services['app'] | null = null;
  const client = createApiClient({
    getToken: () => app?.getSnapshot().context.accessToken ?? local?.getItem(TOKEN_STORAGE_KEY) ?? null,
    onUnauthorized: () => app?.send({ type: 'SESSION.EXPIRED' }),
    onInactive: () => app?.send({ type: 'SESSION.INACTIVE' }),
  });
  const actors = createApiActors(client, { readToken: () => local?.getItem(TOKEN_STORAGE_KEY) ?? null });

  const notify = (notice: Notice) => {
    const t = createTranslator(app?.getSnapshot().context.language ?? storedLanguage(local));
    if ('message' in notice) {
      const text = t.t(notice.message as MessageKey);
      if (notice.tone === 'success') toast.success(text);
      else toast.error(text);
      return;
    }
    toast.error(t.t(errorMessageKey(notice.code, notice.fallback)));
  };
  const navigate = (to: string, options?: { replace?: boolean }) => navigateTo(to, options);

  app = createActor(
    appMachine.provide({
      actors: { restoreSession: actors.restoreSession, fetchProfile: actors.fetchProfile, logout: actors.logout },
      actions: {
        saveToken: (_, params) => local?.setItem(TOKEN_STORAGE_KEY, params.accessToken),
        clearStorage: () => {
          // SPEC §4: logout clears local storage. The language is the player's device setting, not
          // part of the session, so it is written back.
          const language = storedLanguage(local);
          local?.clear();
          local?.setItem(LANGUAGE_STORAGE_KEY, language);
        },
        resetFlows: () => window.dispatchEvent(new Event(RESET_FLOWS_EVENT)),
        navigate: (_, params) => navigate(params.to),
        notify: (_, params) => notify(params),
        persistLanguage: (_, params) => {
          local?.setItem(LANGUAGE_STORAGE_KEY, params.language);
          document.documentElement.lang = params.language;
        },
      },
    }),
    { input: { language: storedLanguage(local) }, inspect: flowInspector },
  );
  app.start();
  document.documentElement.lang = app.getSnapshot().context.language;

  const settings = createActor(settingsMachine.provide({ actors: { loadSettings: actors.loadSettings } }), {
    inspect: flowInspector,
  });
  settings.start();

  return {
    app,
    settings,
    social: createSocialSignIn(),
    actors,
    notify,
    navigate,
    storeLoginTime: (at) => {
      if (at) local?.setItem(LOGIN_TIME_STORAGE_KEY, at);
    },
  };
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside the app');
  return services;
}
