import { profileSettingMachine } from '../../../../machines/profileSetting.machine';
import { weightHistoryMachine } from '../../../../machines/weightHistory.machine';
import { useFlows } from '../../../hooks/appContext';
import { useFlowActor } from '../../../hooks/useFlowActor';
import { useReloadProfile } from '../../../hooks/useReloadProfile';

/** A setting saved on its own; afterwards the member (on /profile or /bmi) reloads. */
export function useProfileSetting(userId: string) {
  const reloadProfile = useReloadProfile();
  return useFlowActor((useFlows().profileSetting ?? profileSettingMachine).provide({ actions: { reloadProfile } }), { input: { userId } });
}

export function useWeightHistory() {
  return useFlowActor(useFlows().weightHistory ?? weightHistoryMachine);
}
