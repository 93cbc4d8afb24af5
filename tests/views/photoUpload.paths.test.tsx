import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { fromPromise } from 'xstate';
import { photoUploadMachine } from '../../machines/photoUpload.machine';
import { ApiError } from '../../machines/services/errors';
import type { Media } from '../../server/src/contract/users';
import { photoUploadModel } from '../models/photoUpload.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { noticeShownFor, seeAlert, seeNotice } from '../support/pathSteps';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';
import { SUCCESS_NOTICE_MS } from '../../machines/shared/notice';

const UPDATED = 'Profile picture updated successfully!';
const NOT_AN_IMAGE = 'Please choose an image file.';
const SERVER_REFUSAL = 'Only images can be uploaded as a profile picture';
const png = new File([new Uint8Array([137, 80, 78, 71])], 'steak.png', { type: 'image/png' });
const text = new File(['not a picture'], 'notes.txt', { type: 'text/plain' });
const uploadedPicture = { id: 3, url: '/uploads/steak_abc.png', name: 'steak.png' } as Media;

function openProfile(inspect?: Inspect) {
  const uploads = deferredCalls<{ userId: string; file: File }, void>();
  const photoUpload = photoUploadMachine.provide({
    actors: { uploadPicture: fromPromise<void, { userId: string; file: File }>(({ input }) => uploads.handler(input)) },
  });
  return { ...renderProfile('information', { photoUpload }, {}, inspect), uploads };
}
type Page = ReturnType<typeof openProfile>;
const pictureCard = () => screen.getByRole('region', { name: 'Profile picture' });
const choose = (file: File) => fireEvent.change(screen.getByLabelText('Choose a profile picture'), { target: { files: [file] } });

async function expectCard(expected: { preview: boolean; busy?: boolean; alert?: string; notice?: string }) {
  await see("the region 'Profile picture'", pictureCard);
  const card = pictureCard();
  const preview = () => within(card).queryByRole('img', { name: 'Preview of your new profile picture' });
  await see(expected.preview ? 'the preview' : 'no preview', () => expect(preview() !== null).toBe(expected.preview));
  if (expected.preview) {
    const busy = expected.busy ?? false;
    const save = within(card).getByRole('button', { name: busy ? 'Uploading...' : 'Save Photo' }) as HTMLButtonElement;
    expect(save.disabled).toBe(busy);
    expect((within(card).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(busy);
  } else {
    expect(within(card).queryByRole('button', { name: 'Save Photo' })).toBeNull();
  }
  await seeAlert(pictureCard, expected.alert);
  await seeNotice(pictureCard, expected.notice);
}

const perform = {
  'image.chosen': () => choose(png),
  'nonImage.chosen': () => choose(text),
  'upload.confirmed': (page: Page) => page.user.click(within(pictureCard()).getByRole('button', { name: 'Save Photo' })),
  'upload.cancelled': (page: Page) => page.user.click(within(pictureCard()).getByRole('button', { name: 'Cancel' })),
  'server.saved': (page: Page) => {
    page.server.user = { ...page.server.user, profile_picture: uploadedPicture };
    page.uploads.last().settle.resolve();
  },
  'server.refused': (page: Page) => page.uploads.last().settle.reject(new ApiError(SERVER_REFUSAL, 400)),
  'time.passed3s': noticeShownFor(3000, pictureCard, UPDATED),
};

describe('photoUpload: the spec model replayed against the profile picture', () => {
  afterEach(restoreProfileHarness);

  it('uses the spec delay', () => {
    expect(SUCCESS_NOTICE_MS).toBe(3000);
  });

  definePathTests<Page>({
    flow: 'photoUpload',
    machine: photoUploadMachine,
    model: photoUploadModel,
    open: { 'profile.opened': openProfile },
    perform,
    screens: {
      idle: () => expectCard({ preview: false }),
      notAnImage: () => expectCard({ preview: false, alert: NOT_AN_IMAGE }),
      previewing: () => expectCard({ preview: true }),
      uploading: () => expectCard({ preview: true, busy: true }),
      refused: () => expectCard({ preview: true, alert: SERVER_REFUSAL }),
      saved: async () => {
        await expectCard({ preview: false, notice: UPDATED });
        // The profile reloads and shows the new picture.
        await see('the new profile picture', () =>
          expect(within(pictureCard()).getByRole('img', { name: 'Your profile picture' }).getAttribute('src')).toBe(
            new URL(uploadedPicture.url, window.location.origin).toString(),
          ),
        );
      },
    },
  });

  it('offers only images in the picker', async () => {
    openProfile();
    await settle(() => screen.getByLabelText('Choose a profile picture'));
    expect(screen.getByLabelText('Choose a profile picture').getAttribute('accept')).toBe('image/*');
  });

  it('uploads the chosen file for the logged-in user', async () => {
    const page = openProfile();
    await settle(() => screen.getByLabelText('Choose a profile picture'));
    perform['image.chosen']();
    await perform['upload.confirmed'](page);
    expect(page.uploads.last().input).toEqual({ userId: '7', file: png });
  });
});
