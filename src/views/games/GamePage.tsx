import { useEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { errorMessageKey } from '../../api/errors.ts';
import { formatAmount } from '../../format.ts';
import { canRetry, launchMachine, type GameSession, type HouseEngine, type LaunchInput } from '../../machines/launch.machine.ts';
import { walletsMachine } from '../../machines/wallets.machine.ts';
import { parseAmount } from '../../money.ts';
import { FormError } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { Icon } from '../components/Icons.tsx';
import { EmptyState, useDocumentTitle } from '../components/Screen.tsx';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { ButtonLink } from '../components/Page.tsx';
import { useFlow, useWiring } from '../wiring.ts';
import { depositOver } from '../address.ts';

/*
 * The game page (DESIGN.md; src/machines/launch.machine.ts): the game fills the page under a thin bar
 * (name, balance, real money or demo, full screen, close); on a phone it takes the whole screen.
 *
 * The game itself is the house game's own page in a frame (`/house/ENGINE.html?session=SESSION`, a build
 * entry of its own). It talks to this page by messages, from this origin and that frame only: it says
 * `house:ready`, and is answered `house:token` (the player's access token, null for a visitor: a
 * real-money session answers only its player's token) and `house:language`, sent again when the player
 * picks another language. A title no engine stands in for says so instead of opening an empty frame.
 */

/** The Originals. */
const OriginalsLink = styled(ButtonLink)`
  margin-right: ${theme.space(2)};
`;

const Page = styled('section')`
  display: flex;
  flex-direction: column;
  margin: ${theme.space(4)} 0;
  /* The game takes the height of the screen under the top bar. */
  min-height: max(30rem, calc(100vh - ${theme.layout.topBarDesktop} - ${theme.space(8)}));
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.large};
  overflow: hidden;
  @media (max-width: 767px) {
    position: fixed;
    inset: 0;
    z-index: 50;
    margin: 0;
    border: 0;
    border-radius: 0;
  }
  &:fullscreen {
    margin: 0;
    border-radius: 0;
  }
`;

const Bar = styled('header')`
  display: flex;
  align-items: center;
  gap: ${theme.space(2)};
  min-height: 3rem;
  padding: 0 ${theme.space(2)} 0 ${theme.space(4)};
  background: ${theme.color.surfaceRaised};
  h1 {
    flex: 1;
    min-width: 0;
    margin: 0;
    font-size: ${theme.font.size.body};
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  output {
    font-variant-numeric: tabular-nums;
    white-space: nowrap;
    font-size: ${theme.font.size.small};
  }
  /* On a phone the game's name needs the room, and the game shows its balance itself. */
  @media (max-width: 479px) {
    output {
      display: none;
    }
  }
  button {
    min-width: 2.75rem;
    min-height: 2.75rem;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: ${theme.space(1)};
    padding: 0 ${theme.space(2)};
    border: 0;
    border-radius: ${theme.radius.small};
    background: transparent;
    color: ${theme.color.text};
    font: inherit;
    font-size: ${theme.font.size.small};
    cursor: pointer;
  }
  button:focus-visible {
    outline: 2px solid ${theme.color.focus};
  }
`;

/** Real money or demo: two buttons, the one in use pressed. */
const Modes = styled('div')`
  display: inline-flex;
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.small};
  overflow: hidden;
  button {
    border-radius: 0;
  }
  button[aria-pressed='true'] {
    background: ${theme.color.accentStrong};
  }
  button:disabled {
    cursor: default;
  }
`;

/** The house game's page: the whole stage, no border; "Starting the game" over it until it is up. */
const FrameBox = styled('div')`
  flex: 1;
  position: relative;
  display: flex;
  min-height: 0;
  iframe {
    flex: 1;
    display: block;
    width: 100%;
    border: 0;
    background: ${theme.color.background};
  }
  [role='status'] {
    position: absolute;
    inset: 0;
    display: flex;
    align-items: center;
    justify-content: center;
    margin: 0;
    background: ${theme.color.background};
    color: ${theme.color.textMuted};
  }
`;

/** An empty wallet's way on, above the game. */
const Notice = styled('div')`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: center;
  gap: ${theme.space(2)};
  padding: ${theme.space(2)} ${theme.space(4)};
  background: ${theme.color.surfaceRaised};
  border-top: 1px solid ${theme.color.border};
  text-align: center;
  p {
    margin: 0;
  }
`;

const Stage = styled('div')`
  flex: 1;
  display: flex;
  align-items: center;
  justify-content: center;
  padding: ${theme.space(6)} ${theme.space(4)};
  text-align: center;
  img {
    width: 9rem;
    height: 12rem;
    border-radius: ${theme.radius.medium};
    margin-bottom: ${theme.space(4)};
  }
  p {
    max-width: 32rem;
    margin: 0 auto ${theme.space(4)};
  }
  [role='status'] {
    margin-bottom: ${theme.space(5)};
  }
  [role='status'] button + button {
    margin-left: ${theme.space(2)};
  }
`;

function useFullscreen(element: React.RefObject<HTMLElement | null>) {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const update = () => setOn(document.fullscreenElement === element.current && element.current !== null);
    document.addEventListener('fullscreenchange', update);
    return () => document.removeEventListener('fullscreenchange', update);
  }, [element]);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void element.current?.requestFullscreen?.().catch(() => undefined);
  };
  return { on, toggle, available: typeof document !== 'undefined' && document.fullscreenEnabled === true };
}

/** The balance the session plays with, live; "Demo" in play money. */
function SessionBalance({ session }: { session: GameSession }) {
  const { t, language } = useT();
  const actor = useFlow(walletsMachine);
  const wallet = useSelector(actor, (s) => s.context.wallets.find((candidate) => candidate.currencyCode === session.currencyCode) ?? null);
  if (session.demo || session.currencyCode === null) return <output>{t('gamePage.playMoney')}</output>;
  return <output aria-label={t('gamePage.balance')}>{wallet ? formatAmount(wallet.available, wallet.currencyCode, language) : '…'}</output>;
}

/** Real money with nothing to bet: what to do about it, rather than a game that cannot take a bet. */
function EmptyWallet({ session, onDemo }: { session: GameSession; onDemo: (() => void) | null }) {
  const { t } = useT();
  const { navigate } = useWiring();
  const actor = useFlow(walletsMachine);
  const empty = useSelector(actor, (s) => {
    const wallet = s.context.wallets.find((candidate) => candidate.currencyCode === session.currencyCode);
    return s.matches('ready') && wallet !== undefined && parseAmount(wallet.available) === 0n;
  });
  if (session.demo || !empty) return null;
  return (
    <Notice role="status">
      <p>{t('gamePage.emptyWallet', { currency: session.currencyCode ?? '' })}</p>
      <Button type="button" onClick={() => navigate(depositOver({ path: window.location.pathname, search: window.location.search }))}>
        {t('balance.deposit')}
      </Button>
      {onDemo ? (
        <Button type="button" variant="secondary" onClick={onDemo}>
          {t('gamePage.switchToDemo')}
        </Button>
      ) : null}
    </Notice>
  );
}

/** Where a house game's page is: a build entry of its own per engine. */
export function houseGameAddress(engine: HouseEngine, sessionId: string): string {
  return `/house/${engine}.html?session=${encodeURIComponent(sessionId)}`;
}

/**
 * The house game in its frame, and the messages with it: only from this origin and this frame; the token
 * once it says it is ready, the language then and whenever it changes.
 */
function HouseFrame({ engine, sessionId, title }: { engine: HouseEngine; sessionId: string; title: string }) {
  const { t, language } = useT();
  const { app } = useWiring();
  const token = useSelector(app, (s) => s.context.accessToken);
  const frame = useRef<HTMLIFrameElement>(null);
  const [ready, setReady] = useState(false);
  // Until its page has loaded (or says it is ready) the frame is covered: never a blank frame.
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const child = frame.current?.contentWindow;
      if (!child || event.origin !== window.location.origin || event.source !== child) return;
      const type = (event.data as { type?: unknown } | null)?.type;
      if (type === 'house:ready') {
        child.postMessage({ type: 'house:token', token }, window.location.origin);
        setReady(true);
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [token]);
  useEffect(() => {
    if (ready) frame.current?.contentWindow?.postMessage({ type: 'house:language', language }, window.location.origin);
  }, [ready, language]);
  return (
    <FrameBox>
      <iframe ref={frame} src={houseGameAddress(engine, sessionId)} title={title} allow="fullscreen" onLoad={() => setLoaded(true)} />
      {ready || loaded ? null : (
        <p role="status" aria-busy="true">
          {t('games.launching')}
        </p>
      )}
    </FrameBox>
  );
}

export function GamePage(input: LaunchInput) {
  const { t } = useT();
  const actor = useFlow(launchMachine, input);
  const state = useSelector(actor, (s) =>
    s.matches('playing')
      ? 'playing'
      : s.matches('unavailable')
        ? 'unavailable'
        : s.matches('failed')
          ? 'failed'
          : s.matches('loginRequired')
            ? 'loginRequired'
            : 'starting',
  );
  const context = useSelector(actor, (s) => s.context);
  const switchable = useSelector(actor, (s) => s.can({ type: 'SWITCH_MODE' }));
  const page = useRef<HTMLElement>(null);
  const fullscreen = useFullscreen(page);
  const { game, session, table } = context;
  useDocumentTitle(game?.name ?? t('gamePage.title'));
  const close = () => actor.send({ type: 'CLOSE' });
  const switchMode = () => actor.send({ type: 'SWITCH_MODE' });

  let stage;
  if (state === 'starting') {
    stage = (
      <p role="status" aria-busy="true">
        {t('games.launching')}
      </p>
    );
  } else if (state === 'loginRequired') {
    stage = (
      <div role="status">
        <p>{t('messages.pleaseLogin')}</p>
        <Button type="button" onClick={() => actor.send({ type: 'LOG_IN' })}>
          {t('nav.login')}
        </Button>
      </div>
    );
  } else if (state === 'failed') {
    stage = (
      <div>
        <FormError role="alert">{t(errorMessageKey(context.errorCode, 'default'))}</FormError>
        {canRetry(context) ? (
          <Button type="button" onClick={() => actor.send({ type: 'RETRY' })}>
            {t('common.retry')}
          </Button>
        ) : null}
        <Button type="button" variant="secondary" onClick={close}>
          {t('gamePage.back')}
        </Button>
      </div>
    );
  } else if (state === 'unavailable' && game) {
    // Never an empty frame: what this title is, and where the games that can be played are.
    stage = (
      <div>
        <img src={game.thumbnailUrl} alt="" width={300} height={400} />
        <p role="note">{t('gamePage.unavailable', { name: game.name })}</p>
        <OriginalsLink href="/category/originals">{t('gamePage.originals')}</OriginalsLink>
        <Button type="button" variant="secondary" onClick={close}>
          {t('gamePage.back')}
        </Button>
      </div>
    );
  }
  const playing = state === 'playing' && game && session && table?.engine ? { game, session, engine: table.engine } : null;

  return (
    <Page ref={page} aria-labelledby="game-title">
      <Bar>
        <h1 id="game-title">{game?.name ?? t('gamePage.title')}</h1>
        {session && state === 'playing' ? <SessionBalance session={session} /> : null}
        {state === 'playing' && session ? (
          <Modes role="group" aria-label={t('gamePage.mode')}>
            {/* The mode in use stays pressed; the other one is disabled when it cannot open (real money for a visitor, demo of a game without one). */}
            <button type="button" aria-pressed={!session.demo} disabled={session.demo ? !switchable : false} onClick={() => session.demo && switchMode()}>
              {t('gamePage.real')}
            </button>
            <button type="button" aria-pressed={session.demo} disabled={session.demo ? false : !switchable} onClick={() => !session.demo && switchMode()}>
              {t('games.demo')}
            </button>
          </Modes>
        ) : null}
        {fullscreen.available ? (
          <button type="button" aria-pressed={fullscreen.on} aria-label={t('gamePage.fullscreen')} title={t('gamePage.fullscreen')} onClick={fullscreen.toggle}>
            <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true" focusable="false">
              <path d={fullscreen.on ? 'M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5' : 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5'} />
            </svg>
          </button>
        ) : null}
        <button type="button" aria-label={t('games.exitGame')} title={t('games.exitGame')} onClick={close}>
          <Icon name="close" />
        </button>
      </Bar>
      {playing ? (
        <>
          <EmptyWallet session={playing.session} onDemo={playing.game.hasDemo && switchable ? switchMode : null} />
          <HouseFrame engine={playing.engine} sessionId={playing.session.sessionId} title={playing.game.name} />
        </>
      ) : (
        <Stage>{stage ?? <EmptyState>{t('states.loading')}</EmptyState>}</Stage>
      )}
    </Page>
  );
}

/** The game page, for `/play?game=ID&mode=real|demo` (opening a session) and `/play/SESSION`. */
export default function Play({ sessionId }: { sessionId: string | undefined }) {
  const { t } = useT();
  const { app } = useWiring();
  const signedIn = useSelector(app, (s) => s.context.accessToken !== null);
  const booting = useSelector(app, (s) => s.matches('booting'));
  const params = new URLSearchParams(useSearch());
  const game = Number(params.get('game'));
  if (booting) return <EmptyState>{t('states.loading')}</EmptyState>;
  return (
    // Logging in (or out) starts the page again: a visitor asked to log in gets the game once in.
    <GamePage
      key={String(signedIn)}
      sessionId={sessionId ?? null}
      gameId={Number.isSafeInteger(game) && game > 0 ? game : null}
      mode={params.get('mode') === 'demo' ? 'demo' : 'real'}
      signedIn={signedIn}
    />
  );
}

