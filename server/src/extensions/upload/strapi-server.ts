import { applyProfilePictureGuard } from './profile-picture-guard';
import type { Core } from '@strapi/strapi';
import { OWNER_ATTRIBUTE } from '../../uploads/member-files';
import { withUploadBarrier } from '../../uploads/interrupted-uploads';
import { extendOnce } from '../extend-once';

type UploadService = Record<string, unknown> & {
  upload: (...args: unknown[]) => Promise<unknown>;
  replace: (...args: unknown[]) => Promise<unknown>;
};
type ServiceFactory = (context: { strapi: Core.Strapi }) => UploadService;

/** Every upload and replacement, the admin panel's too, writes its files behind the start-up sweep's barrier. */
function behindUploadBarrier(factory: ServiceFactory): ServiceFactory {
  return (context) => {
    const service = factory(context);
    return {
      ...service,
      upload: (...args) => withUploadBarrier(context.strapi, () => service.upload(...args)),
      replace: (...args) => withUploadBarrier(context.strapi, () => service.replace(...args)),
    };
  };
}

interface FileSchema {
  attributes: Record<string, unknown>;
  indexes?: { name: string; columns: string[]; type: null }[];
}

/**
 * upload plugin, customised:
 * - members may only upload their own profile picture through the content API
 *   (see profile-picture-guard.ts). Admin panel uploads are not affected;
 * - every file row records the member who uploaded it (`ownerMemberId`, see
 *   src/uploads/member-files.ts): a plain private integer, never sent to clients;
 * - uploads hold off the start-up sweep of interrupted uploads (src/uploads/interrupted-uploads.ts).
 */
export default (plugin: {
  routes: Record<string, unknown>;
  contentTypes?: Record<string, { schema: FileSchema }>;
  services?: Record<string, unknown>;
  [key: string]: unknown;
}) => {
  applyProfilePictureGuard(plugin);
  const upload = plugin.services?.upload;
  if (typeof upload !== 'function') throw new Error('upload extension: the upload plugin has no upload service');
  plugin.services!.upload = extendOnce(upload as ServiceFactory, behindUploadBarrier);
  const file = plugin.contentTypes?.file?.schema;
  if (!file) throw new Error('upload extension: the upload plugin has no file content type');
  file.attributes[OWNER_ATTRIBUTE] = { type: 'integer', private: true, configurable: false };
  // Idempotent: a second Strapi in one process (tests) extends the same schema object again.
  const index = { name: 'upload_files_owner_member_id_index', columns: ['owner_member_id'], type: null };
  file.indexes = [...(file.indexes ?? []).filter((existing) => existing.name !== index.name), index];
  return plugin;
};
