import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import {
  NOT_AN_IMAGE_MESSAGE,
  PHOTO_SUCCESS_MS,
  PHOTO_UPDATED_MESSAGE,
  photoUploadMachine,
} from '../../machines/photoUpload.machine';
import { ApiError } from '../../src/api/errors';
import type { Media } from '../../src/api/types';
import { deferredCalls } from '../support/deferred';
import { describePath, leafStateIds, transitionCoveringPaths, type ModelPath } from '../support/modelPaths';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';

const AFTER_SUCCESS = 'xstate.after.successMessage.photoUpload.succeeded';
const png = new File([new Uint8Array([137, 80, 78, 71])], 'steak.png', { type: 'image/png' });
const text = new File(['not a picture'], 'notes.txt', { type: 'text/plain' });

const events: AnyEventObject[] = [
  // Files serialise to {}: the label keeps the two events apart in the graph.
  { type: 'file.selected', file: png, label: png.name },
  { type: 'file.selected', file: text, label: text.name },
  { type: 'upload.confirmed' },
  { type: 'upload.cancelled' },
  { type: 'xstate.done.actor.uploadPicture' },
  { type: 'xstate.error.actor.uploadPicture', error: new ApiError('Only images can be uploaded as a profile picture', 400) },
  { type: AFTER_SUCCESS },
];
const describeEvent = (event: AnyEventObject) => (event.type === 'file.selected' ? `file.selected(${event.file.name})` : event.type);
const paths = transitionCoveringPaths(photoUploadMachine, {
  events,
  input: { userId: '7' },
  transitionKey: (state, event) => JSON.stringify([state.value, state.context.error === null, describeEvent(event)]),
});

const uploadedPicture = { id: 3, url: '/uploads/steak_abc.png', name: 'steak.png' } as Media;

function harness() {
  const uploads = deferredCalls<{ userId: string; file: File }, void>();
  const photoUpload = photoUploadMachine.provide({
    actors: { uploadPicture: fromPromise<void, { userId: string; file: File }>(({ input }) => uploads.handler(input)) },
  });
  return { ...renderProfile('information', { photoUpload }), uploads };
}
type Harness = ReturnType<typeof harness>;
const pictureCard = () => screen.getByRole('region', { name: 'Profile picture' });

async function perform(event: AnyEventObject, page: Harness) {
  switch (event.type) {
    case 'file.selected':
      fireEvent.change(screen.getByLabelText('Choose a profile picture'), { target: { files: [event.file] } });
      return;
    case 'upload.confirmed':
      await page.user.click(within(pictureCard()).getByRole('button', { name: 'Save Photo' }));
      return;
    case 'upload.cancelled':
      await page.user.click(within(pictureCard()).getByRole('button', { name: 'Cancel' }));
      return;
    case 'xstate.done.actor.uploadPicture':
      page.server.user = { ...page.server.user, profile_picture: uploadedPicture };
      page.uploads.last().settle.resolve();
      return;
    case 'xstate.error.actor.uploadPicture':
      page.uploads.last().settle.reject(event.error);
      return;
    case AFTER_SUCCESS:
      await act(() => vi.advanceTimersByTimeAsync(PHOTO_SUCCESS_MS - 1));
      expect(within(pictureCard()).getByRole('status').textContent).toBe(PHOTO_UPDATED_MESSAGE);
      await act(() => vi.advanceTimersByTimeAsync(1));
      return;
    default:
      throw new Error(`No way to perform ${event.type}`);
  }
}

async function expectScreen(state: AnyMachineSnapshot) {
  await settle(() => pictureCard());
  const card = pictureCard();
  if (state.matches('previewing') || state.matches('uploading')) {
    await settle(() => within(card).getByRole('img', { name: 'Preview of your new profile picture' }));
    const busy = state.matches('uploading');
    const save = within(card).getByRole('button', { name: busy ? 'Uploading...' : 'Save Photo' }) as HTMLButtonElement;
    expect(save.disabled).toBe(busy);
    expect((within(card).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(busy);
  } else {
    await settle(() => expect(within(card).queryByRole('img', { name: 'Preview of your new profile picture' })).toBeNull());
    expect(within(card).queryByRole('button', { name: 'Save Photo' })).toBeNull();
  }
  if (state.context.error) {
    expect(within(card).getByRole('alert').textContent).toBe(state.context.error);
  } else {
    expect(within(card).queryByRole('alert')).toBeNull();
  }
  if (state.matches('succeeded')) {
    expect(within(card).getByRole('status').textContent).toBe(PHOTO_UPDATED_MESSAGE);
    // The profile reloads and shows the new picture.
    await settle(() =>
      expect(within(pictureCard()).getByRole('img', { name: 'Your profile picture' }).getAttribute('src')).toBe(
        new URL(uploadedPicture.url, window.location.origin).toString(),
      ),
    );
  } else {
    expect(within(card).queryByRole('status')).toBeNull();
  }
}

describe('photoUpload machine: model-based paths replayed against the profile picture', () => {
  afterEach(restoreProfileHarness);

  it('reaches every state and takes every event', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.flatMap(({ state }) => state._nodes.map((node: { id: string }) => node.id))));
    expect(leafStateIds(photoUploadMachine).filter((id) => !reached.has(id))).toEqual([]);
    const taken = new Set(paths.flatMap((path) => path.steps.slice(1).map((step) => describeEvent(step.event))));
    expect(events.map(describeEvent).filter((name) => !taken.has(name))).toEqual([]);
    expect([PHOTO_SUCCESS_MS, PHOTO_UPDATED_MESSAGE, NOT_AN_IMAGE_MESSAGE]).toEqual([3000, 'Profile picture updated successfully!', 'Please choose an image file.']);
  });

  it('offers only images in the picker', async () => {
    harness();
    await settle(() => screen.getByLabelText('Choose a profile picture'));
    expect(screen.getByLabelText('Choose a profile picture').getAttribute('accept')).toBe('image/*');
  });

  it('uploads the chosen file for the logged-in user', async () => {
    const page = harness();
    await settle(() => screen.getByLabelText('Choose a profile picture'));
    await perform(events[0], page);
    await perform({ type: 'upload.confirmed' }, page);
    expect(page.uploads.last().input).toEqual({ userId: '7', file: png });
  });

  it.each(paths.map((path): [string, ModelPath] => [describePath(path, describeEvent), path]))('%s', async (_name, path) => {
    const page = harness();
    await expectScreen(path.steps[0].state);
    for (const step of path.steps.slice(1)) {
      await perform(step.event, page);
      await expectScreen(step.state);
    }
  });
});
