import type { AppContext } from '../context.ts';
import { DomainError } from '../domain/errors.ts';
import * as documents from '../domain/documents.ts';
import { player } from './auth-guard.ts';
import { apiDocument } from './mappers.ts';
import { checkParts, readMultipart } from './multipart.ts';
import type { JsonHandlers } from './types.ts';

export function documentHandlers(ctx: AppContext): JsonHandlers {
  return {
    documentGetDocumentLabels: async () => ({
      documentLabels: (await documents.listDocumentLabels(ctx.db)).map((label) => ({
        id: label.id,
        key: label.key,
        name: label.name,
        description: label.description,
        required: label.required,
      })),
    }),

    documentGetDocuments: async (input) => ({
      documents: (await documents.listDocuments(ctx.db, player(input).userId)).map(apiDocument),
    }),

    documentUpload: async (input) => {
      const me = player(input);
      const form = await readMultipart(input.req, 1);
      checkParts('documentUpload', form);
      const file = form.files[0];
      const labelId = form.fields.get('documentLabelId')?.[0];
      if (!file || !labelId) throw new DomainError('PLEASE_CHECK_REQUEST_DATA');
      const [document] = await documents.uploadDocuments(ctx, me.user, [
        { documentLabelId: Number(labelId), fileName: file.fileName, bytes: file.bytes },
      ]);
      if (!document) throw new Error('upload stored no document');
      return { document: apiDocument(document) };
    },

    documentUploadAll: async (input) => {
      const me = player(input);
      const form = await readMultipart(input.req, documents.MAX_FILES_PER_UPLOAD);
      checkParts('documentUploadAll', form);
      const labels = form.fields.get('documentLabelId') ?? [];
      if (labels.length !== form.files.length) {
        throw new DomainError('PLEASE_CHECK_REQUEST_DATA', [{ field: 'file', code: 'count' }]);
      }
      const stored = await documents.uploadDocuments(
        ctx,
        me.user,
        form.files.map((file, index) => ({ documentLabelId: Number(labels[index]), fileName: file.fileName, bytes: file.bytes })),
        (index) => ({ label: `documentLabelId.${index}`, file: `file.${index}` }),
      );
      return { documents: stored.map(apiDocument) };
    },

    documentRemove: async (input) => {
      await documents.removeDocument(ctx, player(input).userId, input.body.documentId);
      return { success: true };
    },
  };
}
