import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredPlayer, startTestServer, type FilePart, type TestServer } from '../helpers/api.ts';
import {
  dimensionsOf,
  htmlBehindJpegMagic,
  htmlBehindPngMagic,
  jpegDeclaring,
  pngBomb,
  realJpeg,
  realPng,
} from '../helpers/images.ts';
import { displayName } from '../../server/domain/documents.ts';
import { DOCUMENT_IMAGE_SIDE, MAX_IMAGE_SIDE, PROFILE_IMAGE_SIDE } from '../../server/domain/images.ts';

// Uploaded images are decoded and encoded anew by an image library within bounded dimensions, never stored
// as sent (server/domain/images.ts): a web page behind an image's magic bytes is refused, a decompression
// bomb is refused from its header without being decoded, and what is served is the server's own encoding.

let server: TestServer;
let bomb: Buffer;

beforeAll(async () => {
  // Many players sign up from one address here; rate limits have their own tests.
  server = await startTestServer({ RATE_LIMIT: 'false' });
  bomb = await pngBomb(20000, 20000);
});
afterAll(async () => server.close());

type Player = Awaited<ReturnType<typeof registeredPlayer>>;

function fieldsOf(body: { errors: { fields?: { field: string; code: string }[] }[] }) {
  return body.errors[0]?.fields ?? [];
}

function uploadPicture(player: Player, filename: string, content: Buffer, contentType = 'image/png') {
  return server.call('userUploadProfileImage', { token: player.token, parts: [{ name: 'file', value: { filename, content, contentType } }] });
}

async function servedPicture(url: string) {
  const imageId = /\/profile-image\/([A-Za-z0-9_-]+)$/.exec(url)?.[1];
  if (!imageId) throw new Error(`unexpected profile image URL ${url}`);
  const res = await server.call('userGetProfileImage', { params: { imageId } });
  expect(res.status).toBe(200);
  return res;
}

function uploadDocument(player: Player, documentLabelId: number, file: FilePart) {
  return server.call('documentUpload', {
    token: player.token,
    parts: [
      { name: 'documentLabelId', value: String(documentLabelId) },
      { name: 'file', value: file },
    ],
  });
}

async function labelIds(player: Player): Promise<number[]> {
  const res = await server.call('documentGetDocumentLabels', { token: player.token });
  return (res.body.data.documentLabels as { id: number }[]).map((label) => label.id);
}

async function storedDocument(userId: number, documentId: number): Promise<{ bytes: Buffer; storedName: string; size: number }> {
  const [row] = await server.db.query<{ stored_name: string; size_bytes: number | string }>(
    'SELECT stored_name, size_bytes FROM documents WHERE id = $1 AND user_id = $2',
    [documentId, userId],
  );
  if (!row) throw new Error('no such document');
  return { bytes: readFileSync(join(server.ctx.uploadsDir, 'documents', row.stored_name)), storedName: row.stored_name, size: Number(row.size_bytes) };
}

describe('profile picture', () => {
  it('refuses HTML behind JPEG or PNG magic (415 FILE_FORMAT_NOT_SUPPORTED, file.type) and stores nothing', async () => {
    const player = await registeredPlayer(server);
    for (const [name, bytes, type] of [
      ['me.jpg', htmlBehindJpegMagic(), 'image/jpeg'],
      ['me.jpeg', Buffer.from([0xff, 0xd8, 0xff, ...Buffer.from('<script>alert(1)</script>')]), 'image/jpeg'],
      ['me.png', htmlBehindPngMagic(), 'image/png'],
    ] as const) {
      const res = await uploadPicture(player, name, bytes, type);
      expect(res.status, name).toBe(415);
      expect(res.body.errors[0].description, name).toBe('FILE_FORMAT_NOT_SUPPORTED');
      expect(fieldsOf(res.body), name).toContainEqual({ field: 'file', code: 'file.type' });
    }
    const me = await server.call('userGetUser', { token: player.token });
    expect(me.body.data.user.profileImageUrl).toBeNull();
  });

  it('refuses a 20000×20000 PNG bomb from its header, fast and without decoding it (400 file.dimensions)', async () => {
    const player = await registeredPlayer(server);
    expect(bomb.length).toBeLessThan(200_000);
    const rssBefore = process.memoryUsage().rss;
    const t0 = performance.now();
    const res = await uploadPicture(player, 'bomb.png', bomb);
    const ms = performance.now() - t0;
    const grownMiB = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    expect(res.status).toBe(400);
    expect(res.body.errors[0].description).toBe('PLEASE_CHECK_REQUEST_DATA');
    expect(fieldsOf(res.body)).toContainEqual({ field: 'file', code: 'file.dimensions' });
    // Decoded, its pixels alone would take 400 MB (and the time to inflate them).
    expect(grownMiB).toBeLessThan(64);
    expect(ms).toBeLessThan(3_000);
    const me = await server.call('userGetUser', { token: player.token });
    expect(me.body.data.user.profileImageUrl).toBeNull();
  });

  it(`refuses an image of more than ${MAX_IMAGE_SIDE} pixels on either side, and takes one of exactly ${MAX_IMAGE_SIDE}`, async () => {
    const player = await registeredPlayer(server);
    for (const [name, bytes] of [
      ['wide.png', await pngBomb(MAX_IMAGE_SIDE + 1, 1)],
      ['tall.png', await pngBomb(1, MAX_IMAGE_SIDE + 1)],
      ['huge.jpg', await jpegDeclaring(20000, 20000)],
    ] as const) {
      const res = await uploadPicture(player, name, bytes, name.endsWith('.jpg') ? 'image/jpeg' : 'image/png');
      expect(res.status, name).toBe(400);
      expect(fieldsOf(res.body), name).toContainEqual({ field: 'file', code: 'file.dimensions' });
    }
    const edge = await uploadPicture(player, 'edge.png', await pngBomb(MAX_IMAGE_SIDE, 16));
    expect(edge.status).toBe(200);
    const served = await servedPicture(edge.body.data.user.profileImageUrl as string);
    expect(await dimensionsOf(served.rawPayload)).toMatchObject({ format: 'png', width: PROFILE_IMAGE_SIDE, height: 1 });
  });

  it(`stores a real JPEG re-encoded: upright, within ${PROFILE_IMAGE_SIDE} px, without its EXIF or anything appended`, async () => {
    const player = await registeredPlayer(server);
    // 1200×800 recorded with EXIF orientation 6 (shown turned a quarter: 800×1200), a description, and a
    // script appended after the image's end.
    const photo = await realJpeg(1200, 800, { orientation: 6, description: 'taken-at-home-secret' });
    const sent = Buffer.concat([photo, Buffer.from('<script>alert(1)</script>')]);
    const res = await uploadPicture(player, 'photo.jpg', sent, 'image/jpeg');
    expect(res.status).toBe(200);
    const served = await servedPicture(res.body.data.user.profileImageUrl as string);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(served.rawPayload, sent)).not.toBe(0);
    expect(await dimensionsOf(served.rawPayload)).toEqual({ format: 'jpeg', width: 341, height: PROFILE_IMAGE_SIDE, exif: false, orientation: undefined });
    expect(served.rawPayload.includes('taken-at-home-secret')).toBe(false);
    expect(served.rawPayload.includes('<script')).toBe(false);
  });

  it('stores a real PNG re-encoded within the box, and a small one at its own size', async () => {
    const player = await registeredPlayer(server);
    const big = await uploadPicture(player, 'big.png', await realPng(600, 900));
    expect(big.status).toBe(200);
    const served = await servedPicture(big.body.data.user.profileImageUrl as string);
    expect(served.headers['content-type']).toBe('image/png');
    expect(await dimensionsOf(served.rawPayload)).toMatchObject({ format: 'png', width: 341, height: PROFILE_IMAGE_SIDE });

    const small = await uploadPicture(player, 'small.png', await realPng(40, 30, [250, 10, 10]));
    expect(small.status).toBe(200);
    const smallServed = await servedPicture(small.body.data.user.profileImageUrl as string);
    expect(await dimensionsOf(smallServed.rawPayload)).toMatchObject({ format: 'png', width: 40, height: 30 });
  });
});

describe('identity documents', () => {
  it('refuses HTML behind image magic (415 file.type) and a bomb (400 file.dimensions), storing nothing', async () => {
    const player = await registeredPlayer(server);
    const [label] = await labelIds(player);
    if (label === undefined) throw new Error('no document label');
    const before = existsSync(join(server.ctx.uploadsDir, 'documents')) ? readdirSync(join(server.ctx.uploadsDir, 'documents')) : [];
    const fake = await uploadDocument(player, label, { filename: 'passport.jpg', content: htmlBehindJpegMagic(), contentType: 'image/jpeg' });
    expect(fake.status).toBe(415);
    expect(fake.body.errors[0].description).toBe('FILE_FORMAT_NOT_SUPPORTED');
    expect(fieldsOf(fake.body)).toContainEqual({ field: 'file', code: 'file.type' });

    const t0 = performance.now();
    const huge = await uploadDocument(player, label, { filename: 'passport.png', content: bomb, contentType: 'image/png' });
    expect(performance.now() - t0).toBeLessThan(3_000);
    expect(huge.status).toBe(400);
    expect(fieldsOf(huge.body)).toContainEqual({ field: 'file', code: 'file.dimensions' });

    const list = await server.call('documentGetDocuments', { token: player.token });
    expect(list.body.data.documents).toEqual([]);
    const after = existsSync(join(server.ctx.uploadsDir, 'documents')) ? readdirSync(join(server.ctx.uploadsDir, 'documents')) : [];
    expect(after.sort()).toEqual(before.sort());
  });

  it('refuses a PDF without its version header or its %%EOF marker (415 file.type)', async () => {
    const player = await registeredPlayer(server);
    const [label] = await labelIds(player);
    if (label === undefined) throw new Error('no document label');
    const body = '1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n';
    for (const [name, content] of [
      ['no-eof.pdf', Buffer.from(`%PDF-1.4\n${body}`)],
      ['html.pdf', Buffer.from('%PDF-<html><script>alert(1)</script></html>\n%%EOF\n')],
      ['eof-too-early.pdf', Buffer.concat([Buffer.from(`%PDF-1.4\n${body}%%EOF\n`), Buffer.alloc(4096, 0x41)])],
    ] as const) {
      const res = await uploadDocument(player, label, { filename: name, content, contentType: 'application/pdf' });
      expect(res.status, name).toBe(415);
      expect(fieldsOf(res.body), name).toContainEqual({ field: 'file', code: 'file.type' });
    }
    const ok = await uploadDocument(player, label, {
      filename: 'passport.pdf',
      content: Buffer.from(`%PDF-1.7\n${body}%%EOF\r\n`),
      contentType: 'application/pdf',
    });
    expect(ok.status).toBe(200);
  });

  it(`stores a real JPEG and PNG re-encoded within ${DOCUMENT_IMAGE_SIDE} px, under generated names, with cleaned display names`, async () => {
    const player = await registeredPlayer(server);
    const [front, back] = await labelIds(player);
    if (front === undefined || back === undefined) throw new Error('two document labels expected');
    const scan = await realJpeg(DOCUMENT_IMAGE_SIDE + 1000, 100, { description: 'scanner-serial-123' });
    const res = await server.call('documentUploadAll', {
      token: player.token,
      parts: [
        { name: 'documentLabelId', value: String(front) },
        { name: 'documentLabelId', value: String(back) },
        { name: 'file', value: { filename: '../../etc/passport\u202egpj.exe.jpg', content: scan, contentType: 'image/jpeg' } },
        { name: 'file', value: { filename: `C:\\scans\\${'b'.repeat(300)}.png`, content: await realPng(300, 200), contentType: 'image/png' } },
      ],
    });
    expect(res.status).toBe(200);
    const [first, second] = res.body.data.documents as { id: number; fileName: string }[];
    if (!first || !second) throw new Error('two documents expected');
    expect(first.fileName).toBe('passportgpj.exe.jpg');
    expect(second.fileName).toBe(`${'b'.repeat(116)}.png`);

    const stored = await storedDocument(player.user.id, first.id);
    expect(stored.storedName).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await dimensionsOf(stored.bytes)).toMatchObject({ format: 'jpeg', width: DOCUMENT_IMAGE_SIDE, height: 80, exif: false });
    expect(stored.bytes.includes('scanner-serial-123')).toBe(false);
    expect(stored.size).toBe(stored.bytes.length);
    const png = await storedDocument(player.user.id, second.id);
    expect(await dimensionsOf(png.bytes)).toMatchObject({ format: 'png', width: 300, height: 200 });
  });
});

describe('display names of documents', () => {
  it('keep no path, no control or invisible formatting characters, and at most 120 characters (the end kept)', () => {
    expect(displayName('../../etc/passwd')).toBe('passwd');
    expect(displayName('C:\\Users\\me\\id.png')).toBe('id.png');
    expect(displayName('a\u0000b\u0007c\u001b[31m\u007f\u0085.pdf')).toBe('abc[31m.pdf');
    expect(displayName('invoice\u202egpj.exe')).toBe('invoicegpj.exe');
    expect(displayName('zero\u200bwidth\u2066isolate\u2069\ufeff.png')).toBe('zerowidthisolate.png');
    expect(displayName(`${'é'.repeat(200)}.png`)).toBe(`${'é'.repeat(116)}.png`);
    expect(displayName('   ')).toBe('document');
    expect(displayName('dir/')).toBe('document');
  });
});
