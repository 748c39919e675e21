import type { RuleCode } from './codes.ts';

/*
 * SPEC §5 uploads: identity documents JPG, JPEG, PNG or PDF; profile picture jpg, png or jpeg; both
 * "under 5 MB", read as strictly less than 5 MiB (5 * 1024 * 1024 bytes): a file of exactly 5 MiB is
 * refused. An empty file is refused too ('file.empty').
 *
 * The name's extension and the declared media type are what the SPA can check before sending; the server
 * also checks the content with sniffFileType, since a name and a media type are only claims.
 */

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

export const ALLOWED_DOCUMENT_TYPES = ['jpg', 'jpeg', 'png', 'pdf'] as const;
export const ALLOWED_PROFILE_IMAGE_TYPES = ['jpg', 'jpeg', 'png'] as const;
export type UploadExtension = (typeof ALLOWED_DOCUMENT_TYPES)[number];

export type SniffedType = 'jpeg' | 'png' | 'pdf';

export type UploadKind = 'document' | 'profileImage';

const SNIFFED_BY_KIND: Record<UploadKind, readonly SniffedType[]> = {
  document: ['jpeg', 'png', 'pdf'],
  profileImage: ['jpeg', 'png'],
};

export const MEDIA_TYPES: Record<SniffedType, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  pdf: 'application/pdf',
};

const EXTENSION_TYPE: Record<UploadExtension, SniffedType> = { jpg: 'jpeg', jpeg: 'jpeg', png: 'png', pdf: 'pdf' };

/** The `accept` attribute for a file input of that kind. */
export function acceptAttribute(kind: UploadKind): string {
  const extensions = kind === 'document' ? ALLOWED_DOCUMENT_TYPES : ALLOWED_PROFILE_IMAGE_TYPES;
  const mediaTypes = SNIFFED_BY_KIND[kind].map((type) => MEDIA_TYPES[type]);
  return [...extensions.map((ext) => `.${ext}`), ...mediaTypes].join(',');
}

const SIGNATURES: readonly { type: SniffedType; bytes: readonly number[] }[] = [
  { type: 'jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // "%PDF-"
];

/** The file's real type by its first bytes (magic numbers), or null when it is none of ours. */
export function sniffFileType(bytes: Uint8Array): SniffedType | null {
  const match = SIGNATURES.find(
    ({ bytes: signature }) =>
      bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte),
  );
  return match?.type ?? null;
}

/** Lower-case extension after the last dot, or '' when there is none. */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 || dot === name.length - 1 ? '' : name.slice(dot + 1).toLowerCase();
}

export interface FileDescription {
  name: string;
  size: number;
  /** Declared media type (File.type, multipart Content-Type); '' or absent when unknown. */
  type?: string;
}

function extensionType(name: string, kind: UploadKind): SniffedType | null {
  const ext = fileExtension(name);
  const allowed: readonly string[] = kind === 'document' ? ALLOWED_DOCUMENT_TYPES : ALLOWED_PROFILE_IMAGE_TYPES;
  return allowed.includes(ext) ? (EXTENSION_TYPE[ext as UploadExtension] ?? null) : null;
}

/**
 * What the SPA can check before uploading: an allowed extension, a declared media type (when given) that
 * agrees with it, and a size in 1 .. MAX_UPLOAD_BYTES - 1. Returns the single problem, or null.
 */
export function checkFile(file: FileDescription, kind: UploadKind): RuleCode | null {
  const type = extensionType(file.name, kind);
  if (type === null) return 'file.type';
  const declared = (file.type ?? '').toLowerCase();
  if (declared !== '' && declared !== MEDIA_TYPES[type] && !(type === 'jpeg' && declared === 'image/jpg')) {
    return 'file.type';
  }
  if (!Number.isSafeInteger(file.size) || file.size < 0) return 'file.size';
  if (file.size === 0) return 'file.empty';
  if (file.size >= MAX_UPLOAD_BYTES) return 'file.size';
  return null;
}

/**
 * What the server checks on the received bytes: non-empty, under the limit, and content of an allowed
 * type. When a file name is given, its extension must also name the sniffed type (no "photo.png" that
 * is really a PDF).
 */
export function checkFileContent(bytes: Uint8Array, kind: UploadKind, name?: string): RuleCode | null {
  if (bytes.length === 0) return 'file.empty';
  if (bytes.length >= MAX_UPLOAD_BYTES) return 'file.size';
  const sniffed = sniffFileType(bytes);
  if (sniffed === null || !SNIFFED_BY_KIND[kind].includes(sniffed)) return 'file.type';
  if (name !== undefined && extensionType(name, kind) !== sniffed) return 'file.type';
  return null;
}
