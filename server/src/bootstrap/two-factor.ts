import type { Core } from '@strapi/strapi';
import type { AccountDeletionService } from '../api/account/services/account-deletion';
import type { TwoFactorService } from '../api/two-factor/services/two-factor';

/** Account deletion removes the member's two-factor secret, recovery codes and pending log-in tickets. */
export function setupTwoFactor(strapi: Core.Strapi): void {
  const deletion = strapi.service('api::account.account-deletion') as unknown as AccountDeletionService;
  if (deletion.cleanups().includes('two-factor')) return;
  deletion.registerCleanup('two-factor', async (user) => {
    await (strapi.service('api::two-factor.two-factor') as unknown as TwoFactorService).removeEverything(user.id);
  });
}
