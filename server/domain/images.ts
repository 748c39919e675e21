import sharp, { type Metadata } from 'sharp';
import type { SniffedType, UploadKind } from '../../src/rules/files.ts';

/*
 * What the server stores of an uploaded file (SPEC §5; openapi.yaml userUploadProfileImage, documentUpload):
 *
 * Images (JPEG, PNG) are never stored as uploaded. Each is read by an image library (sharp, over libvips):
 * - its header first: a format other than the one its first bytes claim, or a header that does not parse,
 *   is refused as not an image of an allowed kind ('file.type', 415 FILE_FORMAT_NOT_SUPPORTED); an image of
 *   more than MAX_IMAGE_SIDE pixels on either side is refused ('file.dimensions', 400
 *   PLEASE_CHECK_REQUEST_DATA) before a single pixel is decoded: a small file can declare a huge image
 *   (a 117 KB PNG of 20000 × 20000 pixels would take 1.6 GB once decoded);
 * - then decoded whole (an error in the data refuses it as 'file.type': JPEG magic followed by HTML is no
 *   JPEG), turned upright by its EXIF orientation, scaled down to fit the kind's box (never up), and encoded
 *   anew in its own format without any of the uploaded metadata (EXIF, GPS position, comments, profiles).
 *   What is stored and served is that new encoding: no byte of the upload beyond the pixels survives.
 * A profile picture fits PROFILE_IMAGE_SIDE × PROFILE_IMAGE_SIDE; an identity document's image
 * DOCUMENT_IMAGE_SIDE × DOCUMENT_IMAGE_SIDE (still legible for the review).
 *
 * PDFs (identity documents only) are stored as uploaded, never served to a browser, after a minimal check
 * of their structure: the header "%PDF-" with a version (digit, dot, digit) and the end-of-file marker
 * "%%EOF" within the last PDF_EOF_WINDOW bytes (the window readers allow for trailing bytes); otherwise
 * 'file.type'.
 */

export const MAX_IMAGE_SIDE = 8000;
export const PROFILE_IMAGE_SIDE = 512;
export const DOCUMENT_IMAGE_SIDE = 4000;
export const PDF_EOF_WINDOW = 1024;
/** An image that takes longer than this to decode and encode is refused as not an image. */
const IMAGE_TIMEOUT_SECONDS = 20;

/** Images decoded at once in this process; more wait their turn, so that a burst of uploads stays bounded. */
const MAX_CONCURRENT_IMAGES = 2;

// Uploads are each decoded once: libvips' cache of operations would only hold memory.
sharp.cache(false);

let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(job: () => Promise<T>): Promise<T> {
  if (running < MAX_CONCURRENT_IMAGES) running += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over as it is
  try {
    return await job();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/** Not an image (or PDF) of an allowed kind; an image too large in pixels. */
export type FileCheckCode = 'file.type' | 'file.dimensions';

export class StoredFileError extends Error {
  constructor(readonly code: FileCheckCode) {
    super(code);
    this.name = 'StoredFileError';
  }
}

export interface StoredImage {
  bytes: Buffer;
  type: 'jpeg' | 'png';
  width: number;
  height: number;
}

const BOX: Record<UploadKind, number> = { profileImage: PROFILE_IMAGE_SIDE, document: DOCUMENT_IMAGE_SIDE };

/**
 * The image to store for an upload whose first bytes say `type`: decoded, bounded and encoded anew (see
 * above). Throws StoredFileError with the field code of the refusal.
 */
export async function reencodeImage(bytes: Buffer, type: 'jpeg' | 'png', kind: UploadKind): Promise<StoredImage> {
  let header: Metadata;
  try {
    header = await sharp(bytes, { failOn: 'error', limitInputPixels: false }).metadata();
  } catch {
    throw new StoredFileError('file.type');
  }
  if (header.format !== type) throw new StoredFileError('file.type');
  // Width and height come from the header alone (IHDR, SOFn): nothing has been decoded yet.
  if (!(header.width > 0 && header.height > 0)) throw new StoredFileError('file.type');
  if (header.width > MAX_IMAGE_SIDE || header.height > MAX_IMAGE_SIDE) throw new StoredFileError('file.dimensions');

  return inTurn(() => encodeWithin(bytes, type, BOX[kind]));
}

async function encodeWithin(bytes: Buffer, type: 'jpeg' | 'png', side: number): Promise<StoredImage> {
  const pipeline = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_IMAGE_SIDE * MAX_IMAGE_SIDE, sequentialRead: true })
    .timeout({ seconds: IMAGE_TIMEOUT_SECONDS })
    .autoOrient()
    .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true });
  const encoded = type === 'jpeg' ? pipeline.jpeg({ quality: 85 }) : pipeline.png();
  try {
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { bytes: data, type, width: info.width, height: info.height };
  } catch {
    throw new StoredFileError('file.type');
  }
}

/** A PDF's minimal structure (see above): its version header and its end-of-file marker. */
export function checkPdf(bytes: Buffer): void {
  if (!/^%PDF-\d\.\d/.test(bytes.subarray(0, 16).toString('latin1'))) throw new StoredFileError('file.type');
  const tail = bytes.subarray(Math.max(0, bytes.length - PDF_EOF_WINDOW)).toString('latin1');
  if (!tail.includes('%%EOF')) throw new StoredFileError('file.type');
}

/** The bytes to store for an upload of the sniffed type: images encoded anew, PDFs checked and kept. */
export async function fileToStore(bytes: Buffer, type: SniffedType, kind: UploadKind): Promise<{ bytes: Buffer; type: SniffedType }> {
  if (type === 'pdf') {
    if (kind !== 'document') throw new StoredFileError('file.type');
    checkPdf(bytes);
    return { bytes, type };
  }
  const image = await reencodeImage(bytes, type, kind);
  return { bytes: image.bytes, type: image.type };
}
