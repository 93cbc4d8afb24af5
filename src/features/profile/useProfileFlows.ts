import { fromPromise } from 'xstate';
import { photoUploadMachine } from '../../../machines/photoUpload.machine';
import { profileSectionMachine } from '../../../machines/profileSection.machine';
import { useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { useReloadProfile } from '../../hooks/useReloadProfile';

/**
 * A profile section's flow; after a save it waits for the reloaded profile before showing the notice.
 * The router shows a failed reload itself; the section only needs to know it is over.
 */
export function useProfileSection(userId: string) {
  const reloadProfile = useReloadProfile();
  const reloaded = fromPromise(() => reloadProfile().catch(() => undefined));
  return useFlowActor((useFlows().profileSection ?? profileSectionMachine).provide({ actors: { reloadProfile: reloaded } }), {
    input: { userId },
  });
}

export function usePhotoUpload(userId: string) {
  const reloadProfile = useReloadProfile();
  return useFlowActor((useFlows().photoUpload ?? photoUploadMachine).provide({ actions: { reloadProfile } }), { input: { userId } });
}
