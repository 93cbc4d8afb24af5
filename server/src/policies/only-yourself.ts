import { errors } from '@strapi/utils';
import { profileMessages } from '../contract/profileRules';

interface PolicyContext {
  state: { user?: { id: number | string } };
  params: Record<string, string | undefined>;
}

/**
 * global::only-yourself (PUT /api/users/:id): a member changes only their own user; any other id
 * (another member's, a documentId, an unknown one) answers 403 "You can only update your own profile".
 * Which fields and values may be saved is the route's guard's (extensions/users-permissions/profile-guard.ts).
 */
export default (policyContext: PolicyContext): boolean => {
  const user = policyContext.state.user;
  // The route's auth already refused a request without a member.
  if (!user) return false;
  // PolicyError: a 403 whose message reaches the client (Strapi turns a plain ForbiddenError into 'Forbidden').
  if (String(policyContext.params.id) !== String(user.id)) throw new errors.PolicyError(profileMessages.notYourself);
  return true;
};
