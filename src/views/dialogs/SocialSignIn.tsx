import { useEffect, useRef, useState } from 'react';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { errorMessageKey } from '../../api/errors.ts';
import { useT } from '../i18n-context.ts';
import { useWiring, useFlow } from '../wiring.ts';
import { socialSignInMachine } from '../../machines/socialSignIn.machine.ts';
import { FormError } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { Actions, Divider } from './parts.tsx';

const GoogleSlot = styled('div')`
  display: flex;
  justify-content: center;
  min-height: 2.75rem;
  &[hidden] {
    display: none;
  }
`;

/**
 * Google and Facebook sign-in (SPEC §4) for the login and register dialogs: shown only for the providers
 * the server has configured (its settings), nothing at all when none is. The flow closes the dialog.
 */
export function SocialSignIn() {
  const { t, language } = useT();
  const services = useWiring();
  const social = useSelector(services.settings, (s) => s.context.settings?.socialLogin ?? null);
  const settingsFailed = useSelector(services.settings, (s) => s.matches('failed'));
  // Settings that failed to load at start are asked for again when a dialog that needs them opens: once
  // per opening, so a server that keeps failing is not asked in a loop.
  const retried = useRef(false);
  useEffect(() => {
    if (!settingsFailed || retried.current) return;
    retried.current = true;
    services.settings.send({ type: 'RETRY' });
  }, [settingsFailed, services.settings]);

  const facebookAppId = social?.facebookAppId ?? null;
  const googleClientId = social?.googleClientId ?? null;
  const actor = useFlow(socialSignInMachine);
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  const busy = useSelector(actor, (s) => !s.matches('idle') && !s.matches('failed'));

  // Google's own button, rendered by its SDK into the slot; it hands back an ID token.
  const slot = useRef<HTMLDivElement>(null);
  const [googleUnavailable, setGoogleUnavailable] = useState(false);
  useEffect(() => {
    const element = slot.current;
    if (!googleClientId || !element) return;
    let removed = false;
    let remove: (() => void) | null = null;
    services.social
      .renderGoogleButton(element, {
        clientId: googleClientId,
        locale: language,
        onCredential: (credential) => actor.send({ type: 'GOOGLE.CREDENTIAL', credential }),
      })
      .then(
        (cleanup) => {
          if (removed) cleanup();
          else remove = cleanup;
        },
        // Blocked or offline: no Google button rather than a dead one.
        () => setGoogleUnavailable(true),
      );
    return () => {
      removed = true;
      remove?.();
    };
  }, [googleClientId, language, actor, services.social]);

  const showGoogle = googleClientId !== null && !googleUnavailable;
  if (!showGoogle && facebookAppId === null) return null;
  return (
    <div>
      <Divider>{t('auth.social.divider')}</Divider>
      {failed ? <FormError role="alert">{t(errorMessageKey(errorCode, 'login'))}</FormError> : null}
      <Actions>
        {showGoogle ? <GoogleSlot ref={slot} aria-busy={busy} data-provider="google" /> : null}
        {facebookAppId !== null ? (
          <Button
            type="button"
            variant="secondary"
            disabled={busy}
            aria-busy={busy}
            onClick={() => actor.send({ type: 'FACEBOOK.START' })}
          >
            {t('auth.social.facebook')}
          </Button>
        ) : null}
      </Actions>
    </div>
  );
}
