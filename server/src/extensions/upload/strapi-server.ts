import { applyProfilePictureGuard } from './profile-picture-guard';
import { OWNER_ATTRIBUTE } from '../../uploads/member-files';

interface FileSchema {
  attributes: Record<string, unknown>;
  indexes?: { name: string; columns: string[]; type: null }[];
}

/**
 * upload plugin, customised:
 * - members may only upload their own profile picture through the content API
 *   (see profile-picture-guard.ts). Admin panel uploads are not affected;
 * - every file row records the member who uploaded it (`ownerMemberId`, see
 *   src/uploads/member-files.ts): a plain private integer, never sent to clients.
 */
export default (plugin: {
  routes: Record<string, unknown>;
  contentTypes?: Record<string, { schema: FileSchema }>;
  [key: string]: unknown;
}) => {
  applyProfilePictureGuard(plugin);
  const file = plugin.contentTypes?.file?.schema;
  if (!file) throw new Error('upload extension: the upload plugin has no file content type');
  file.attributes[OWNER_ATTRIBUTE] = { type: 'integer', private: true, configurable: false };
  // Idempotent: a second Strapi in one process (tests) extends the same schema object again.
  const index = { name: 'upload_files_owner_member_id_index', columns: ['owner_member_id'], type: null };
  file.indexes = [...(file.indexes ?? []).filter((existing) => existing.name !== index.name), index];
  return plugin;
};
