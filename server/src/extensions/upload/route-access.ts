import { pluginRouteAccess } from '../../route-table';

/**
 * Who may call the upload plugin's content-API routes (they have no rows in a route table): a member
 * uploads, onto their own profile picture only (global::own-picture and profile-picture-guard.ts);
 * no role lists, reads or deletes files. The boot-time sync grants exactly this (src/bootstrap/permissions.ts).
 */
/** POST /api/upload's handler. */
export const UPLOAD_HANDLER = 'content-api.upload';

export const UPLOAD_ACCESS = pluginRouteAccess('upload', { member: [UPLOAD_HANDLER] });
