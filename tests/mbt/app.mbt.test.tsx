// @vitest-environment happy-dom
import { useMemo, type ReactNode } from 'react';
import { act, screen, within } from '@testing-library/react';
import { useSelector } from '@xstate/react';
import { Route, Switch } from 'wouter';
import { navigate as navigateTo } from 'wouter/use-browser-location';
import { expect, vi } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import { createApiClient } from '../../src/api/client.ts';
import { appFixtures } from '../../src/flows/fixtures/app.ts';
import { createTranslator } from '../../src/i18n/index.ts';
import type { AppEvent, appMachine } from '../../src/machines/app.machine.ts';
import type { ErrorCode, Notice } from '../../src/machines/effects.ts';
import { ApiFailure } from '../../src/machines/failure.ts';
import { TranslatorContext, useT } from '../../src/views/i18n-context.ts';
import { Layout } from '../../src/views/Layout.tsx';
import ProfileScreen from '../../src/views/screens/ProfileScreen.tsx';
import { useWiring } from '../../src/views/wiring.ts';
import { renderWithServices, type AppEffect } from '../unit/views/harness.tsx';
import { errorEnvelope } from './fakes.ts';
import type { ModelStep } from './model.ts';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type AppView = View<typeof appMachine>;
type AppSnapshot = SnapshotFrom<typeof appMachine>;

/*
 * The root machine through what the player sees of it: the header (the language picker; "Log in" and
 * "Register" for a visitor, the bell and the account menu with "Log out" for a player), the profile screen the path starts on
 * (it shows the player's user; "Please login first" for a visitor; loading while the session is
 * restored), the toasts (the harness's services.notify) and where the app goes (services.navigate moves
 * the happy-dom browser location, as the real one does). The app actor is the harness's, with the path's
 * deferred fakes for restoreSession, fetchProfile and logout and its named side effects recorded.
 *
 * The events it takes from other flows are sent as their producers send them: SESSION.LOGGED_IN as the
 * login dialog does (services.app.send with the session POST /user/login answered); SESSION.EXPIRED and
 * SESSION.INACTIVE by the API client's hooks, wired as the composition root wires them (src/views/wiring.ts),
 * on a 401 and a 403 USER_INACTIVE answer to another call; USER.UPDATED as the profile flow does and
 * SESSION.LIMIT_REACHED as the reality check does (services.app.send). LOGOUT and LANGUAGE.CHANGE are the
 * header's.
 */

/** The translator follows the app's language, as App.tsx's does. */
function Translated({ children }: { children: ReactNode }) {
  const { app } = useWiring();
  const language = useSelector(app, (s) => s.context.language);
  const translator = useMemo(() => createTranslator(language), [language]);
  return <TranslatorContext.Provider value={translator}>{children}</TranslatorContext.Provider>;
}

/** Where the app sends the player ('/'): a stand-in for the lobby. */
function Lobby() {
  const { t } = useT();
  return <h1>{t('games.lobbyTitle')}</h1>;
}

const START = '/profile';

/** An API client wired to the app as createServices wires it, whose one answer is `status` with `code`. */
function clientAnswering(view: AppView, status: number, code: ErrorCode) {
  const app = view.harness.services.app;
  return createApiClient({
    baseUrl: 'http://casino.test/api/v1',
    getToken: () => app.getSnapshot().context.accessToken,
    onUnauthorized: () => app.send({ type: 'SESSION.EXPIRED' }),
    onInactive: () => app.send({ type: 'SESSION.INACTIVE' }),
    fetch: async () =>
      new Response(JSON.stringify(errorEnvelope(new ApiFailure(status, code))), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
  });
}

/** Another screen's call, answered `status` `code`: the client's hook tells the app. */
async function answeredCall(view: AppView, status: number, code: ErrorCode) {
  const client = clientAnswering(view, status, code);
  await act(async () => {
    await client.GET('/user/get-user');
  });
}

// ── The app's named side effects, per transition ─────────────────────────────────────────────────────

const notify = (tone: 'success' | 'error', message: string): AppEffect => ({ type: 'notify', params: { tone, message } as Notice });
/** Leaving the session: storage cleared, flows restarted, back to the lobby, and the cause's toast. */
const sessionEnded = (tone: 'success' | 'error', message: string): AppEffect[] => [
  { type: 'clearStorage' },
  { type: 'resetFlows' },
  { type: 'navigate', params: { to: '/' } },
  notify(tone, message),
];

const EFFECTS: Record<string, (event: EventObject) => AppEffect[]> = {
  'app LANGUAGE.CHANGE #0': (event) => [
    { type: 'persistLanguage', params: { language: (event as Extract<AppEvent, { type: 'LANGUAGE.CHANGE' }>).language } },
  ],
  'app.booting done #0': () => [],
  'app.booting done #1': () => [],
  'app.booting error #0': () => [{ type: 'clearStorage' }, notify('error', 'messages.inactive')],
  'app.booting error #1': () => sessionEnded('error', 'messages.sessionExpired'),
  'app.booting error #2': () => [{ type: 'clearStorage' }],
  'app.visitor SESSION.LOGGED_IN #0': (event) => [
    { type: 'saveToken', params: { accessToken: (event as Extract<AppEvent, { type: 'SESSION.LOGGED_IN' }>).accessToken } },
  ],
  'app.player SESSION.EXPIRED #0': () => sessionEnded('error', 'messages.sessionExpired'),
  'app.player SESSION.INACTIVE #0': () => sessionEnded('error', 'messages.inactive'),
  'app.player USER.UPDATED #0': () => [],
  'app.player LOGOUT #0': () => [],
  // The session limit: no toast; the lobby with the session-limit dialog and the minutes played.
  'app.player SESSION.LIMIT_REACHED #0': (event) => [
    { type: 'clearStorage' },
    { type: 'resetFlows' },
    {
      type: 'navigate',
      params: {
        to: `/?dialog=session-limit&played=${Math.floor((event as Extract<AppEvent, { type: 'SESSION.LIMIT_REACHED' }>).playedMs / 60_000)}`,
      },
    },
  ],
  'app.player.refreshing done #0': () => [],
  'app.player.refreshing error #0': () => sessionEnded('error', 'messages.inactive'),
  'app.player.refreshing error #1': () => sessionEnded('error', 'messages.sessionExpired'),
  'app.player.refreshing error #2': () => [],
  'app.player.loggingOut SESSION.EXPIRED #0': () => [],
  'app.player.loggingOut SESSION.INACTIVE #0': () => [],
  'app.player.loggingOut LOGOUT #0': () => [],
  'app.player.loggingOut SESSION.LIMIT_REACHED #0': () => [],
  'app.player.loggingOut done #0': () => sessionEnded('success', 'messages.logoutSuccess'),
  'app.player.loggingOut error #0': () => sessionEnded('success', 'messages.logoutSuccess'),
};

function effectsOf(step: ModelStep): AppEffect[] {
  return step.transitions.flatMap((key) => {
    const name = key.replace(/xstate\.(done|error)\.actor\.\S+/, '$1');
    const effects = EFFECTS[name];
    if (!effects) throw new Error(`no expected effects for ${key}`);
    return effects(step.event);
  });
}

/** Every effect the path's steps so far should have had, in order (the start has none). */
function expectedEffects(view: AppView): AppEffect[] {
  return view.steps.slice(1).flatMap(effectsOf);
}

// ── What the player sees ─────────────────────────────────────────────────────────────────────────────

async function seeApp(view: AppView, snapshot: AppSnapshot) {
  const { t } = createTranslator(snapshot.context.language);
  const player = snapshot.matches('player');
  const effects = expectedEffects(view);
  // The side effects, the toasts among them, are exactly those of the transitions taken.
  expect(view.harness.appEffects, "the app's side effects").toEqual(effects);
  expect(view.harness.notices, 'toasts').toEqual(effects.flatMap((effect) => (effect.type === 'notify' ? [effect.params] : [])));

  // The header: the language picker, and the visitor's or the player's buttons.
  const header = within(screen.getByRole('banner'));
  expect((header.getByRole('combobox', { name: t('nav.language') }) as HTMLSelectElement).value).toBe(snapshot.context.language);
  // The player's bell and menu are a chunk of their own, loaded with the session.
  if (snapshot.matches('player')) await header.findByRole('button', { name: t('nav.account') });
  const shown = (name: string) => header.queryByRole('button', { name }) !== null;
  // Restoring a saved session: neither a visitor's nor a player's buttons until it is known.
  const visitor = snapshot.matches('visitor');
  expect(shown(t('nav.login')), '"Log in" shown').toBe(visitor);
  expect(shown(t('nav.register')), '"Register" shown').toBe(visitor);
  expect(shown(t('nav.account')), 'the account menu shown').toBe(player);
  if (player) {
    const account = header.getByRole('button', { name: t('nav.account') });
    const loggingOut = snapshot.matches({ player: 'loggingOut' });
    expect(account.getAttribute('aria-busy'), 'the account menu busy while logging out').toBe(String(loggingOut));
  }
  expect(shown(t('nav.notifications')), 'the bell shown').toBe(player);

  // Where the player is: the profile the path started on, or the lobby once the session ended.
  const navigations = effects.flatMap((effect) => (effect.type === 'navigate' ? [effect.params.to] : []));
  const sentHome = navigations.length > 0;
  // The lobby, with the session-limit dialog when the session limit sent the player there.
  expect(window.location.pathname + (sentHome ? window.location.search : ''), 'where the app is').toBe(navigations.at(-1) ?? START);
  const heading = screen.getByRole('heading', { level: 1 }).textContent;
  if (sentHome) {
    expect(heading).toBe(t('games.lobbyTitle'));
    return;
  }
  expect(heading).toBe(t('profile.title'));
  if (snapshot.matches('booting')) {
    expect(screen.getByRole('status').textContent).toBe(t('states.loading'));
  } else if (snapshot.matches('visitor')) {
    expect(screen.getByRole('status').textContent).toContain(t('messages.pleaseLogin'));
    expect(window.location.search, 'the login dialog asked for').toBe('?dialog=login');
  } else {
    // The player's own user: the login's, the restored, the refreshed or the updated one.
    const user = snapshot.context.user!;
    // (The profile page opens on its basic information: the player's details fill its form.)
    expect(screen.getByDisplayValue(user.username)).toBeTruthy();
    expect(screen.getByDisplayValue(user.email)).toBeTruthy();
  }
}

describeModel('app', {
  fixtures: appFixtures,
  // The language picker fires a change only for another language.
  filterEvents: (snapshot, event) =>
    event.type !== 'LANGUAGE.CHANGE' || (event as Extract<AppEvent, { type: 'LANGUAGE.CHANGE' }>).language !== snapshot.context.language,
  render: (view) => {
    window.history.replaceState(null, '', START);
    return renderWithServices(
      <Translated>
        <Layout>
          <Switch>
            <Route path={START}>
              <ProfileScreen />
            </Route>
            <Route>
              <Lobby />
            </Route>
          </Switch>
        </Layout>
      </Translated>,
      {
        app: { actors: view.actors, input: view.input },
        inspect: view.inspect,
        navigate: (to, options) => navigateTo(to, options),
      },
    );
  },
  events: {
    // As the login dialog does once POST /user/login answered (src/views/dialogs/LoginDialog.tsx).
    'SESSION.LOGGED_IN': async (view, event) => {
      act(() => view.harness.services.app.send(event));
    },
    // The API client's 401 hook: another call answered 401.
    'SESSION.EXPIRED': (view) => answeredCall(view, 401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED'),
    // The API client's 403 hook: another call (with the token) answered 403 USER_INACTIVE.
    'SESSION.INACTIVE': (view) => answeredCall(view, 403, 'USER_INACTIVE'),
    // As the reality check does at the session limit (src/views/wiring.ts: its limitReached action).
    'SESSION.LIMIT_REACHED': async (view, event) => {
      act(() => view.harness.services.app.send(event));
    },
    LOGOUT: async (view) => {
      const { t } = createTranslator(view.step.state.context.language);
      const account = within(screen.getByRole('banner')).getByRole('button', { name: t('nav.account') });
      // While logging out "Log out" is busy and cannot be chosen: a second LOGOUT can only come from
      // elsewhere (another handler in the same tick), so it is sent as the menu would have sent it.
      if (account.getAttribute('aria-busy') === 'true') {
        act(() => view.harness.services.app.send({ type: 'LOGOUT' }));
        return;
      }
      await view.user.click(account);
      await view.user.click(screen.getByRole('menuitem', { name: t('nav.logout') }));
    },
    // As the profile flow does, once it saved the player's changes.
    'USER.UPDATED': async (view, event) => {
      act(() => view.harness.services.app.send(event));
    },
    'LANGUAGE.CHANGE': (view, event) => view.user.selectOptions(screen.getByRole('combobox'), event.language),
  },
  states: {
    // Restoring the saved session: the header offers nothing until it is known; the profile is loading.
    booting: seeApp,
    visitor: seeApp,
    // The login's user shows while the profile is fetched again.
    'player.refreshing': seeApp,
    'player.ready': seeApp,
    // The logout call is in flight: the player still sees the session, "Log out" busy.
    'player.loggingOut': seeApp,
  },
});
