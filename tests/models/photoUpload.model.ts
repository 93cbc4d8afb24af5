import { setup } from 'xstate';

/**
 * SPEC §4 Picture upload, §9: pick a file and see a preview, then Save Photo ('Uploading...') or
 * Cancel. On success 'Profile picture updated successfully!' for 3 seconds, no preview, the profile
 * reloads with the new picture. A file that is no image is refused with a message; a refused upload
 * keeps the preview and says why.
 */
export const photoUploadModel = setup({
  types: {
    events: {} as
      | { type: 'profile.opened' }
      | { type: 'image.chosen' }
      | { type: 'nonImage.chosen' }
      | { type: 'upload.confirmed' }
      | { type: 'upload.cancelled' }
      | { type: 'server.saved' }
      | { type: 'server.refused' }
      | { type: 'time.passed3s' },
  },
}).createMachine({
  id: 'photoUploadModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'profile.opened': 'idle' } },
    idle: { on: { 'image.chosen': 'previewing', 'nonImage.chosen': 'notAnImage' } },
    notAnImage: { on: { 'image.chosen': 'previewing' } },
    previewing: { on: { 'upload.confirmed': 'uploading', 'upload.cancelled': 'idle', 'nonImage.chosen': 'notAnImage' } },
    uploading: { on: { 'server.saved': 'saved', 'server.refused': 'refused' } },
    /** The preview stays, with the server's reason. */
    /** Save Photo again uploads again, without the earlier reason (like the other forms' retries). */
    refused: { on: { 'upload.confirmed': 'uploading', 'upload.cancelled': 'idle' } },
    saved: { on: { 'time.passed3s': 'idle', 'image.chosen': 'previewing' } },
  },
});
