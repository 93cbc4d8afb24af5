import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { errorMessage } from './services/errors';
import { SUCCESS_NOTICE_MS, successNotice } from './shared/notice';
import { uploadProfilePicture } from './services/users';

export const PHOTO_UPDATED_MESSAGE = 'Profile picture updated successfully!';
export const PHOTO_UPLOAD_FALLBACK = 'Failed to upload profile picture';
export const NOT_AN_IMAGE_MESSAGE = 'Please choose an image file.';

export type PhotoUploadEvent = { type: 'file.selected'; file: File } | { type: 'upload.confirmed' } | { type: 'upload.cancelled' };

export const photoUploadMachine = setup({
  types: {
    context: {} as { userId: string; file: File | null; error: string | null },
    events: {} as PhotoUploadEvent,
    input: {} as { userId: string },
  },
  actors: {
    uploadPicture: fromPromise<void, { userId: string; file: File }>(({ input, signal }) =>
      uploadProfilePicture(input.userId, input.file, { signal }),
    ),
  },
  // Stryker disable next-line ObjectLiteral: a placeholder the app provides; XState skips a missing action the same way.
  actions: {
    reloadProfile: () => {},
  },
  delays: {
    successMessage: SUCCESS_NOTICE_MS,
  },
  guards: {
    isImage: ({ event }) => {
      assertEvent(event, 'file.selected');
      return event.file.type.startsWith('image/');
    },
  },
}).createMachine({
  id: 'photoUpload',
  context: ({ input }) => ({ userId: input.userId, file: null, error: null }),
  initial: 'idle',
  on: {
    'file.selected': [
      { guard: 'isImage', target: '.previewing', actions: assign({ file: ({ event }) => event.file, error: null }) },
      { target: '.idle', actions: assign({ file: null, error: NOT_AN_IMAGE_MESSAGE }) },
    ],
  },
  states: {
    idle: {},
    previewing: {
      on: {
        // A new attempt: the earlier refusal no longer applies.
        'upload.confirmed': { target: 'uploading', actions: assign({ error: null }) },
        'upload.cancelled': { target: 'idle', actions: assign({ file: null, error: null }) },
      },
    },
    uploading: {
      tags: ['busy'],
      on: { 'file.selected': {} },
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'uploadPicture',
        src: 'uploadPicture',
        input: ({ context }) => {
          // Stryker disable next-line ConditionalExpression,StringLiteral: previewing, the only way in, always holds a file.
          if (!context.file) throw new Error('No picture chosen');
          return { userId: context.userId, file: context.file };
        },
        onDone: { target: 'succeeded', actions: [assign({ file: null }), 'reloadProfile'] },
        onError: {
          target: 'previewing',
          actions: assign({ error: ({ event }) => errorMessage(event.error, PHOTO_UPLOAD_FALLBACK) }),
        },
      },
    },
    succeeded: successNotice('idle'),
  },
});
