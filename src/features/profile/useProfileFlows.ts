import { useRouter } from '@tanstack/react-router';
import { photoUploadMachine } from '../../../machines/photoUpload.machine';
import { profileSectionMachine } from '../../../machines/profileSection.machine';
import { useAuthActor, useFlows } from '../../app/appContext';
import { useFlowActor } from '../../app/useFlowActor';

/** Reloads the profile route's data (GET /api/users/me) after a change. */
function useReloadProfile() {
  const router = useRouter();
  return () => {
    void router.invalidate({ filter: (match) => match.routeId === '/profile' });
  };
}

export function useProfileSection(userId: string) {
  const reloadProfile = useReloadProfile();
  const auth = useAuthActor();
  return useFlowActor((useFlows().profileSection ?? profileSectionMachine).provide({ actions: { reloadProfile } }), {
    input: { userId, auth },
  });
}

export function usePhotoUpload(userId: string) {
  const reloadProfile = useReloadProfile();
  return useFlowActor((useFlows().photoUpload ?? photoUploadMachine).provide({ actions: { reloadProfile } }), { input: { userId } });
}
