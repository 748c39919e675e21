import { documentReviewedNotice, notifyPlayer } from './notifications.ts';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkFileContent, sniffFileType, type SniffedType } from '../../src/rules/files.ts';
import type { AppContext } from '../context.ts';
import { maybeOne, one, type Queryable } from '../db/db.ts';
import { DomainError } from './errors.ts';
import { fileIssueError, storedFile } from './profile.ts';
import { hasCompleteProfile, type UserRow } from './users.ts';

export type DocumentStatus = 'Under Review' | 'Approved' | 'Rejected';

export interface DocumentRow {
  [key: string]: unknown;
  id: number;
  user_id: number;
  document_label_id: number;
  label: string;
  status: DocumentStatus;
  file_name: string;
  created_at: Date;
  reviewed_at: Date | null;
}

export interface DocumentLabelRow {
  [key: string]: unknown;
  id: number;
  key: string;
  name: string;
  description: string;
  required: boolean;
}

export const MAX_FILES_PER_UPLOAD = 10;

const SELECT_DOCUMENT = `SELECT d.id, d.user_id, d.document_label_id, l.name AS label, d.status, d.file_name, d.created_at, d.reviewed_at
  FROM documents d JOIN document_labels l ON l.id = d.document_label_id`;

export function listDocumentLabels(db: Queryable): Promise<DocumentLabelRow[]> {
  return db.query<DocumentLabelRow>('SELECT id, key, name, description, required FROM document_labels ORDER BY sort_order, id');
}

export function listDocuments(db: Queryable, userId: number): Promise<DocumentRow[]> {
  return db.query<DocumentRow>(`${SELECT_DOCUMENT} WHERE d.user_id = $1 ORDER BY d.id DESC`, [userId]);
}

/**
 * The player's file name, kept for display only (the file is stored under a random name): no path, no
 * control characters (C0, DEL, C1), no invisible formatting that could disguise it (bidirectional overrides
 * and isolates, zero-width characters), at most 120 characters, its end (the extension) kept.
 */
export function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, '')
    .trim();
  return Array.from(clean).slice(-120).join('') || 'document';
}

export interface DocumentUpload {
  documentLabelId: number;
  fileName: string;
  bytes: Buffer;
}

/**
 * Stores the uploads as one unit: the labels and every file are checked first, then all rows are written
 * in one transaction; a failure leaves neither rows nor files behind. `fieldOf(i)` names the i-th pair's
 * parts in field errors ('file' for a single upload, 'file.1' for the second of several).
 */
export async function uploadDocuments(
  ctx: AppContext,
  user: UserRow,
  uploads: DocumentUpload[],
  fieldOf: (index: number) => { label: string; file: string } = () => ({ label: 'documentLabelId', file: 'file' }),
): Promise<DocumentRow[]> {
  if (!hasCompleteProfile(user)) throw new DomainError('PROFILE_INCOMPLETE');
  const seen = new Set<number>();
  const known = new Set((await listDocumentLabels(ctx.db)).map((label) => label.id));
  uploads.forEach((upload, index) => {
    // Checked here rather than in SQL: an id beyond the integer column's range is unknown, not an error.
    if (!known.has(upload.documentLabelId)) {
      throw new DomainError('PLEASE_CHECK_REQUEST_DATA', [{ field: fieldOf(index).label, code: 'documentLabel' }]);
    }
    if (seen.has(upload.documentLabelId)) {
      throw new DomainError('PLEASE_CHECK_REQUEST_DATA', [{ field: fieldOf(index).label, code: 'duplicate' }]);
    }
    seen.add(upload.documentLabelId);
  });
  uploads.forEach((upload, index) => {
    const issue = checkFileContent(upload.bytes, 'document', upload.fileName);
    if (issue !== null) throw fileIssueError(issue, fieldOf(index).file);
  });
  // Images decoded and encoded anew, PDFs checked (server/domain/images.ts): one file at a time.
  const typed: (DocumentUpload & { type: SniffedType; storedName: string })[] = [];
  for (const [index, upload] of uploads.entries()) {
    const sniffed = sniffFileType(upload.bytes);
    if (sniffed === null) throw fileIssueError('file.type', fieldOf(index).file);
    const stored = await storedFile(upload.bytes, sniffed, 'document', fieldOf(index).file);
    typed.push({ ...upload, bytes: stored.bytes, type: stored.type, storedName: randomBytes(18).toString('base64url') });
  }
  const dir = join(ctx.uploadsDir, 'documents');
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  try {
    return await ctx.db.transaction(async (tx) => {
      const ids: number[] = [];
      for (const upload of typed) {
        const live = await maybeOne(
          tx,
          "SELECT 1 FROM documents WHERE user_id = $1 AND document_label_id = $2 AND status <> 'Rejected'",
          [user.id, upload.documentLabelId],
        );
        if (live) throw new DomainError('DOCUMENT_ALREADY_SUBMITTED');
        const path = join(dir, upload.storedName);
        writeFileSync(path, upload.bytes, { mode: 0o600 });
        written.push(path);
        const row = await one<{ id: number }>(
          tx,
          `INSERT INTO documents (user_id, document_label_id, file_name, stored_name, file_type, size_bytes, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
          [user.id, upload.documentLabelId, displayName(upload.fileName), upload.storedName, upload.type, upload.bytes.length, ctx.now()],
        );
        ids.push(row.id);
      }
      return tx.query<DocumentRow>(`${SELECT_DOCUMENT} WHERE d.id = ANY($1::bigint[]) ORDER BY d.id`, [ids]);
    });
  } catch (error) {
    for (const path of written) rmSync(path, { force: true });
    if ((error as { code?: string }).code === '23505') throw new DomainError('DOCUMENT_ALREADY_SUBMITTED');
    throw error;
  }
}

/** Submitted documents stay; only a rejected one may be removed, so that the player can upload it again. */
export async function removeDocument(ctx: AppContext, userId: number, documentId: number): Promise<void> {
  const row = await maybeOne<{ status: DocumentStatus; stored_name: string }>(
    ctx.db,
    'SELECT status, stored_name FROM documents WHERE id = $1 AND user_id = $2',
    [documentId, userId],
  );
  if (!row) throw new DomainError('NOT_FOUND');
  if (row.status !== 'Rejected') throw new DomainError('DOCUMENT_ALREADY_SUBMITTED');
  // Only while still rejected: a review cannot slip in between the check and the delete.
  const deleted = await ctx.db.query("DELETE FROM documents WHERE id = $1 AND status = 'Rejected' RETURNING id", [documentId]);
  if (deleted.length === 0) throw new DomainError('DOCUMENT_ALREADY_SUBMITTED');
  rmSync(join(ctx.uploadsDir, 'documents', row.stored_name), { force: true });
}

/** The operator's review (simulator: the admin side is not part of this product). */
export async function reviewDocument(ctx: AppContext, documentId: number, status: 'Approved' | 'Rejected'): Promise<DocumentRow> {
  return ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const updated = await tx.query<{ id: number }>(
      "UPDATE documents SET status = $2, reviewed_at = $3 WHERE id = $1 AND status = 'Under Review' RETURNING id",
      [documentId, status, now],
    );
    if (updated.length === 0) {
      const exists = await maybeOne(tx, 'SELECT 1 FROM documents WHERE id = $1', [documentId]);
      throw exists ? new DomainError('INVALID_VALUE') : new DomainError('NOT_FOUND');
    }
    const document = await one<DocumentRow>(tx, `${SELECT_DOCUMENT} WHERE d.id = $1`, [documentId]);
    // The player hears of the review (and the bell rings at once, through the event stream).
    await notifyPlayer(tx, document.user_id, ...documentReviewedNotice(document.label, status), now);
    return document;
  });
}
