import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { errorMessageKey, ruleMessageKey, UNKNOWN_RULE_KEY } from '../../api/errors.ts';
import type { User } from '../../machines/effects.ts';
import { profilePictureMachine } from '../../machines/profilePicture.machine.ts';
import { acceptAttribute } from '../../rules/files.ts';
import { Button } from '../components/Button.tsx';
import { FileField } from '../components/FileField.tsx';
import { FormError } from '../components/Form.tsx';
import { useT } from '../i18n-context.ts';
import type { ProfileSectionProps } from '../screens/ProfileScreen.tsx';
import { theme } from '../theme.ts';
import { useFlow, useWiring } from '../wiring.ts';

/*
 * The profile picture (src/machines/profilePicture.machine.ts): the current one, a file picker whose
 * choice is checked before sending (jpg, jpeg, png under 5 MB: the message beside the control) and
 * previewed, Upload and Cancel for the chosen one, and Remove for the current one.
 */

const Box = styled('div')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(3)};
  align-items: flex-start;
  p {
    margin: 0;
  }
  .frame {
    display: flex;
    flex-wrap: wrap;
    gap: ${theme.space(4)};
    align-items: center;
  }
  img {
    width: 96px;
    height: 96px;
    border-radius: 50%;
    object-fit: cover;
    border: 1px solid ${theme.color.border};
    background: ${theme.color.background};
  }
  .muted {
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.small};
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: ${theme.space(2)};
  }
  .error {
    color: ${theme.color.danger};
    font-size: ${theme.font.size.small};
  }
`;

export function Picture(_: ProfileSectionProps) {
  const { app } = useWiring();
  const user = useSelector(app, (s) => s.context.user);
  return user ? <PictureEditor user={user} /> : null;
}

/** An object URL for the chosen file while it is shown, revoked after. */
function usePreview(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (file === null || typeof URL.createObjectURL !== 'function') {
      setUrl(null);
      return undefined;
    }
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}

export function PictureEditor({ user }: { user: User }) {
  const { t } = useT();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const actor = useFlow(profilePictureMachine, { user });
  const snapshot = useSelector(actor, (s) => s);
  const { imageUrl, file, fileError, errorCode, failed } = snapshot.context;
  const preview = usePreview(file);
  const uploading = snapshot.matches('uploading');
  const removing = snapshot.matches('removing');
  const busy = uploading || removing;
  const chosen = snapshot.matches('chosen') || uploading;
  // A file dropped or sent leaves the picker empty, so the same file can be chosen again.
  useEffect(() => {
    if (file === null && input.current) input.current.value = '';
  }, [file]);
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0];
    if (picked) actor.send({ type: 'CHOOSE', file: picked });
  };
  const described = [`${id}-hint`, fileError ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <Box>
      <div className="frame">
        {chosen && file ? (
          <>
            {preview ? <img src={preview} alt={t('profile.picture.preview')} /> : null}
            <p className="muted">{t('profile.picture.previewNote')}</p>
          </>
        ) : imageUrl ? (
          <img src={imageUrl} alt={t('profile.picture.alt', { name: user.username })} />
        ) : (
          <p>{t('profile.picture.none')}</p>
        )}
      </div>
      {failed ? <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError> : null}
      <div>
        <FileField
          ref={input}
          id={`${id}-file`}
          label={t('profile.picture.choose')}
          button={t('profile.identity.chooseFile')}
          accept={acceptAttribute('profileImage')}
          aria-invalid={fileError !== null}
          aria-describedby={described}
          disabled={busy}
          onChange={choose}
        />
        <p id={`${id}-hint`} className="muted">
          {t('profile.picture.hint')}
        </p>
        {fileError ? (
          <p id={`${id}-error`} className="error" role="alert">
            {t(ruleMessageKey(fileError) ?? UNKNOWN_RULE_KEY)}
          </p>
        ) : null}
      </div>
      <div className="actions">
        {chosen ? (
          <>
            <Button type="button" disabled={busy} aria-busy={uploading} onClick={() => actor.send({ type: 'UPLOAD' })}>
              {uploading ? t('profile.picture.uploading') : t('profile.picture.upload')}
            </Button>
            <Button type="button" variant="secondary" disabled={busy} onClick={() => actor.send({ type: 'CANCEL' })}>
              {t('common.cancel')}
            </Button>
          </>
        ) : imageUrl ? (
          <Button type="button" variant="secondary" disabled={busy} aria-busy={removing} onClick={() => actor.send({ type: 'REMOVE' })}>
            {removing ? t('profile.picture.removing') : t('profile.picture.remove')}
          </Button>
        ) : null}
      </div>
    </Box>
  );
}
