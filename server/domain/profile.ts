import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AddressInput, createProfileUpdateInput } from '../../src/rules/user.ts';
import { checkFileContent, sniffFileType, type SniffedType, type UploadKind } from '../../src/rules/files.ts';
import { validate } from '../../src/rules/validate.ts';
import type { AppContext } from '../context.ts';
import { maybeOne, one, type Queryable } from '../db/db.ts';
import { DomainError, badRequest, type FieldIssue } from './errors.ts';
import { fileToStore, StoredFileError } from './images.ts';
import { isPhoneTaken, PERSONAL_COLUMNS, personalValues, type UserRow } from './users.ts';

/** Country and state must be ones the server lists; a country without listed states takes any state code. */
export async function checkRegion(db: Queryable, countryCode: string, stateCode: string): Promise<void> {
  const country = await maybeOne<{ states: number }>(
    db,
    'SELECT (SELECT count(*) FROM states s WHERE s.country_code = c.code) AS states FROM countries c WHERE c.code = $1',
    [countryCode],
  );
  if (!country) throw badRequest([{ field: 'countryCode', code: 'country' }]);
  if (country.states > 0) {
    const state = await maybeOne(db, 'SELECT 1 FROM states WHERE country_code = $1 AND code = $2', [countryCode, stateCode]);
    if (!state) throw badRequest([{ field: 'stateCode', code: 'state' }]);
  }
}

export async function updateProfile(ctx: AppContext, userId: number, body: unknown): Promise<UserRow> {
  // The age rule reads the server's clock (ctx.now), like every other time-dependent rule here.
  const result = validate(createProfileUpdateInput({ now: ctx.now }), body);
  if (!result.ok) throw badRequest(result.fields);
  const input = result.value;
  await checkRegion(ctx.db, input.countryCode, input.stateCode);
  try {
    return await ctx.db.transaction(async (tx) => {
      const usernameTaken = await maybeOne(tx, 'SELECT 1 FROM users WHERE lower(username) = lower($1) AND id <> $2', [
        input.username,
        userId,
      ]);
      if (usernameTaken) throw new DomainError('USERNAME_IS_TAKEN');
      if (await isPhoneTaken(tx, input.phoneCode, input.phone, userId)) throw new DomainError('PHONE_IS_TAKEN');
      return one<UserRow>(
        tx,
        `UPDATE users SET username = $2, updated_at = $3, ${PERSONAL_COLUMNS.map((column, i) => `${column} = $${i + 4}`).join(', ')}
         WHERE id = $1 RETURNING *`,
        [userId, input.username, ctx.now(), ...personalValues(input)],
      );
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      const detail = String((error as { constraint?: string; message?: string }).constraint ?? (error as Error).message);
      throw new DomainError(detail.includes('phone') ? 'PHONE_IS_TAKEN' : 'USERNAME_IS_TAKEN');
    }
    throw error;
  }
}

export async function updateSessionLimit(ctx: AppContext, userId: number, minutes: number | null): Promise<number | null> {
  const row = await one<{ session_limit_minutes: number | null }>(
    ctx.db,
    'UPDATE users SET session_limit_minutes = $2, updated_at = $3 WHERE id = $1 RETURNING session_limit_minutes',
    [userId, minutes, ctx.now()],
  );
  return row.session_limit_minutes;
}

// Addresses

export interface AddressRow {
  [key: string]: unknown;
  id: number;
  user_id: number;
  label: string | null;
  address: string;
  city: string;
  state_code: string;
  country_code: string;
  zip_code: string;
  created_at: Date;
}

export function listAddresses(db: Queryable, userId: number): Promise<AddressRow[]> {
  return db.query<AddressRow>('SELECT * FROM addresses WHERE user_id = $1 ORDER BY id', [userId]);
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}

async function validAddress(ctx: AppContext, body: unknown) {
  const result = validate(AddressInput, body);
  if (!result.ok) throw badRequest(result.fields);
  await checkRegion(ctx.db, result.value.countryCode, result.value.stateCode);
  return result.value;
}

const MAX_ADDRESSES = 20;

type AddressValues = Awaited<ReturnType<typeof validAddress>>;

function addressParams(input: AddressValues) {
  return [input.label?.trim() || null, input.address.trim(), input.city.trim(), input.stateCode, input.countryCode, input.zipCode];
}

/**
 * The same street address, city, zip code and country as another saved address of the player is a
 * duplicate (openapi.yaml), whatever the state, the label or the letter case; 12345-6789 is 123456789.
 * The player's row is locked first, so concurrent adds are checked one after the other.
 */
async function assertNewAddress(tx: Queryable, userId: number, input: AddressValues, exceptId: number | null): Promise<void> {
  const same = await maybeOne(
    tx,
    `SELECT 1 FROM addresses
     WHERE user_id = $1 AND lower(address) = lower($2) AND lower(city) = lower($3) AND country_code = $4
       AND replace(zip_code, '-', '') = replace($5, '-', '') AND id <> $6`,
    [userId, input.address.trim(), input.city.trim(), input.countryCode, input.zipCode, exceptId ?? 0],
  );
  if (same) throw new DomainError('ADDRESS_ALREADY_EXISTS');
}

async function lockUser(tx: Queryable, userId: number): Promise<void> {
  await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
}

export async function addAddress(ctx: AppContext, userId: number, body: unknown): Promise<AddressRow> {
  const input = await validAddress(ctx, body);
  try {
    return await ctx.db.transaction(async (tx) => {
      await lockUser(tx, userId);
      const { count } = await one<{ count: number }>(tx, 'SELECT count(*) AS count FROM addresses WHERE user_id = $1', [userId]);
      if (count >= MAX_ADDRESSES) throw badRequest([{ field: '', code: 'address.limit' }]);
      await assertNewAddress(tx, userId, input, null);
      return one<AddressRow>(
        tx,
        `INSERT INTO addresses (user_id, label, address, city, state_code, country_code, zip_code)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [userId, ...addressParams(input)],
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('ADDRESS_ALREADY_EXISTS');
    throw error;
  }
}

export async function updateAddress(ctx: AppContext, userId: number, addressId: number, body: unknown): Promise<AddressRow> {
  const input = await validAddress(ctx, body);
  try {
    return await ctx.db.transaction(async (tx) => {
      await lockUser(tx, userId);
      // Another player's address is reported exactly like a missing one.
      const mine = await maybeOne(tx, 'SELECT 1 FROM addresses WHERE id = $1 AND user_id = $2', [addressId, userId]);
      if (!mine) throw new DomainError('NOT_FOUND');
      await assertNewAddress(tx, userId, input, addressId);
      return one<AddressRow>(
        tx,
        `UPDATE addresses SET label = $3, address = $4, city = $5, state_code = $6, country_code = $7, zip_code = $8, updated_at = $9
         WHERE id = $1 AND user_id = $2 RETURNING *`,
        [addressId, userId, ...addressParams(input), ctx.now()],
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('ADDRESS_ALREADY_EXISTS');
    throw error;
  }
}

export async function removeAddress(ctx: AppContext, userId: number, addressId: number): Promise<void> {
  const rows = await ctx.db.query('DELETE FROM addresses WHERE id = $1 AND user_id = $2 RETURNING id', [addressId, userId]);
  if (rows.length === 0) throw new DomainError('NOT_FOUND');
}

// Profile image: decoded and encoded anew within PROFILE_IMAGE_SIDE (server/domain/images.ts), stored under
// the data folder by a random id (the uploaded name is not kept), served with its type.

function imagesDir(ctx: AppContext): string {
  return join(ctx.uploadsDir, 'profile-images');
}

/**
 * The problem with an uploaded file as an API error: 400 empty or too many pixels ('file.dimensions'),
 * 413 too large, 415 not JPEG/PNG (or PDF for a document) by its content.
 */
export function fileIssueError(issue: string, field: string): DomainError {
  const fields: FieldIssue[] = [{ field, code: issue }];
  if (issue === 'file.empty' || issue === 'file.dimensions') return badRequest(fields);
  if (issue === 'file.size') return new DomainError('FILE_TOO_LARGE');
  return new DomainError('FILE_FORMAT_NOT_SUPPORTED', fields);
}

/**
 * Swaps the player's picture id in one transaction that reads the current id under a row lock, so the
 * file replaced is the one really replaced (not the one seen when the request started), also when two
 * uploads race; that file is deleted once the change is committed.
 */
async function swapProfileImage(ctx: AppContext, userId: number, image: { id: string; type: 'jpeg' | 'png' } | null): Promise<UserRow> {
  const { updated, previous } = await ctx.db.transaction(async (tx) => {
    const current = await one<{ profile_image_id: string | null }>(tx, 'SELECT profile_image_id FROM users WHERE id = $1 FOR UPDATE', [
      userId,
    ]);
    const row = await one<UserRow>(
      tx,
      'UPDATE users SET profile_image_id = $2, profile_image_type = $3, updated_at = $4 WHERE id = $1 RETURNING *',
      [userId, image?.id ?? null, image?.type ?? null, ctx.now()],
    );
    return { updated: row, previous: current.profile_image_id };
  });
  if (previous && previous !== image?.id) rmSync(join(imagesDir(ctx), previous), { force: true });
  return updated;
}

export async function setProfileImage(ctx: AppContext, user: UserRow, fileName: string, bytes: Buffer): Promise<UserRow> {
  const issue = checkFileContent(bytes, 'profileImage', fileName);
  if (issue !== null) throw fileIssueError(issue, 'file');
  const sniffed = sniffFileType(bytes);
  if (sniffed !== 'jpeg' && sniffed !== 'png') throw new DomainError('FILE_FORMAT_NOT_SUPPORTED', [{ field: 'file', code: 'file.type' }]);
  const image = await storedFile(bytes, sniffed, 'profileImage', 'file');
  if (image.type === 'pdf') throw new DomainError('FILE_FORMAT_NOT_SUPPORTED', [{ field: 'file', code: 'file.type' }]);
  const imageId = randomBytes(18).toString('base64url');
  const path = join(imagesDir(ctx), imageId);
  mkdirSync(imagesDir(ctx), { recursive: true });
  writeFileSync(path, image.bytes, { mode: 0o600 });
  try {
    return await swapProfileImage(ctx, user.id, { id: imageId, type: image.type });
  } catch (error) {
    rmSync(path, { force: true });
    throw error;
  }
}

/** The bytes to store for an upload (server/domain/images.ts), its refusal as the API error about `field`. */
export async function storedFile(
  bytes: Buffer,
  type: SniffedType,
  kind: UploadKind,
  field: string,
): Promise<{ bytes: Buffer; type: SniffedType }> {
  try {
    return await fileToStore(bytes, type, kind);
  } catch (error) {
    if (error instanceof StoredFileError) throw fileIssueError(error.code, field);
    throw error;
  }
}

export async function removeProfileImage(ctx: AppContext, user: UserRow): Promise<UserRow> {
  return swapProfileImage(ctx, user.id, null);
}

export async function readProfileImage(ctx: AppContext, imageId: string): Promise<{ bytes: Buffer; type: 'jpeg' | 'png' } | null> {
  const row = await maybeOne<{ profile_image_type: 'jpeg' | 'png' }>(
    ctx.db,
    'SELECT profile_image_type FROM users WHERE profile_image_id = $1',
    [imageId],
  );
  if (!row) return null;
  try {
    return { bytes: readFileSync(join(imagesDir(ctx), imageId)), type: row.profile_image_type };
  } catch {
    return null;
  }
}
