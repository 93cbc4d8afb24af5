import type { Core } from '@strapi/strapi';
import { currentSessionId } from '../security/sessions';
import { requireRecentStepUp } from '../security/step-up';

interface PolicyContext {
  state: { user?: { id: number } };
  request: { header: Record<string, string | string[] | undefined> };
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
  const header = policyContext.request.header.authorization;
  await requireRecentStepUp(strapi, user.id, currentSessionId(Array.isArray(header) ? header[0] : header));
  return true;
};
