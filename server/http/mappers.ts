import { hasCompleteProfile, isoDate, type UserRow } from '../domain/users.ts';
import type { AddressRow } from '../domain/profile.ts';
import type { DocumentRow } from '../domain/documents.ts';

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());

/**
 * How the account began. Social accounts keep their provider after the player sets a password (through
 * the forgot-password flow); accounts are never linked, so an email account has neither id.
 */
function authProvider(row: UserRow): 'email' | 'google' | 'facebook' {
  if (row.google_sub !== null) return 'google';
  if (row.facebook_id !== null) return 'facebook';
  return 'email';
}

export function apiUser(row: UserRow) {
  return {
    id: row.id,
    firstName: row.first_name,
    middleName: row.middle_name,
    lastName: row.last_name,
    email: row.email,
    username: row.username,
    phoneCode: row.phone_code,
    phone: row.phone,
    dateOfBirth: isoDate(row.date_of_birth),
    gender: row.gender,
    address: row.address,
    city: row.city,
    stateCode: row.state_code,
    countryCode: row.country_code,
    zipCode: row.zip_code,
    profileImageUrl: row.profile_image_id ? `/api/v1/user/profile-image/${row.profile_image_id}` : null,
    emailVerified: row.email_verified_at !== null,
    active: row.active,
    authProvider: authProvider(row),
    profileComplete: hasCompleteProfile(row),
    referralCode: row.referral_code,
    selfExcludedUntil: iso(row.self_excluded_until),
    selfExclusionPermanent: row.self_exclusion_permanent,
    createdAt: row.created_at.toISOString(),
    lastLoginAt: iso(row.last_login_at),
  };
}

export function apiAddress(row: AddressRow) {
  return {
    id: row.id,
    label: row.label,
    address: row.address,
    city: row.city,
    stateCode: row.state_code,
    countryCode: row.country_code,
    zipCode: row.zip_code,
    createdAt: row.created_at.toISOString(),
  };
}

export function apiDocument(row: DocumentRow) {
  return {
    id: row.id,
    documentLabelId: row.document_label_id,
    label: row.label,
    status: row.status,
    fileName: row.file_name,
    createdAt: row.created_at.toISOString(),
    reviewedAt: iso(row.reviewed_at),
  };
}
