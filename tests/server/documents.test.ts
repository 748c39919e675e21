import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredPlayer, startTestServer, type FilePart, type Part, type TestServer } from '../helpers/api.ts';
import { pngChunk } from '../helpers/images.ts';

// ── Real file bytes, built here ─────────────────────────────────────────────────────────────────

/** A valid 1x1 RGB PNG. */
function tinyPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(2, 9);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 200, 100, 50]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid baseline 1x1 grey JPEG. */
function tinyJpeg(): Buffer {
  const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const huffman = (tableClass: number) => [tableClass << 4, 1, ...new Array<number>(15).fill(0), 0x00];
  return Buffer.from([
    0xff, 0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]),
    ...segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]),
    ...segment(0xc4, huffman(0)),
    ...segment(0xc4, huffman(1)),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    0x3f,
    0xff, 0xd9,
  ]);
}

/** A small valid PDF (one empty page); `tag` makes the bytes unique. */
function tinyPdf(tag = ''): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
      '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n' +
      `trailer<</Root 1 0 R>>\n%${tag}\n%%EOF\n`,
  );
}

const MiB = 1024 * 1024;

const pdf = (filename = 'passport.pdf', tag = ''): FilePart => ({ filename, content: tinyPdf(tag), contentType: 'application/pdf' });
const png = (filename = 'bill.png'): FilePart => ({ filename, content: tinyPng(), contentType: 'image/png' });
const jpeg = (filename = 'selfie.jpg'): FilePart => ({ filename, content: tinyJpeg(), contentType: 'image/jpeg' });

// ── Setup ───────────────────────────────────────────────────────────────────────────────────────

let server: TestServer;
let labels: Record<string, number>;
let documentsDir: string;

beforeAll(async () => {
  // Many players sign up from one address here; rate limits have their own tests.
  server = await startTestServer({ RATE_LIMIT: 'false' });
  documentsDir = join(server.ctx.uploadsDir, 'documents');
  const alice = await registeredPlayer(server);
  const res = await server.call('documentGetDocumentLabels', { token: alice.token });
  labels = Object.fromEntries((res.body.data.documentLabels as { key: string; id: number }[]).map((l) => [l.key, l.id]));
});
afterAll(async () => server.close());

type Player = Awaited<ReturnType<typeof registeredPlayer>>;

function upload(player: Player | string, documentLabelId: number | string, file: FilePart) {
  return server.call('documentUpload', {
    token: typeof player === 'string' ? player : player.token,
    parts: [
      { name: 'documentLabelId', value: String(documentLabelId) },
      { name: 'file', value: file },
    ],
  });
}

function uploadAll(player: Player, pairs: [number | string, FilePart][], extra: Part[] = []) {
  return server.call('documentUploadAll', {
    token: player.token,
    parts: [
      ...pairs.map(([id]): Part => ({ name: 'documentLabelId', value: String(id) })),
      ...pairs.map(([, file]): Part => ({ name: 'file', value: file })),
      ...extra,
    ],
  });
}

async function documentsOf(player: Player) {
  const res = await server.call('documentGetDocuments', { token: player.token });
  expect(res.status).toBe(200);
  return res.body.data.documents as { id: number; documentLabelId: number; status: string; fileName: string; label: string }[];
}

async function rowsOf(userId: number) {
  return server.db.query<{ id: number; stored_name: string; status: string }>(
    'SELECT id, stored_name, status FROM documents WHERE user_id = $1 ORDER BY id',
    [userId],
  );
}

function storedFiles(): string[] {
  return existsSync(documentsDir) ? readdirSync(documentsDir).sort() : [];
}

function fieldsOf(body: { errors: { fields?: { field: string; code: string }[] }[] }) {
  return body.errors[0]?.fields ?? [];
}

function review(documentId: number, status: 'Approved' | 'Rejected') {
  return server.call('devReviewDocument', { body: { documentId, status } });
}

// ── Labels and listing ──────────────────────────────────────────────────────────────────────────

describe('documentGetDocumentLabels', () => {
  it('lists the kinds of document in order, with keys and whether each is required', async () => {
    const player = await registeredPlayer(server);
    const res = await server.call('documentGetDocumentLabels', { token: player.token });
    expect(res.status).toBe(200);
    const list = res.body.data.documentLabels as { key: string; required: boolean; name: string; description: string }[];
    expect(list.map((l) => l.key)).toEqual(['identity_front', 'identity_back', 'proof_of_address', 'selfie']);
    expect(list.find((l) => l.key === 'selfie')?.required).toBe(false);
    expect(list.find((l) => l.key === 'identity_front')?.required).toBe(true);
    for (const label of list) expect(label.name.length).toBeGreaterThan(0);
  });

  it('needs a token', async () => {
    const res = await server.call('documentGetDocumentLabels');
    expect(res.status).toBe(401);
    expect((await server.call('documentGetDocuments')).status).toBe(401);
  });
});

// ── Upload ──────────────────────────────────────────────────────────────────────────────────────

describe('documentUpload', () => {
  it('stores a PDF, a PNG and a JPEG as Under Review, listed newest first', async () => {
    const player = await registeredPlayer(server);
    expect(await documentsOf(player)).toEqual([]);

    const first = await upload(player, labels.identity_front!, pdf());
    expect(first.status).toBe(200);
    expect(first.body.data.document).toMatchObject({
      documentLabelId: labels.identity_front,
      label: 'Proof of identity (front)',
      status: 'Under Review',
      fileName: 'passport.pdf',
      reviewedAt: null,
    });
    expect(new Date(first.body.data.document.createdAt).getTime()).toBe(server.clock.now().getTime());
    const second = await upload(player, labels.proof_of_address!, png());
    expect(second.status).toBe(200);
    const third = await upload(player, labels.selfie!, jpeg('SELFIE.JPG'));
    expect(third.status).toBe(200);
    expect(third.body.data.document.fileName).toBe('SELFIE.JPG');

    const list = await documentsOf(player);
    expect(list.map((d) => d.id)).toEqual([third.body.data.document.id, second.body.data.document.id, first.body.data.document.id]);
    expect(list.every((d) => d.status === 'Under Review')).toBe(true);
    expect(list[2]).toEqual(first.body.data.document);
  });

  it('keeps the bytes on disk under a random name, never the uploaded one', async () => {
    const player = await registeredPlayer(server);
    const file = pdf('../../../../tmp/escape.pdf', 'disk');
    const res = await upload(player, labels.identity_front!, file);
    expect(res.status).toBe(200);
    expect(res.body.data.document.fileName).toBe('escape.pdf');
    const [row] = await rowsOf(player.user.id);
    expect(row!.stored_name).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(row!.stored_name).not.toContain('escape');
    const path = join(documentsDir, row!.stored_name);
    expect(Buffer.compare(readFileSync(path), file.content)).toBe(0);
    expect(statSync(path).mode & 0o077).toBe(0);
    expect(storedFiles()).not.toContain('escape.pdf');
    expect(existsSync(join(server.ctx.uploadsDir, 'escape.pdf'))).toBe(false);
    expect(existsSync('/tmp/escape.pdf')).toBe(false);
  });

  it('needs a complete profile: 422 PROFILE_INCOMPLETE for a social account and for a cleared field', async () => {
    const stamp = Date.now();
    const [row] = await server.db.query<{ id: number }>(
      `INSERT INTO users (email, username, first_name, last_name, email_verified_at, referral_code, facebook_id)
       VALUES ($1, $2, 'Rui', 'Costa', now(), $3, $4) RETURNING id`,
      [`rui${stamp}@example.com`, `rui${stamp % 1000000}`, `RUI${stamp}`, `fb-${stamp}`],
    );
    const { accessToken } = await server.ctx.tokens.issue(server.db, row!.id, server.clock.now());
    const social = await upload(accessToken, labels.identity_front!, pdf());
    expect(social.status).toBe(422);
    expect(social.body.errors[0].description).toBe('PROFILE_INCOMPLETE');

    const player = await registeredPlayer(server);
    await server.db.query('UPDATE users SET zip_code = NULL WHERE id = $1', [player.user.id]);
    const cleared = await upload(player, labels.identity_front!, pdf());
    expect(cleared.status).toBe(422);
    expect(cleared.body.errors[0].description).toBe('PROFILE_INCOMPLETE');
    const all = await server.call('documentUploadAll', {
      token: player.token,
      parts: [
        { name: 'documentLabelId', value: String(labels.identity_front) },
        { name: 'file', value: pdf() },
      ],
    });
    expect(all.status).toBe(422);
    expect(all.body.errors[0].description).toBe('PROFILE_INCOMPLETE');
    expect(await rowsOf(player.user.id)).toEqual([]);
    expect(await rowsOf(row!.id)).toEqual([]);
  });

  it('refuses files that are not JPG, PNG or PDF by content (415 FILE_FORMAT_NOT_SUPPORTED)', async () => {
    const player = await registeredPlayer(server);
    const before = storedFiles();
    const bad: FilePart[] = [
      { filename: 'notes.txt', content: Buffer.from('hello'), contentType: 'text/plain' },
      { filename: 'notes.pdf', content: Buffer.from('not really a pdf'), contentType: 'application/pdf' },
      { filename: 'anim.gif', content: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), contentType: 'image/gif' },
      { filename: 'scan.png', content: tinyPdf(), contentType: 'image/png' },
      { filename: 'photo.pdf', content: tinyJpeg(), contentType: 'application/pdf' },
      { filename: 'archive.zip', content: Buffer.from('PK\x03\x04rest', 'latin1'), contentType: 'application/zip' },
    ];
    for (const file of bad) {
      const res = await upload(player, labels.identity_front!, file);
      expect(res.status, file.filename).toBe(415);
      expect(res.body.errors[0].description, file.filename).toBe('FILE_FORMAT_NOT_SUPPORTED');
    }
    expect(await documentsOf(player)).toEqual([]);
    expect(storedFiles()).toEqual(before);
  });

  it('refuses a file of 5 MiB or more (413 FILE_TOO_LARGE) and an empty one (400 file.empty)', async () => {
    const player = await registeredPlayer(server);
    // A PDF of 5 MiB: its objects, blank space, and its end-of-file marker at the end.
    const big = Buffer.alloc(5 * MiB, 0x20);
    tinyPdf().copy(big);
    big.write('\n%%EOF\n', 5 * MiB - 7, 'latin1');
    const tooLarge = await upload(player, labels.identity_front!, { filename: 'big.pdf', content: big, contentType: 'application/pdf' });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.errors[0].description).toBe('FILE_TOO_LARGE');

    const empty = await upload(player, labels.identity_front!, { filename: 'empty.pdf', content: Buffer.alloc(0), contentType: 'application/pdf' });
    expect(empty.status).toBe(400);
    expect(fieldsOf(empty.body)).toContainEqual({ field: 'file', code: 'file.empty' });
    expect(await documentsOf(player)).toEqual([]);

    const justUnder = await upload(player, labels.identity_front!, {
      filename: 'big.pdf',
      content: big.subarray(0, 5 * MiB - 1),
      contentType: 'application/pdf',
    });
    expect(justUnder.status).toBe(200);
  });

  it('refuses an unknown or malformed label (400 documentLabel) and missing parts (400 required)', async () => {
    const player = await registeredPlayer(server);
    for (const id of ['999', '2147483647', '9999999999', 'abc', '0', '01']) {
      const res = await upload(player, id, pdf());
      expect(res.status, id).toBe(400);
      expect(fieldsOf(res.body), id).toContainEqual({ field: 'documentLabelId', code: 'documentLabel' });
    }
    const noFile = await server.call('documentUpload', {
      token: player.token,
      parts: [{ name: 'documentLabelId', value: String(labels.identity_front) }],
    });
    expect(noFile.status).toBe(400);
    expect(fieldsOf(noFile.body)).toContainEqual({ field: 'file', code: 'required' });
    const noLabel = await server.call('documentUpload', { token: player.token, parts: [{ name: 'file', value: pdf() }] });
    expect(noLabel.status).toBe(400);
    expect(fieldsOf(noLabel.body)).toContainEqual({ field: 'documentLabelId', code: 'required' });
    const twoFiles = await server.call('documentUpload', {
      token: player.token,
      parts: [
        { name: 'documentLabelId', value: String(labels.identity_front) },
        { name: 'file', value: pdf() },
        { name: 'file', value: png() },
      ],
    });
    expect(twoFiles.status).toBe(400);
    const extra = await server.call('documentUpload', {
      token: player.token,
      parts: [
        { name: 'documentLabelId', value: String(labels.identity_front) },
        { name: 'comment', value: 'hi' },
        { name: 'file', value: pdf() },
      ],
    });
    expect(extra.status).toBe(400);
    expect(fieldsOf(extra.body)).toContainEqual({ field: 'comment', code: 'unknownField' });
    expect(await documentsOf(player)).toEqual([]);
  });

  it('refuses a JSON body (415 UNSUPPORTED_MEDIA_TYPE) and a visitor (401)', async () => {
    const player = await registeredPlayer(server);
    const json = await server.call('documentUpload', { token: player.token, body: { documentLabelId: '1', file: 'JVBERi0=' } });
    expect(json.status).toBe(415);
    expect(json.body.errors[0].description).toBe('UNSUPPORTED_MEDIA_TYPE');
    const visitor = await server.call('documentUpload', {
      parts: [
        { name: 'documentLabelId', value: String(labels.identity_front) },
        { name: 'file', value: pdf() },
      ],
    });
    expect(visitor.status).toBe(401);
  });

  it('refuses a second document for a label under review or approved (409 DOCUMENT_ALREADY_SUBMITTED)', async () => {
    const player = await registeredPlayer(server);
    const first = await upload(player, labels.identity_front!, pdf());
    expect(first.status).toBe(200);
    const again = await upload(player, labels.identity_front!, png('other.png'));
    expect(again.status).toBe(409);
    expect(again.body.errors[0].description).toBe('DOCUMENT_ALREADY_SUBMITTED');

    const approved = await review(first.body.data.document.id, 'Approved');
    expect(approved.status).toBe(200);
    const notifications = await server.call('commonGetUserNotifications', { token: player.token, query: { page: 1, limit: 5 } });
    expect(notifications.body.data.notifications.rows.map((row: { title: string }) => row.title)).toEqual(['Document approved']);
    const afterApproval = await upload(player, labels.identity_front!, png('other.png'));
    expect(afterApproval.status).toBe(409);
    expect(afterApproval.body.errors[0].description).toBe('DOCUMENT_ALREADY_SUBMITTED');
    expect(await rowsOf(player.user.id)).toHaveLength(1);
  });

  it('lets exactly one of two simultaneous uploads for one label through', async () => {
    const player = await registeredPlayer(server);
    const before = storedFiles();
    const results = await Promise.all([
      upload(player, labels.identity_back!, pdf('a.pdf', 'race-a')),
      upload(player, labels.identity_back!, png('b.png')),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.errors[0].description).toBe('DOCUMENT_ALREADY_SUBMITTED');
    const rows = await rowsOf(player.user.id);
    expect(rows).toHaveLength(1);
    const added = storedFiles().filter((name) => !before.includes(name));
    expect(added).toEqual([rows[0]!.stored_name]);
  });
});

// ── Review and removal ──────────────────────────────────────────────────────────────────────────

describe('review and documentRemove', () => {
  it('removes only a rejected document, which can then be uploaded again', async () => {
    const player = await registeredPlayer(server);
    const doc = (await upload(player, labels.proof_of_address!, png())).body.data.document;

    const underReview = await server.call('documentRemove', { token: player.token, body: { documentId: doc.id } });
    expect(underReview.status).toBe(409);
    expect(underReview.body.errors[0].description).toBe('DOCUMENT_ALREADY_SUBMITTED');

    server.clock.advance(60_000);
    const rejected = await review(doc.id, 'Rejected');
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.document).toMatchObject({ id: doc.id, status: 'Rejected', createdAt: doc.createdAt });
    expect(rejected.body.data.document.reviewedAt).toBe(server.clock.now().toISOString());
    expect((await documentsOf(player))[0]).toMatchObject({ id: doc.id, status: 'Rejected' });
    // The player is told, in a notification of their own.
    const notifications = await server.call('commonGetUserNotifications', { token: player.token, query: { page: 1, limit: 5 } });
    expect(notifications.body.data.unreadCount).toBe(1);
    expect(notifications.body.data.notifications.rows[0]).toMatchObject({ title: 'Document rejected', read: false });

    // A rejected document no longer blocks its label, even before it is removed.
    const [row] = await rowsOf(player.user.id);
    const removed = await server.call('documentRemove', { token: player.token, body: { documentId: doc.id } });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ success: true });
    expect(await documentsOf(player)).toEqual([]);
    expect(existsSync(join(documentsDir, row!.stored_name))).toBe(false);

    const gone = await server.call('documentRemove', { token: player.token, body: { documentId: doc.id } });
    expect(gone.status).toBe(404);
    expect(gone.body.errors[0].description).toBe('NOT_FOUND');

    const reupload = await upload(player, labels.proof_of_address!, pdf('bill.pdf'));
    expect(reupload.status).toBe(200);
    expect(reupload.body.data.document).toMatchObject({ status: 'Under Review', fileName: 'bill.pdf' });
  });

  it('refuses to remove an approved document', async () => {
    const player = await registeredPlayer(server);
    const doc = (await upload(player, labels.identity_front!, pdf())).body.data.document;
    await review(doc.id, 'Approved');
    const res = await server.call('documentRemove', { token: player.token, body: { documentId: doc.id } });
    expect(res.status).toBe(409);
    expect(res.body.errors[0].description).toBe('DOCUMENT_ALREADY_SUBMITTED');
    expect((await documentsOf(player))[0]).toMatchObject({ id: doc.id, status: 'Approved' });
  });

  it('reviews a document once: a second review is 422 INVALID_VALUE; an unknown one 404', async () => {
    const player = await registeredPlayer(server);
    const doc = (await upload(player, labels.selfie!, jpeg())).body.data.document;
    expect((await review(doc.id, 'Approved')).status).toBe(200);
    for (const status of ['Approved', 'Rejected'] as const) {
      const res = await review(doc.id, status);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].description).toBe('INVALID_VALUE');
    }
    expect((await documentsOf(player))[0]?.status).toBe('Approved');
    const unknown = await review(2147483647, 'Approved');
    expect(unknown.status).toBe(404);
    const badStatus = await server.call('devReviewDocument', { body: { documentId: doc.id, status: 'Under Review' } });
    expect(badStatus.status).toBe(400);
  });

  it("keeps players apart: another player neither sees nor removes my documents (404)", async () => {
    const owner = await registeredPlayer(server);
    const other = await registeredPlayer(server);
    const doc = (await upload(owner, labels.identity_front!, pdf())).body.data.document;
    await review(doc.id, 'Rejected');
    expect(await documentsOf(other)).toEqual([]);
    const res = await server.call('documentRemove', { token: other.token, body: { documentId: doc.id } });
    expect(res.status).toBe(404);
    expect(res.body.errors[0].description).toBe('NOT_FOUND');
    expect((await documentsOf(owner)).map((d) => d.id)).toEqual([doc.id]);
    // The other player's own upload for the same label is independent of mine.
    expect((await upload(other, labels.identity_front!, pdf())).status).toBe(200);
  });
});

// ── Upload all ──────────────────────────────────────────────────────────────────────────────────

describe('documentUploadAll', () => {
  it('pairs labels and files in order and returns the documents in request order', async () => {
    const player = await registeredPlayer(server);
    const res = await uploadAll(player, [
      [labels.proof_of_address!, png('bill.png')],
      [labels.identity_front!, pdf('front.pdf')],
      [labels.identity_back!, jpeg('back.jpeg')],
    ]);
    expect(res.status).toBe(200);
    const docs = res.body.data.documents as { documentLabelId: number; fileName: string; status: string }[];
    expect(docs.map((d) => [d.documentLabelId, d.fileName])).toEqual([
      [labels.proof_of_address, 'bill.png'],
      [labels.identity_front, 'front.pdf'],
      [labels.identity_back, 'back.jpeg'],
    ]);
    expect(docs.every((d) => d.status === 'Under Review')).toBe(true);
    expect(await documentsOf(player)).toHaveLength(3);
    // Each file is stored with its own label.
    const rows = await server.db.query<{ document_label_id: number; file_type: string }>(
      'SELECT document_label_id, file_type FROM documents WHERE user_id = $1 ORDER BY id',
      [player.user.id],
    );
    expect(rows).toEqual([
      { document_label_id: labels.proof_of_address, file_type: 'png' },
      { document_label_id: labels.identity_front, file_type: 'pdf' },
      { document_label_id: labels.identity_back, file_type: 'jpeg' },
    ]);
  });

  it('refuses label and file counts that differ (400) and stores nothing', async () => {
    const player = await registeredPlayer(server);
    const moreLabels = await server.call('documentUploadAll', {
      token: player.token,
      parts: [
        { name: 'documentLabelId', value: String(labels.identity_front) },
        { name: 'documentLabelId', value: String(labels.identity_back) },
        { name: 'file', value: pdf() },
      ],
    });
    expect(moreLabels.status).toBe(400);
    expect(moreLabels.body.errors[0].description).toBe('PLEASE_CHECK_REQUEST_DATA');
    const moreFiles = await server.call('documentUploadAll', {
      token: player.token,
      parts: [
        { name: 'documentLabelId', value: String(labels.identity_front) },
        { name: 'file', value: pdf() },
        { name: 'file', value: png() },
      ],
    });
    expect(moreFiles.status).toBe(400);
    const none = await server.call('documentUploadAll', { token: player.token, parts: [{ name: 'file', value: pdf() }] });
    expect(none.status).toBe(400);
    expect(await documentsOf(player)).toEqual([]);
  });

  it('refuses a label twice in one request (400 duplicate) and an unknown label (400 documentLabel)', async () => {
    const player = await registeredPlayer(server);
    const twice = await uploadAll(player, [
      [labels.identity_front!, pdf()],
      [labels.identity_front!, png()],
    ]);
    expect(twice.status).toBe(400);
    expect(fieldsOf(twice.body).map((f) => f.code)).toContain('duplicate');
    const unknown = await uploadAll(player, [
      [labels.identity_front!, pdf()],
      [999, png()],
    ]);
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown.body)).toContainEqual({ field: 'documentLabelId.1', code: 'documentLabel' });
    expect(await documentsOf(player)).toEqual([]);
  });

  it('stores nothing when one pair fails: no rows and no files left behind', async () => {
    const player = await registeredPlayer(server);
    const big = Buffer.alloc(5 * MiB, 0);
    tinyPng().copy(big);
    const failures: [string, [number, FilePart][], number, string][] = [
      [
        'a text file',
        [
          [labels.identity_front!, pdf()],
          [labels.identity_back!, png()],
          [labels.selfie!, { filename: 'x.jpg', content: Buffer.from('plain text'), contentType: 'image/jpeg' }],
        ],
        415,
        'FILE_FORMAT_NOT_SUPPORTED',
      ],
      [
        'an empty file',
        [
          [labels.identity_front!, pdf()],
          [labels.selfie!, { filename: 'x.jpg', content: Buffer.alloc(0), contentType: 'image/jpeg' }],
        ],
        400,
        'PLEASE_CHECK_REQUEST_DATA',
      ],
      [
        'a file too large',
        [
          [labels.identity_front!, pdf()],
          [labels.selfie!, { filename: 'x.png', content: big, contentType: 'image/png' }],
        ],
        413,
        'FILE_TOO_LARGE',
      ],
    ];
    const filesBefore = storedFiles();
    for (const [what, pairs, status, code] of failures) {
      const res = await uploadAll(player, pairs);
      expect(res.status, what).toBe(status);
      expect(res.body.errors[0].description, what).toBe(code);
      expect(await rowsOf(player.user.id), what).toEqual([]);
      expect(storedFiles(), what).toEqual(filesBefore);
    }
    const typeFailure = await uploadAll(player, [
      [labels.identity_front!, pdf()],
      [labels.selfie!, { filename: 'x.jpg', content: Buffer.from('plain text'), contentType: 'image/jpeg' }],
    ]);
    expect(fieldsOf(typeFailure.body)).toContainEqual({ field: 'file.1', code: 'file.type' });
    const emptyFailure = await uploadAll(player, [
      [labels.identity_front!, pdf()],
      [labels.selfie!, { filename: 'x.jpg', content: Buffer.alloc(0), contentType: 'image/jpeg' }],
    ]);
    expect(fieldsOf(emptyFailure.body)).toContainEqual({ field: 'file.1', code: 'file.empty' });
  });

  it('stores nothing when one label is already submitted (409), the files written so far included', async () => {
    const player = await registeredPlayer(server);
    await upload(player, labels.selfie!, jpeg());
    const rowsBefore = await rowsOf(player.user.id);
    const filesBefore = storedFiles();
    const res = await uploadAll(player, [
      [labels.identity_front!, pdf()],
      [labels.identity_back!, png()],
      [labels.selfie!, jpeg()],
    ]);
    expect(res.status).toBe(409);
    expect(res.body.errors[0].description).toBe('DOCUMENT_ALREADY_SUBMITTED');
    expect(await rowsOf(player.user.id)).toEqual(rowsBefore);
    expect(storedFiles()).toEqual(filesBefore);
  });

  it('takes at most 10 pairs', async () => {
    const player = await registeredPlayer(server);
    const parts: Part[] = [];
    for (let i = 0; i < 11; i += 1) parts.push({ name: 'documentLabelId', value: String(labels.identity_front) });
    for (let i = 0; i < 11; i += 1) parts.push({ name: 'file', value: pdf(`p${i}.pdf`) });
    const res = await server.call('documentUploadAll', { token: player.token, parts });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].description).toBe('PLEASE_CHECK_REQUEST_DATA');
    expect(await documentsOf(player)).toEqual([]);
  });

  it('refuses a JSON body (415)', async () => {
    const player = await registeredPlayer(server);
    const res = await server.call('documentUploadAll', { token: player.token, body: { documentLabelId: ['1'], file: ['x'] } });
    expect(res.status).toBe(415);
    expect(res.body.errors[0].description).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});
