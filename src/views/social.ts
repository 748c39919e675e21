/*
 * The boundary to Google's and Facebook's sign-in SDKs: their scripts are loaded on first use, from the
 * providers' own addresses, and only when the server says the provider is configured. Everything here
 * touches the page (script tags, globals, popups), so it stays in the views; the machines see a credential
 * or a login as an event or an actor's output.
 */

export const GOOGLE_SDK_URL = 'https://accounts.google.com/gsi/client';
/** Facebook serves one SDK per locale: en_US, pt_BR, es_ES. */
export const facebookSdkUrl = (locale: string) => `https://connect.facebook.net/${locale}/sdk.js`;
export const FACEBOOK_GRAPH_VERSION = 'v19.0';

export interface FacebookLogin {
  accessToken: string;
  userID: string;
}

export interface SocialSignIn {
  /**
   * Renders Google's own sign-in button into `element`; `onCredential` receives the ID token when the
   * player completes it. Rejects when the SDK cannot be loaded. Resolves with a function that removes it.
   */
  renderGoogleButton(
    element: HTMLElement,
    options: { clientId: string; locale: string; onCredential: (credential: string) => void },
  ): Promise<() => void>;
  /** Opens Facebook's login popup. null: the player closed it or refused. Rejects when the SDK cannot load. */
  facebookLogin(options: { appId: string; locale: string }): Promise<FacebookLogin | null>;
}

interface GoogleIdentity {
  accounts: {
    id: {
      initialize(config: { client_id: string; callback: (response: { credential?: string }) => void; ux_mode?: 'popup' }): void;
      renderButton(
        element: HTMLElement,
        options: { type?: 'standard'; theme?: 'filled_black' | 'outline'; size?: 'large'; text?: 'continue_with'; locale?: string; width?: number },
      ): void;
      cancel?(): void;
    };
  };
}

interface FacebookSdk {
  init(config: { appId: string; version: string; cookie?: boolean; xfbml?: boolean }): void;
  login(
    callback: (response: { status?: string; authResponse?: { accessToken?: string; userID?: string } | null }) => void,
    options?: { scope?: string },
  ): void;
}

declare global {
  interface Window {
    google?: GoogleIdentity;
    FB?: FacebookSdk;
    fbAsyncInit?: () => void;
  }
}

const scripts = new Map<string, Promise<void>>();

/** Adds a script tag once per address; a failed load can be tried again. */
export function loadScript(src: string): Promise<void> {
  const known = scripts.get(src);
  if (known) return known;
  const loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.defer = true;
    script.onload = () => resolve();
    script.onerror = () => {
      script.remove();
      scripts.delete(src);
      reject(new Error(`could not load ${src}`));
    };
    document.head.appendChild(script);
  });
  scripts.set(src, loading);
  return loading;
}

/** Google wants a BCP 47 tag; Facebook an underscore locale with a region. */
const FACEBOOK_LOCALES: Readonly<Record<string, string>> = { en: 'en_US', pt: 'pt_BR', es: 'es_ES' };

let facebookAppId: string | null = null;

export function createSocialSignIn(): SocialSignIn {
  return {
    async renderGoogleButton(element, { clientId, locale, onCredential }) {
      await loadScript(GOOGLE_SDK_URL);
      const google = window.google;
      if (!google) throw new Error('Google Identity Services did not start');
      google.accounts.id.initialize({
        client_id: clientId,
        ux_mode: 'popup',
        callback: (response) => {
          if (response.credential) onCredential(response.credential);
        },
      });
      google.accounts.id.renderButton(element, {
        type: 'standard',
        theme: 'filled_black',
        size: 'large',
        text: 'continue_with',
        locale,
        width: Math.min(400, Math.max(200, element.clientWidth || 280)),
      });
      return () => {
        element.replaceChildren();
      };
    },
    async facebookLogin({ appId, locale }) {
      await loadScript(facebookSdkUrl(FACEBOOK_LOCALES[locale] ?? 'en_US'));
      const sdk = window.FB;
      if (!sdk) throw new Error('the Facebook SDK did not start');
      if (facebookAppId !== appId) {
        sdk.init({ appId, version: FACEBOOK_GRAPH_VERSION, cookie: false, xfbml: false });
        facebookAppId = appId;
      }
      return new Promise<FacebookLogin | null>((resolve) => {
        sdk.login(
          (response) => {
            const auth = response.authResponse;
            resolve(response.status === 'connected' && auth?.accessToken && auth.userID ? { accessToken: auth.accessToken, userID: auth.userID } : null);
          },
          { scope: 'public_profile,email' },
        );
      });
    },
  };
}
