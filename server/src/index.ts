import type { Core } from '@strapi/strapi';
import { configureAuthSettings } from './bootstrap/auth-settings';
import { seedIngredients } from './bootstrap/ingredients';
import { seedLegalDocuments } from './bootstrap/legal';
import { seedSubscriptionPlans, setupPayments } from './bootstrap/payments';
import { syncRolePermissions } from './bootstrap/permissions';
import { narrowContentRoles } from './bootstrap/admin-roles';
import { setupProgress } from './bootstrap/progress';
import { setupTwoFactor } from './bootstrap/two-factor';
import { mirrorSocialProviders } from './bootstrap/social';
import { migrateEmails, migrateUsernames, translateIdentifierViolations } from './security/identifiers';
import { installGracefulShutdown } from './operations/shutdown';
import { requestIdLogMeta } from './operations/request-ids';
import { logEscapedErrors } from './operations/escaped-errors';
import { surviveOutageRejections } from './operations/database-outage';
import { closeLegalEditWatchers } from './prerender/legal-edits';
import { closeSharedRedis } from './security/limits';
import { assertProductionSafety } from './security/production-safety';
import { revokeSessionsOnCredentialChange } from './security/sessions/revocation';
import { deleteSessionsWithAccount, startSessionPruning } from './security/sessions/records';
import { keepLegacyTokens } from './security/sessions/legacy-tokens';
import { takeTurnsAtSchemaSync } from './operations/schema-sync-lock';
import { noteOwnersRecordedSince } from './uploads/member-files';
import { sweepInterruptedUploads } from './uploads/interrupted-uploads';
import type { MailQueueService } from './api/email-message/services/mail-queue';

let stopSessionPruning: (() => void) | undefined;
let stopSurvivingOutages: (() => void) | undefined;

const mailQueue = (strapi: Core.Strapi) => strapi.service('api::email-message.mail-queue') as unknown as MailQueueService;

export default {
  register({ strapi }: { strapi: Core.Strapi }) {
    // Before anything listens: a production server with placeholder secrets or a silent payment sandbox must not start.
    assertProductionSafety(strapi);
    installGracefulShutdown(strapi);
    // Here rather than in config/logger.ts: Strapi deep-copies its config, which would read the getter once.
    strapi.log.defaultMeta = requestIdLogMeta;
    logEscapedErrors(strapi);
    stopSurvivingOutages = surviveOutageRejections((message) => strapi.log.error(message));
    // Instances starting at once sync the schema (and upgrade what it drops) one at a time.
    takeTurnsAtSchemaSync(strapi);
    // Before the schema sync drops the old revocation cut-off: it becomes session rows (docs/security.md#revocable-sessions).
    keepLegacyTokens(strapi);
  },

  async destroy({ strapi }: { strapi: Core.Strapi }) {
    stopSessionPruning?.();
    stopSurvivingOutages?.();
    await mailQueue(strapi).worker.stop();
    await closeLegalEditWatchers();
    await closeSharedRedis();
  },

  // Idempotent: runs on every start.
  async bootstrap({ strapi }: { strapi: Core.Strapi }) {
    revokeSessionsOnCredentialChange(strapi);
    translateIdentifierViolations(strapi);
    await migrateUsernames(strapi);
    await migrateEmails(strapi);
    await seedIngredients(strapi);
    await seedLegalDocuments(strapi);
    await syncRolePermissions(strapi);
    await narrowContentRoles(strapi);
    await configureAuthSettings(strapi);
    await mirrorSocialProviders(strapi);
    await seedSubscriptionPlans(strapi);
    await setupPayments(strapi);
    await setupProgress(strapi);
    deleteSessionsWithAccount(strapi);
    // Session rows past the recognition window (docs/security.md#signed-in-devices-and-sign-in-alerts).
    stopSessionPruning = startSessionPruning(strapi);
    setupTwoFactor(strapi);
    await noteOwnersRecordedSince(strapi);
    // Not in a maintenance run (npm run uploads:orphans), only when the app serves.
    if (strapi.config.get<boolean>('server.sweepInterruptedUploads', true)) await sweepInterruptedUploads(strapi);
    // Delivers the mail queue (docs/operations.md#mail-queue): what earlier runs or other instances left, then after each commit.
    mailQueue(strapi).worker.start();
  },
};
