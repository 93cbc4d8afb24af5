// @ts-nocheck
import type { Core } from '@strapi/strapi';
import { PRIVACY_POLICY, REFUND_POLICY, TERMS_AND_CONDITIONS } from './legal-content';
import { UID } from '../content-types';

/** The three legal single types (GET /api/privacy-policy, /api/terms-and-condition, /api/refund-policy). */
export const LEGAL_DOCUMENTS = [
  { uid: UID.privacyPolicy, data: PRIVACY_POLICY },
  { uid: UID.termsAndCondition, data: TERMS_AND_CONDITIONS },
  { uid: UID.refundPolicy, data: REFUND_POLICY },
] as const;

/**
 * Creates each legal page with its first-start text when it does not exist yet.
 * Idempotent: an existing document (for instance one an editor changed) is never touched.
 */
export async function seedLegalDocuments(strapi: Core.Strapi): Promise<void> {
  for (const { uid, data } of LEGAL_DOCUMENTS) {
    const documents = strapi.documents(uid);
    const existing = await documents.findFirst({ fields: ['id'] });
    if (existing) continue;
    await documents.create({ data: { ...data } });
    strapi.log.info(`[seed] created ${uid} with its first-start text`);
  }
}
