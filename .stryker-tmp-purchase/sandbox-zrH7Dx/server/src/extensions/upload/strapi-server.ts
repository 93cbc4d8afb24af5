// @ts-nocheck
import { applyProfilePictureGuard } from './profile-picture-guard';

/**
 * upload plugin, customised: members may only upload their own profile picture through the
 * content API (see profile-picture-guard.ts). Admin panel uploads are not affected.
 */
export default (plugin: { routes: Record<string, unknown>; [key: string]: unknown }) => {
  applyProfilePictureGuard(plugin);
  return plugin;
};
