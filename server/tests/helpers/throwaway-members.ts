import crypto from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { issueSession } from '../../src/security/sessions/tokens';

const USERS = 'plugin::users-permissions.user';

export type ThrowawayMember = { id: number; jwt: string };

/**
 * A maker of throwaway members for one request each, so a route that logs the member out or deletes
 * the account spoils nothing. Each is written straight to the database with the template member's
 * role and password hash (no bcrypt round, no sign-up limit) and given a session by the sessions room (src/security/sessions/tokens.ts).
 */
export async function throwawayMembers(strapi: Core.Strapi, templateId: number, prefix: string): Promise<() => Promise<ThrowawayMember>> {
  const template = (await strapi.db.query(USERS).findOne({ where: { id: templateId }, select: ['password'], populate: ['role'] })) as {
    password: string;
    role: { id: number };
  };
  return async () => {
    const name = `${prefix}${crypto.randomBytes(6).toString('hex')}`;
    const row = (await strapi.db.query(USERS).create({
      data: {
        documentId: crypto.randomBytes(12).toString('hex'),
        username: name,
        email: `${name}@example.com`,
        provider: 'local',
        password: template.password,
        confirmed: true,
        blocked: false,
        role: template.role.id,
      },
    })) as { id: number };
    return { id: row.id, jwt: await issueSession(strapi, row.id) };
  };
}
