import type { Core } from '@strapi/strapi';
import { currentSessionId } from '../security/sessions/tokens';
import { requireRecentStepUp } from '../security/step-up';

interface PolicyContext {
  state: { user?: { id: number }; session?: { id?: unknown } };
}

/**
 * global::recent-step-up: the route goes on only when the request's own session proved presence
 * within the step-up window; otherwise 403 "Please confirm it's you to continue." with
 * `error.details.stepUp` and the member's methods (docs/security.md#step-up).
 */
export default async (policyContext: PolicyContext, _config: unknown, { strapi }: { strapi: Core.Strapi }): Promise<boolean> => {
  const user = policyContext.state.user;
  // Only member routes name this policy: their auth already refused a request without a member.
  if (!user) return false;
  await requireRecentStepUp(strapi, user.id, currentSessionId(policyContext));
  return true;
};
