import { useRouter } from '@tanstack/react-router';
import { profileSettingMachine } from '../../../../machines/profileSetting.machine';
import { weightHistoryMachine } from '../../../../machines/weightHistory.machine';
import { useFlows } from '../../../app/appContext';
import { useFlowActor } from '../../../app/useFlowActor';

/** A setting saved on its own; afterwards the page's data (the profile, or /bmi's member) reloads. */
export function useProfileSetting(userId: string, routeId: '/profile' | '/bmi') {
  const router = useRouter();
  const reloadProfile = () => {
    void router.invalidate({ filter: (match) => match.routeId === routeId });
  };
  return useFlowActor((useFlows().profileSetting ?? profileSettingMachine).provide({ actions: { reloadProfile } }), { input: { userId } });
}

export function useWeightHistory() {
  return useFlowActor(useFlows().weightHistory ?? weightHistoryMachine);
}
