import crypto from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { UID } from '../../content-types';

/**
 * What a password log-in proved, as a stamp: a digest of the member's password hash and e-mail address
 * as the log-in read them before checking the password. A session (or second-step ticket) won with it is
 * written only while the member's row still gives the same stamp (./records.ts): a log-in that checked
 * the old password while a change or reset committed, and signed its token after that change revoked
 * everything, is refused instead of outliving it. No clock is compared, and no other member's time matters.
 * The digest keeps neither the hash nor the address in a ticket's row or in memory longer than needed.
 */

interface CredentialRow {
  password?: string | null;
  email?: string | null;
}

/** The stamp of a user row; null for a member without a password (social sign-in proves nothing here). */
export function credentialStamp(row: CredentialRow | null | undefined): string | null {
  if (!row?.password) return null;
  return crypto
    .createHash('sha256')
    .update(`${row.password}\u0000${(row.email ?? '').toLowerCase()}`)
    .digest('base64url');
}

/** The member's stamp as the database holds it now (in the caller's transaction, where it has one). */
export async function currentCredentialStamp(strapi: Core.Strapi, memberId: number | string): Promise<string | null> {
  const row = (await strapi.db.query(UID.user).findOne({ where: { id: memberId }, select: ['password', 'email'] })) as CredentialRow | null;
  return credentialStamp(row);
}
