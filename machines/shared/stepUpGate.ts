import type { StepUpMethod } from '../../server/src/contract/stepUp';
import type { StepUpActorRef } from '../stepUp.machine';

/**
 * Asks the step-up actor and waits for its outcome: true once the member proved presence, false when
 * they cancelled. A second guarded call refused meanwhile waits for the same dialog.
 */
export function askStepUp(stepUp: StepUpActorRef, methods: StepUpMethod[]): Promise<boolean> {
  return new Promise((resolve) => {
    const subscription = stepUp.on('stepUp.finished', ({ confirmed }) => {
      subscription.unsubscribe();
      resolve(confirmed);
    });
    stepUp.send({ type: 'stepUp.requested', methods });
  });
}
