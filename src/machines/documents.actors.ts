import type { ApiClient } from '../api/client.ts';
import { settle } from './actors.ts';
import type { ChangePasswordRequest } from './changePassword.machine.ts';
import type { Document, DocumentLabel, DocumentUpload } from './documents.machine.ts';
import type { ResendVerificationRequest } from './resendVerification.machine.ts';

/*
 * The calls of the profile's identity documents and password change, and of the login dialog's new
 * verification email, one per actor name. src/machines/actors.ts makes them actors that load this module
 * with their first call, so the SPA's first load does not carry them.
 */

export const documentsCalls = {
  /** GET /document/get-document-labels */
  loadDocumentLabels: async (client: ApiClient, _input: undefined, signal: AbortSignal): Promise<DocumentLabel[]> =>
    (await settle(client.GET('/document/get-document-labels', { signal }))).data.documentLabels,
  /** GET /document/get-documents */
  loadDocuments: async (client: ApiClient, _input: undefined, signal: AbortSignal): Promise<Document[]> =>
    (await settle(client.GET('/document/get-documents', { signal }))).data.documents,
  /** POST /document/upload, multipart: the label's id and the file (the browser sets the boundary). */
  uploadDocument: async (client: ApiClient, input: DocumentUpload, signal: AbortSignal): Promise<Document> => {
    const form = new FormData();
    form.append('documentLabelId', String(input.documentLabelId));
    form.append('file', input.file, input.file.name);
    const body = { documentLabelId: String(input.documentLabelId), file: input.file.name };
    return (await settle(client.POST('/document/upload', { body, bodySerializer: () => form, signal }))).data.document;
  },
  /** POST /internal/update-password */
  updatePassword: async (client: ApiClient, input: ChangePasswordRequest, signal: AbortSignal): Promise<void> => {
    await settle(client.POST('/internal/update-password', { body: input, signal }));
  },
  /** POST /user/resend-verification-email */
  resendVerificationEmail: async (client: ApiClient, input: ResendVerificationRequest, signal: AbortSignal): Promise<void> => {
    await settle(client.POST('/user/resend-verification-email', { body: input, signal }));
  },
};

export type DocumentsCalls = typeof documentsCalls;
