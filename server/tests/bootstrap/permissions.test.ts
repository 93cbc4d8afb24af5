import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { rolePermissions } from '../../src/bootstrap/permissions';

/**
 * The role permissions derived from the route rows (src/route-table.ts) and the plugin routes'
 * declarations, without Strapi: the API routers are loaded as Strapi loads them (every module in
 * src/api/<name>/routes). The lists are the ones written out by hand before they were derived:
 * deriving them widened nothing. A new route changes them here on purpose.
 */

// Strapi's core router factory (everyoneReads) builds its routes only once Strapi runs, and Strapi's
// ESM build does not load here; the access it is given is declared beside it.
vi.mock('@strapi/strapi', () => ({ factories: { createCoreRouter: () => ({ type: 'content-api' }) } }));

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'api');

async function loadRouters(): Promise<unknown[]> {
  const files = fs
    .readdirSync(API_DIR)
    .filter((api) => fs.existsSync(path.join(API_DIR, api, 'routes')))
    .flatMap((api) => fs.readdirSync(path.join(API_DIR, api, 'routes')).map((file) => path.join(API_DIR, api, 'routes', file)));
  return Promise.all(files.map(async (file) => ((await import(file)) as { default: unknown }).default));
}

const LEGAL_READ_ACTIONS = [
  'api::privacy-policy.privacy-policy.find',
  'api::terms-and-condition.terms-and-condition.find',
  'api::refund-policy.refund-policy.find',
];

const PUBLIC = [
  'plugin::users-permissions.auth.register',
  'plugin::users-permissions.auth.callback',
  'plugin::users-permissions.auth.connect',
  'plugin::users-permissions.auth.forgotPassword',
  'plugin::users-permissions.auth.resetPassword',
  'plugin::users-permissions.auth.emailConfirmation',
  'plugin::users-permissions.auth.sendEmailConfirmation',
  'api::ingredient.ingredient.find',
  'api::ingredient.ingredient.findOne',
  ...LEGAL_READ_ACTIONS,
  'api::subscription-plan.subscription-plan.find',
];

const AUTHENTICATED = [
  'plugin::users-permissions.user.me',
  'plugin::users-permissions.auth.changePassword',
  'plugin::users-permissions.user.update',
  'plugin::upload.content-api.upload',
  'api::account.account.deleteAccount',
  'api::account.account.logoutAll',
  'api::member-session.member-session.find',
  'api::member-session.member-session.revoke',
  'api::member-session.member-session.stepUp',
  'api::ingredient.ingredient.find',
  'api::ingredient.ingredient.findOne',
  ...LEGAL_READ_ACTIONS,
  'api::subscription-plan.subscription-plan.find',
  'api::subscription.subscription.current',
  'api::subscription.subscription.create',
  'api::subscription.subscription.verify',
  'api::subscription.subscription.cancel',
  'api::subscription.subscription.resume',
  'api::subscription.subscription.refund',
  'api::subscription.subscription.invoices',
  'api::subscription.subscription.portal',
  'api::subscription.subscription.card',
  'api::payment.payment.sandboxCard',
  'api::account.account.export',
  'api::two-factor.two-factor.status',
  'api::two-factor.two-factor.setup',
  'api::two-factor.two-factor.enable',
  'api::two-factor.two-factor.regenerate',
  'api::two-factor.two-factor.disable',
  'api::weight-entry.weight-entry.find',
  'api::weight-entry.weight-entry.create',
  'api::weight-entry.weight-entry.delete',
  'api::passkey.passkey.registrationOptions',
  'api::passkey.passkey.find',
  'api::passkey.passkey.create',
  'api::passkey.passkey.delete',
];

describe('role permissions, derived from the routes', () => {
  it('are exactly the lists written by hand before: nothing widened, nothing lost', async () => {
    const derived = rolePermissions(await loadRouters());
    expect(derived.public).toEqual([...PUBLIC].sort());
    expect(derived.authenticated).toEqual([...AUTHENTICATED].sort());
  });

  it('give no role the routes that are public without a token (auth: false), nor any list of users or files', async () => {
    const derived = rolePermissions(await loadRouters());
    const all = [...derived.public, ...derived.authenticated];
    for (const action of [
      'api::two-factor.two-factor.logIn',
      'api::passkey.passkey.signIn',
      'api::account.account.confirmEmailChange',
      'api::payment.payment.webhook',
      'api::health.health.ready',
      'plugin::users-permissions.user.find',
      'plugin::upload.content-api.find',
    ]) {
      expect(all).not.toContain(action);
    }
  });

  it('refuse a router that states no access', () => {
    expect(() => rolePermissions([{ type: 'content-api', routes: [] }])).toThrow(/states no access/);
  });
});
