import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { PHOTO_UPDATED_MESSAGE, photoUploadMachine } from '../../../machines/photoUpload.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const uploadProfilePicture = vi.fn<(userId: string, file: File, options: { signal: AbortSignal }) => Promise<void>>();

let upload: Deferred<void>;

beforeEach(() => {
  upload = deferred<void>();
  uploadProfilePicture.mockReset().mockReturnValue(upload.promise);
});

const photo = new File(['png'], 'me.png', { type: 'image/png' });

function start() {
  const reloadProfile = vi.fn();
  const clock = new SimulatedClock();
  const machine = photoUploadMachine.provide({
    actors: {
      uploadPicture: fromPromise<void, { userId: string; file: File }>(({ input, signal }) =>
        uploadProfilePicture(input.userId, input.file, { signal }),
      ),
    },
    actions: { reloadProfile },
  });
  const actor = createActor(machine, { input: { userId: '7' }, clock }).start();
  return { actor, clock, reloadProfile };
}

describe('photoUpload (SPEC §4 Picture upload, §5 photo picker, §8, §9)', () => {
  it('previews a picked image', () => {
    const { actor } = start();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.send({ type: 'file.selected', file: photo });
    expect(actor.getSnapshot().matches('previewing')).toBe(true);
    expect(actor.getSnapshot().context.file).toBe(photo);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it.each([
    ['a PDF', new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' })],
    ['a file of no known type', new File(['x'], 'unknown')],
    ["a type that only ends in 'image/'", new File(['x'], 'fake.txt', { type: 'text/image/' })],
  ])('accepts image files only: refuses %s', (_kind, file) => {
    const { actor } = start();
    actor.send({ type: 'file.selected', file: photo });
    actor.send({ type: 'file.selected', file });
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches('idle')).toBe(true);
    expect(snapshot.context.file).toBeNull();
    expect(snapshot.context.error).toEqual(expect.stringMatching(/\S/));
  });

  it('picking an image after a refused file clears the message', () => {
    const { actor } = start();
    actor.send({ type: 'file.selected', file: new File(['x'], 'a.txt', { type: 'text/plain' }) });
    actor.send({ type: 'file.selected', file: photo });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('Cancel drops the preview', () => {
    const { actor } = start();
    actor.send({ type: 'file.selected', file: photo });
    actor.send({ type: 'upload.cancelled' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.file).toBeNull();
    expect(uploadProfilePicture).not.toHaveBeenCalled();
  });

  it("Save Photo uploads the picture for the member ('Uploading...', busy) and ignores another pick meanwhile", () => {
    const { actor } = start();
    actor.send({ type: 'file.selected', file: photo });
    actor.send({ type: 'upload.confirmed' });
    expect(actor.getSnapshot().matches('uploading')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(uploadProfilePicture).toHaveBeenCalledWith('7', photo, { signal: expect.any(AbortSignal) });

    actor.send({ type: 'file.selected', file: new File(['2'], 'other.png', { type: 'image/png' }) });
    expect(actor.getSnapshot().matches('uploading')).toBe(true);
    expect(actor.getSnapshot().context.file).toBe(photo);
  });

  it('on success clears the preview, reloads the profile and shows the message for 3 seconds', async () => {
    const { actor, clock, reloadProfile } = start();
    actor.send({ type: 'file.selected', file: photo });
    actor.send({ type: 'upload.confirmed' });
    expect(reloadProfile).not.toHaveBeenCalled();
    upload.resolve();
    await nextTick();
    expect(actor.getSnapshot().matches('succeeded')).toBe(true);
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.file).toBeNull();
    expect(reloadProfile).toHaveBeenCalledTimes(1);
    expect(PHOTO_UPDATED_MESSAGE).toBe('Profile picture updated successfully!');

    clock.increment(2999);
    expect(actor.getSnapshot().matches('succeeded')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('a new pick while the success message shows starts a new preview', async () => {
    const { actor } = start();
    actor.send({ type: 'file.selected', file: photo });
    actor.send({ type: 'upload.confirmed' });
    upload.resolve();
    await nextTick();
    actor.send({ type: 'file.selected', file: photo });
    expect(actor.getSnapshot().matches('previewing')).toBe(true);
  });

  it("keeps the preview and shows the server's message, or 'Failed to upload profile picture', on failure", async () => {
    const { actor, reloadProfile } = start();
    actor.send({ type: 'file.selected', file: photo });
    actor.send({ type: 'upload.confirmed' });
    upload.reject(new Error('Failed to upload image'));
    await nextTick();
    expect(actor.getSnapshot().matches('previewing')).toBe(true);
    expect(actor.getSnapshot().context.file).toBe(photo);
    expect(actor.getSnapshot().context.error).toBe('Failed to upload image');
    expect(reloadProfile).not.toHaveBeenCalled();

    uploadProfilePicture.mockRejectedValue(new Error(''));
    actor.send({ type: 'upload.confirmed' });
    // Trying again: the earlier refusal no longer shows while the picture uploads.
    expect(actor.getSnapshot().matches('uploading')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Failed to upload profile picture');

    actor.send({ type: 'upload.cancelled' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
