import { useId, type ChangeEvent } from 'react';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { errorMessageKey, ruleMessageKey } from '../../api/errors.ts';
import { acceptAttribute } from '../../rules/files.ts';
import { canUpload, documentOf, documentsMachine, type Document, type DocumentLabel } from '../../machines/documents.machine.ts';
import { FileField } from '../components/FileField.tsx';
import { FormError } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { useFlow, useWiring } from '../wiring.ts';
import type { ProfileSectionProps } from '../screens/ProfileScreen.tsx';

/*
 * The profile's identity verification section (src/machines/documents.machine.ts): each document label
 * with its document's status, or a file input that uploads the chosen file; basic information first.
 */

const Stack = styled('div')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(3)};
  p {
    margin: 0;
  }
`;

const Note = styled('p')`
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.small};
`;

const Labels = styled('ul')`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: ${theme.space(3)};
`;

const Item = styled('li')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(2)};
  padding: ${theme.space(3)} ${theme.space(4)};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.medium};
  background: ${theme.color.background};
  h4 {
    margin: 0;
    font-size: ${theme.font.size.body};
  }
`;

const Status = styled('p')`
  font-weight: 600;
  &[data-status='Approved'] {
    color: ${theme.color.success};
  }
  &[data-status='Rejected'] {
    color: ${theme.color.danger};
  }
`;

const STATUS_KEYS = {
  Approved: 'profile.identity.statuses.approved',
  'Under Review': 'profile.identity.statuses.underReview',
  Rejected: 'profile.identity.statuses.rejected',
} as const;

interface LabelRowProps {
  label: DocumentLabel;
  document: Document | null;
  open: boolean;
  busy: boolean;
  uploading: boolean;
  problem: string | null;
  onFile: (file: File) => void;
}

function LabelRow({ label, document, open, busy, uploading, problem, onFile }: LabelRowProps) {
  const { t } = useT();
  const id = useId();
  const change = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) onFile(file);
  };
  return (
    <Item>
      <h4>
        {label.name}
        {label.required ? ` · ${t('profile.identity.requiredDocument')}` : ''}
      </h4>
      {label.description ? <Note>{label.description}</Note> : null}
      {document ? (
        <Status data-status={document.status}>
          {t('profile.identity.status')}: {t(STATUS_KEYS[document.status])}
        </Status>
      ) : null}
      {open ? (
        <>
          <FileField
            id={id}
            label={t('profile.identity.uploadFor', { label: label.name })}
            button={t('profile.identity.chooseFile')}
            accept={acceptAttribute('document')}
            disabled={busy}
            aria-invalid={problem !== null}
            aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
            onChange={change}
          />
          <Note id={`${id}-hint`}>{t('profile.identity.fileHint')}</Note>
          {uploading ? <Note role="status">{t('profile.identity.uploading')}</Note> : null}
          {problem ? (
            <FormError id={`${id}-error`} role="alert">
              {problem}
            </FormError>
          ) : null}
        </>
      ) : null}
    </Item>
  );
}

export interface DocumentsProps {
  profileComplete: boolean;
  refetchMs?: number;
  /** Opens the basic information section (for a player who must complete it first). */
  onOpenBasicInfo?: () => void;
}

/** The section for a given profile state (the model test renders it so). */
export function DocumentsSection({ profileComplete, refetchMs, onOpenBasicInfo }: DocumentsProps) {
  const { t } = useT();
  const actor = useFlow(documentsMachine, refetchMs === undefined ? { profileComplete } : { profileComplete, refetchMs });
  const state = useSelector(actor, (s) => s.value as string);
  const { labels, documents, errorCode, uploadingLabelId, problem, submitted } = useSelector(actor, (s) => s.context);

  if (state === 'incomplete') {
    return (
      <Stack>
        <p role="status">{t('profile.identity.profileFirst')}</p>
        {onOpenBasicInfo ? (
          <div>
            <Button type="button" variant="secondary" onClick={onOpenBasicInfo}>
              {t('profile.identity.openBasicInfo')}
            </Button>
          </div>
        ) : null}
      </Stack>
    );
  }
  if (state === 'failed') {
    return (
      <Stack>
        <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError>
        <div>
          <Button type="button" onClick={() => actor.send({ type: 'RETRY' })}>
            {t('common.retry')}
          </Button>
        </div>
      </Stack>
    );
  }
  if (state === 'loadingLabels' || state === 'loadingDocuments') {
    return (
      <Note role="status" aria-busy="true">
        {t('states.loading')}
      </Note>
    );
  }
  const busy = uploadingLabelId !== null;
  const problemText = (labelId: number): string | null => {
    if (problem?.labelId !== labelId) return null;
    if (problem.rule) return t(ruleMessageKey(problem.rule) ?? 'rules.file.type');
    return t(errorMessageKey(problem.code, 'documentUpload'));
  };
  return (
    <Stack>
      <p>{t('profile.identity.intro')}</p>
      <Note>{t('profile.identity.lockedNotice')}</Note>
      {submitted ? <Note role="status">{t('profile.identity.submitted')}</Note> : null}
      <Labels>
        {labels.map((label) => (
          <LabelRow
            key={label.id}
            label={label}
            document={documentOf(documents, label.id)}
            open={canUpload(documents, label.id) || uploadingLabelId === label.id}
            busy={busy}
            uploading={uploadingLabelId === label.id}
            problem={problemText(label.id)}
            onFile={(file) => actor.send({ type: 'UPLOAD', documentLabelId: label.id, file })}
          />
        ))}
      </Labels>
    </Stack>
  );
}

/** The section as the profile page shows it: for the player signed in, restarted once basic information is complete. */
export default function Documents({ show }: ProfileSectionProps) {
  const { app, settings } = useWiring();
  const profileComplete = useSelector(app, (s) => s.context.user?.profileComplete === true);
  const refetchMs = useSelector(settings, (s) => s.context.settings?.documentRefetchMs);
  return <DocumentsSection key={String(profileComplete)} profileComplete={profileComplete} refetchMs={refetchMs} onOpenBasicInfo={() => show('basic-information')} />;
}
