import { assign, setup } from 'xstate';
import type { components } from '../api/schema.d.ts';
import type { RuleCode } from '../rules/codes.ts';
import { checkFile } from '../rules/files.ts';
import { notProvided, type ErrorCode, type Notice } from './effects.ts';
import { toFailure } from './failure.ts';
import { liveEventsNotProvided, type Notification } from './live.ts';

/*
 * The profile's identity verification (SPEC §4, §5): the document labels, each with the status of its
 * document (Approved, Under Review, Rejected) or a way to upload one. Basic information comes first
 * (SPEC §5): a player whose profile is incomplete is told so and nothing loads. An upload checks the
 * file's type and size before sending (SPEC §5, src/rules/files.ts); then, as SPEC §4 says: the uploading
 * flag on (the label's `uploadingLabelId`), send, wait (`refetchDelay`, settings.documentRefetchMs, 500 ms),
 * fetch the documents again, store them, mark submitted, show the success toast, flag off. A failure shows
 * 'Failed to upload document' (and the code's own message beside the label) and turns the flag off.
 * A document under review or approved cannot be uploaded again; a rejected one can (the server allows it).
 * A review comes as a notification (live updates): on any notification, or after the stream came back
 * from a drop, the list is read again quietly, so an approval shows without a reload.
 */

export type Document = components['schemas']['Document'];
export type DocumentLabel = components['schemas']['DocumentLabel'];

/** What an upload sends: the label's id and the chosen file (multipart, POST /document/upload). */
export interface DocumentUpload {
  documentLabelId: number;
  file: File;
}

export interface DocumentsInput {
  /** `user.profileComplete`: basic information is complete (SPEC §5). */
  profileComplete: boolean;
  /** settings.documentRefetchMs; 500 when the settings are not known. */
  refetchMs?: number;
}

/** A problem with one label's upload: a rule code found before sending, or the server's refusal. */
export interface UploadProblem {
  labelId: number;
  rule: RuleCode | null;
  code: ErrorCode | null;
}

export interface DocumentsContext {
  profileComplete: boolean;
  refetchMs: number;
  labels: DocumentLabel[];
  documents: Document[];
  /** Loading failed: its code (null without an answer). */
  errorCode: ErrorCode | null;
  /** The uploading flag: the label whose document is being sent, null otherwise. */
  uploadingLabelId: number | null;
  upload: DocumentUpload | null;
  problem: UploadProblem | null;
  /** A document was submitted in this visit. */
  submitted: boolean;
}

export type DocumentsEvent =
  | { type: 'UPLOAD'; documentLabelId: number; file: File }
  | { type: 'RETRY' }
  | { type: 'LIVE.NOTIFICATION'; notification: Notification; unreadCount: number }
  | { type: 'LIVE.RECONNECTED' };

/** The newest document of a label, or null: its status is the label's. */
export function documentOf(documents: readonly Document[], labelId: number): Document | null {
  return documents.find((document) => document.documentLabelId === labelId) ?? null;
}

/** Whether the label takes an upload: none yet, or the last one was rejected. */
export function canUpload(documents: readonly Document[], labelId: number): boolean {
  const document = documentOf(documents, labelId);
  return document === null || document.status === 'Rejected';
}

export const documentsMachine = setup({
  types: {
    context: {} as DocumentsContext,
    events: {} as DocumentsEvent,
    input: {} as DocumentsInput,
  },
  actors: {
    /** GET /document/get-document-labels */
    loadDocumentLabels: notProvided<DocumentLabel[], undefined>('loadDocumentLabels'),
    /** GET /document/get-documents */
    loadDocuments: notProvided<Document[], undefined>('loadDocuments'),
    /** POST /document/upload (multipart: documentLabelId, file) */
    uploadDocument: notProvided<Document, DocumentUpload>('uploadDocument'),
    liveEvents: liveEventsNotProvided,
  },
  delays: {
    /** SPEC §4: the wait between the upload and the new list (settings.documentRefetchMs). */
    refetchDelay: ({ context }) => context.refetchMs,
  },
  actions: {
    notify: (_, _params: Notice) => {},
    storeLabels: assign((_, params: { labels: DocumentLabel[] }) => ({ labels: params.labels })),
    storeDocuments: assign((_, params: { documents: Document[] }) => ({ documents: params.documents, errorCode: null })),
    storeLoadFailure: assign((_, params: { error: unknown }) => ({ errorCode: toFailure(params.error).code })),
    /** The uploading flag on, for the chosen file. */
    startUpload: assign((_, params: { upload: DocumentUpload }) => ({ upload: params.upload, uploadingLabelId: params.upload.documentLabelId, problem: null })),
    /** The document the upload answered with, first in the list until the list is fetched again. */
    storeUploaded: assign(({ context }, params: { document: Document }) => ({
      documents: [params.document, ...context.documents.filter((document) => document.documentLabelId !== params.document.documentLabelId)],
    })),
    refuseFile: assign((_, params: { documentLabelId: number; rule: RuleCode }) => ({ problem: { labelId: params.documentLabelId, rule: params.rule, code: null } })),
    storeUploadFailure: assign(({ context }, params: { error: unknown }) => ({
      problem: { labelId: context.uploadingLabelId ?? 0, rule: null, code: toFailure(params.error).code },
    })),
    markSubmitted: assign({ submitted: true }),
    /** The uploading flag off. */
    endUpload: assign({ uploadingLabelId: null, upload: null }),
  },
  guards: {
    profileIncomplete: ({ context }) => !context.profileComplete,
    fileRefused: (_, params: { file: File }) => checkFile(params.file, 'document') !== null,
  },
}).createMachine({
  id: 'documents',
  context: ({ input }) => ({
    profileComplete: input.profileComplete,
    refetchMs: input.refetchMs ?? 500,
    labels: [],
    documents: [],
    errorCode: null,
    uploadingLabelId: null,
    upload: null,
    problem: null,
    submitted: false,
  }),
  // Subscribed from the start: a review that comes while the list loads is not missed.
  invoke: { src: 'liveEvents' },
  initial: 'loadingLabels',
  states: {
    /** SPEC §5: basic information first; the section says so instead of offering uploads. */
    incomplete: {},
    loadingLabels: {
      // Nothing is asked for a player whose basic information is not complete (the call never starts).
      always: { guard: 'profileIncomplete', target: 'incomplete' },
      invoke: {
        src: 'loadDocumentLabels',
        onDone: { target: 'loadingDocuments', actions: { type: 'storeLabels', params: ({ event }) => ({ labels: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeLoadFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    loadingDocuments: {
      invoke: {
        src: 'loadDocuments',
        onDone: { target: 'ready', actions: { type: 'storeDocuments', params: ({ event }) => ({ documents: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeLoadFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: { RETRY: 'loadingLabels' },
    },
    ready: {
      on: {
        UPLOAD: [
          {
            guard: { type: 'fileRefused', params: ({ event }) => ({ file: event.file }) },
            actions: {
              type: 'refuseFile',
              params: ({ event }) => ({ documentLabelId: event.documentLabelId, rule: checkFile(event.file, 'document') ?? 'file.type' }),
            },
          },
          { target: 'uploading', actions: { type: 'startUpload', params: ({ event }) => ({ upload: { documentLabelId: event.documentLabelId, file: event.file } }) } },
        ],
        // A notification may be a review of a document; after a drop, events may have been missed.
        'LIVE.NOTIFICATION': 'reloading',
        'LIVE.RECONNECTED': 'reloading',
      },
    },
    /** The list read again, quietly: the one shown stays until the new one comes (or if it does not). */
    reloading: {
      on: {
        // Another notification (or a drop) while the list is read: the read may predate it, so it starts again.
        'LIVE.NOTIFICATION': { target: 'reloading', reenter: true },
        'LIVE.RECONNECTED': { target: 'reloading', reenter: true },
      },
      invoke: {
        src: 'loadDocuments',
        onDone: { target: 'ready', actions: { type: 'storeDocuments', params: ({ event }) => ({ documents: event.output }) } },
        onError: 'ready',
      },
    },
    uploading: {
      invoke: {
        src: 'uploadDocument',
        input: ({ context }) => context.upload!,
        onDone: { target: 'waiting', actions: { type: 'storeUploaded', params: ({ event }) => ({ document: event.output }) } },
        onError: {
          target: 'ready',
          actions: [
            { type: 'storeUploadFailure', params: ({ event }) => ({ error: event.error }) },
            { type: 'notify', params: { tone: 'error', message: 'messages.documentUploadFailed' } },
            'endUpload',
          ],
        },
      },
    },
    /** SPEC §4: 500 ms between the upload and the new list. */
    waiting: {
      after: { refetchDelay: 'refetching' },
    },
    refetching: {
      invoke: {
        src: 'loadDocuments',
        onDone: {
          target: 'ready',
          actions: [
            { type: 'storeDocuments', params: ({ event }) => ({ documents: event.output }) },
            'markSubmitted',
            { type: 'notify', params: { tone: 'success', message: 'messages.documentSubmissionSuccess' } },
            'endUpload',
          ],
        },
        // The upload went through (its document is in the list already): only the new list is missing.
        onError: {
          target: 'ready',
          actions: ['markSubmitted', { type: 'notify', params: { tone: 'success', message: 'messages.documentSubmissionSuccess' } }, 'endUpload'],
        },
      },
    },
  },
});
