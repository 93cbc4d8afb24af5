import { profileSettingMachine } from '../../../../machines/profileSetting.machine';
import { weightHistoryMachine } from '../../../../machines/weightHistory.machine';
import { useFlows } from '../../../hooks/appContext';
import { useFlowActor } from '../../../hooks/useFlowActor';
import { useReloadProfile, type MemberRoute } from '../../../hooks/useReloadProfile';

/** A setting saved on its own; afterwards the page's data (the profile, or /bmi's member) reloads. */
export function useProfileSetting(userId: string, routeId: MemberRoute) {
  const reloadProfile = useReloadProfile(routeId);
  return useFlowActor((useFlows().profileSetting ?? profileSettingMachine).provide({ actions: { reloadProfile } }), { input: { userId } });
}

export function useWeightHistory() {
  return useFlowActor(useFlows().weightHistory ?? weightHistoryMachine);
}
