import { errors } from '@strapi/utils';
import { PROFILE_PICTURE_UPLOAD } from '../contract/users';

/** The 403 of an upload onto another member's profile picture. */
export const NOT_YOUR_PICTURE = 'You can only change your own profile picture';

interface PolicyContext {
  state: { user?: { id: number | string } };
  request: { body?: unknown };
}

/**
 * global::own-picture (POST /api/upload): a member uploads onto their own user's profile picture
 * only; refId naming anyone else answers 403. What else an upload must be (the profile picture and
 * nothing else, one image) is the route's guard's (extensions/upload/profile-picture-guard.ts), which
 * also leaves requests without a member (an admin-issued API token) to Strapi.
 */
export default (policyContext: PolicyContext): boolean => {
  const user = policyContext.state.user;
  if (!user) return true;
  const body = (policyContext.request.body ?? {}) as Record<string, unknown>;
  const ontoAPicture = body.ref === PROFILE_PICTURE_UPLOAD.ref && body.field === PROFILE_PICTURE_UPLOAD.field && body.refId !== undefined;
  // PolicyError: a 403 whose message reaches the client (Strapi turns a plain ForbiddenError into 'Forbidden').
  if (ontoAPicture && String(body.refId) !== String(user.id)) throw new errors.PolicyError(NOT_YOUR_PICTURE);
  return true;
};
