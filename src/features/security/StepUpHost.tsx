import { Suspense, lazy } from 'react';
import { CatchBoundary } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useStepUp } from '../../hooks/useStepUp';

// The dialog's chunk (the form, the modal) loads when the first refused call opens it, off the first paint.
const StepUpDialog = lazy(() => import('./StepUpDialog').then((module) => ({ default: module.StepUpDialog })));

/**
 * Where the step-up dialog lives (docs/security.md#step-up): the app's one step-up actor runs from the
 * first paint, so a refused call waits on it; its dialog shows while the actor says so. Should the
 * dialog's chunk fail to load, the member cannot answer: the waiting calls fail with the server's words.
 */
export function StepUpHost() {
  const stepUp = useStepUp();
  const open = useSelector(stepUp, (snapshot) => snapshot.hasTag('dialog'));
  if (!open) return null;
  return (
    <CatchBoundary getResetKey={() => 0} onCatch={() => stepUp.send({ type: 'stepUp.cancelled' })} errorComponent={() => null}>
      <Suspense fallback={null}>
        <StepUpDialog stepUp={stepUp} />
      </Suspense>
    </CatchBoundary>
  );
}
