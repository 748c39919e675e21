// @vitest-environment happy-dom
import { fireEvent, screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { errorMessageKey, ruleMessageKey } from '../../src/api/errors.ts';
import { documentsFixtures } from '../../src/flows/fixtures/documents.ts';
import type { Notice } from '../../src/machines/effects.ts';
import { canUpload, documentOf, type Document, type DocumentsEvent, type documentsMachine, type DocumentUpload } from '../../src/machines/documents.machine.ts';
import { DocumentsSection } from '../../src/views/profile/Documents.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';
import { button } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type DocumentsView = View<typeof documentsMachine>;
type DocumentsSnapshot = SnapshotFrom<typeof documentsMachine>;

/*
 * The identity verification section: basic information first; each label with its document's status or
 * a file input; a file refused before sending (type, size); the upload with the uploading flag, the
 * 500 ms wait (the simulated clock), the list fetched again, the toast; a failure's toast and message.
 */

const STATUS_KEYS = {
  Approved: 'profile.identity.statuses.approved',
  'Under Review': 'profile.identity.statuses.underReview',
  Rejected: 'profile.identity.statuses.rejected',
} as const;

/** The uploads each path's view sent, in order. */
const sent = new WeakMap<DocumentsView, DocumentUpload[]>();

/** The toasts the path has shown: a failure's, or the success once the list came again (or could not). */
function expectedNotices(view: DocumentsView): Notice[] {
  return view.steps.flatMap((step): Notice[] => {
    if (step.kind.kind === 'error' && step.kind.src === 'uploadDocument') return [{ tone: 'error', message: 'messages.documentUploadFailed' }];
    const settledRefetch = (step.kind.kind === 'done' || step.kind.kind === 'error') && step.kind.src === 'loadDocuments' && step.state.context.submitted && step.state.matches('ready');
    const before = view.steps[view.steps.indexOf(step) - 1];
    return settledRefetch && before?.state.matches('refetching') ? [{ tone: 'success', message: 'messages.documentSubmissionSuccess' }] : [];
  });
}

function seeEffects(view: DocumentsView) {
  expect(view.harness.notices).toEqual(expectedNotices(view));
  // Sent only what was accepted before sending, once per upload.
  const uploads = view.steps.filter((step, index) => step.state.matches('uploading') && !view.steps[index - 1]?.state.matches('uploading'));
  expect(sent.get(view)!.length).toBe(uploads.length);
}

function fileInput(view: DocumentsView, name: string): HTMLInputElement | null {
  return screen.queryByLabelText(view.t('profile.identity.uploadFor', { label: name })) as HTMLInputElement | null;
}

function seeLabels(view: DocumentsView, snapshot: DocumentsSnapshot) {
  const { labels, documents, uploadingLabelId, problem, submitted } = snapshot.context;
  const items = within(screen.getByRole('list')).getAllByRole('listitem');
  expect(items.length).toBe(labels.length);
  labels.forEach((label, index) => {
    const item = items[index]!;
    expect(within(item).getByRole('heading').textContent).toBe(`${label.name} · ${view.t('profile.identity.requiredDocument')}`);
    const document: Document | null = documentOf(documents, label.id);
    const status = item.querySelector('[data-status]');
    if (document) expect(status?.textContent).toBe(`${view.t('profile.identity.status')}: ${view.t(STATUS_KEYS[document.status])}`);
    else expect(status).toBeNull();
    // Documents cannot be edited once submitted: an input only where none is, or it was rejected.
    const input = fileInput(view, label.name);
    const offered = canUpload(documents, label.id) || uploadingLabelId === label.id;
    expect(input !== null).toBe(offered);
    if (input) {
      expect(input.disabled).toBe(uploadingLabelId !== null);
      expect(input.accept).toBe('.jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf');
      // The button the player sees, in the player's language (the input's own speaks the browser's).
      expect(within(item).getByText(view.t('profile.identity.chooseFile')).getAttribute('for')).toBe(input.id);
    }
    const uploading = within(item).queryByText(view.t('profile.identity.uploading'));
    expect(uploading !== null).toBe(uploadingLabelId === label.id);
    const alert = within(item).queryByRole('alert');
    if (problem?.labelId === label.id) {
      expect(alert?.textContent).toBe(problem.rule ? view.t(ruleMessageKey(problem.rule)!) : view.t(errorMessageKey(problem.code, 'documentUpload')));
      expect(input?.getAttribute('aria-describedby')).toContain(alert!.id);
      expect(input?.getAttribute('aria-invalid')).toBe('true');
    } else expect(alert).toBeNull();
  });
  expect(screen.queryByText(view.t('profile.identity.submitted')) !== null).toBe(submitted);
}

/** What an upload sends: the label and the file chosen for it. */
function seeLastUpload(view: DocumentsView, snapshot: DocumentsSnapshot) {
  expect(sent.get(view)!.at(-1)).toEqual(snapshot.context.upload);
  expect(snapshot.context.upload?.documentLabelId).toBe(snapshot.context.uploadingLabelId);
}

const seeLoading = (view: DocumentsView) => {
  const status = screen.getByRole('status');
  expect(status.textContent).toBe(view.t('states.loading'));
  expect(status.getAttribute('aria-busy')).toBe('true');
};

describeModel('documents', {
  fixtures: documentsFixtures,
  filterEvents: (snapshot, event) => {
    // Live updates matter while the list shows, and while it is read again (the read starts over).
    if (event.type === 'LIVE.NOTIFICATION' || event.type === 'LIVE.RECONNECTED') return snapshot.matches('ready') || snapshot.matches('reloading');
    if (event.type !== 'UPLOAD') return true;
    const upload = event as Extract<DocumentsEvent, { type: 'UPLOAD' }>;
    const { documents, uploadingLabelId, problem } = (snapshot as DocumentsSnapshot).context;
    // The view offers the input only where a document may be uploaded; a refused file is tried once.
    if (!snapshot.matches('ready') || uploadingLabelId !== null || !canUpload(documents, upload.documentLabelId)) return false;
    return problem === null || problem.rule === null;
  },
  render: (view) => {
    const uploads: DocumentUpload[] = [];
    sent.set(view, uploads);
    const uploadDocument = fromPromise<Document, DocumentUpload>(({ input, signal }) => {
      uploads.push(input);
      return view.call('uploadDocument', input, signal);
    });
    return renderWithServices(<DocumentsSection profileComplete={view.input.profileComplete} refetchMs={view.input.refetchMs} onOpenBasicInfo={() => {}} />, {
      actors: { ...view.actors, uploadDocument },
      live: view.live,
    });
  },
  events: {
    UPLOAD: async (view, event) => {
      const { labels } = (view.step.state as DocumentsSnapshot).context;
      const label = labels.find((candidate) => candidate.id === event.documentLabelId)!;
      fireEvent.change(fileInput(view, label.name)!, { target: { files: [event.file] } });
    },
    RETRY: (view) => view.user.click(button(view.t('common.retry'))),
    'LIVE.NOTIFICATION': (view, event) => view.live.send(event),
    'LIVE.RECONNECTED': (view, event) => view.live.send(event),
  },
  states: {
    incomplete: (view) => {
      seeEffects(view);
      // Basic information first (SPEC §5): said so, with the way to it, and nothing loaded or offered.
      expect(screen.getByRole('status').textContent).toBe(view.t('profile.identity.profileFirst'));
      expect(button(view.t('profile.identity.openBasicInfo'))).toBeTruthy();
      expect(screen.queryByRole('list')).toBeNull();
      expect(view.steps.some((step) => step.kind.kind === 'done' || step.kind.kind === 'error')).toBe(false);
    },
    loadingLabels: (view) => {
      seeEffects(view);
      seeLoading(view);
    },
    loadingDocuments: (view) => {
      seeEffects(view);
      seeLoading(view);
    },
    failed: (view, snapshot) => {
      seeEffects(view);
      expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(snapshot.context.errorCode, 'default')));
      expect(button(view.t('common.retry'))).toBeTruthy();
    },
    ready: (view, snapshot) => {
      seeEffects(view);
      seeLabels(view, snapshot);
    },
    uploading: (view, snapshot) => {
      seeEffects(view);
      seeLabels(view, snapshot);
      seeLastUpload(view, snapshot);
    },
    // Read again after a notification: the list shown stays meanwhile.
    reloading: (view, snapshot) => {
      seeEffects(view);
      seeLabels(view, snapshot);
      expect(screen.queryByText(view.t('states.loading'))).toBeNull();
    },
    // The uploading flag stays on through the wait and the new list.
    waiting: (view, snapshot) => {
      seeEffects(view);
      seeLabels(view, snapshot);
      seeLastUpload(view, snapshot);
    },
    refetching: (view, snapshot) => {
      seeEffects(view);
      seeLabels(view, snapshot);
      seeLastUpload(view, snapshot);
    },
  },
});
