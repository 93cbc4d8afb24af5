import { useEffect, useMemo, useRef, type ChangeEvent } from 'react';
import { useSelector } from '@xstate/react';
import { PHOTO_UPDATED_MESSAGE } from '../../../machines/photoUpload.machine';
import type { User } from '../../../server/src/contract/users';
import { FormMessages } from '../../components/form/FormMessages';
import { ActionButtons } from '../../components/form/ActionButtons';
import { usePhotoUpload } from './useProfileFlows';

/** Media URLs are relative to the site (SPEC §3); absolute ones come from a CDN provider. */
function mediaSource(url: string): string {
  return /^https?:\/\//.test(url) ? url : new URL(url, window.location.origin).toString();
}

function usePreviewUrl(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}

export function ProfilePicture({ user }: { user: User }) {
  const upload = usePhotoUpload(String(user.id));
  const file = useSelector(upload, (snapshot) => snapshot.context.file);
  const uploading = useSelector(upload, (snapshot) => snapshot.hasTag('busy'));
  const uploaded = useSelector(upload, (snapshot) => snapshot.hasTag('success'));
  const error = useSelector(upload, (snapshot) => snapshot.context.error);
  const previewUrl = usePreviewUrl(file);
  const inputRef = useRef<HTMLInputElement>(null);
  const picture = user.profile_picture;

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.currentTarget.files?.[0];
    if (chosen) upload.send({ type: 'file.selected', file: chosen });
    event.currentTarget.value = '';
  };

  const shown = previewUrl ?? (picture ? mediaSource(picture.url) : null);

  return (
    <section className="profile-card profile-picture" aria-label="Profile picture">
      <div className="profile-picture__frame">
        {shown ? (
          <img src={shown} alt={previewUrl ? 'Preview of your new profile picture' : 'Your profile picture'} width={120} height={120} />
        ) : (
          <span className="profile-picture__initial" aria-hidden="true">
            {user.username.slice(0, 1).toUpperCase()}
          </span>
        )}
      </div>
      <div className="profile-picture__controls">
        <FormMessages error={error} notice={uploaded ? PHOTO_UPDATED_MESSAGE : null} />
        {file ? (
          <ActionButtons
            busy={uploading}
            label="Save Photo"
            busyLabel="Uploading..."
            onConfirm={() => upload.send({ type: 'upload.confirmed' })}
            onCancel={() => upload.send({ type: 'upload.cancelled' })}
          />
        ) : (
          <button type="button" className="button" onClick={() => inputRef.current?.click()}>
            {picture ? 'Change Photo' : 'Upload Photo'}
          </button>
        )}
        <input
          ref={inputRef}
          hidden
          type="file"
          accept="image/*"
          aria-label="Choose a profile picture"
          onChange={pick}
          disabled={uploading}
        />
      </div>
    </section>
  );
}
