import { useEffect } from 'react';
import { configureStepUp } from '../../machines/services/sessionHooks';
import { askStepUp } from '../../machines/shared/stepUpGate';
import { stepUpMachine, type StepUpActorRef } from '../../machines/stepUp.machine';
import { useFlows } from './appContext';
import { useFlowActor } from './useFlowActor';

/**
 * The app's one step-up actor (docs/security.md#step-up): every API call refused for want of a recent
 * proof waits on it (machines/services/client.ts), whichever flow sent the call.
 */
export function useStepUp(): StepUpActorRef {
  const stepUp = useFlowActor(useFlows().stepUp ?? stepUpMachine, { systemId: 'stepUp' });
  useEffect(() => configureStepUp((methods) => askStepUp(stepUp, methods)), [stepUp]);
  return stepUp;
}
