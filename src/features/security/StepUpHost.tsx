import { useEffect, useState } from 'react';
import type { StepUpMethod } from '../../../server/src/contract/stepUp';
import { configureStepUp } from '../../../machines/services/sessionHooks';

/** A refused call waiting for the dialog, from before the dialog's chunk was there. */
export type PendingStepUp = { methods: StepUpMethod[]; resolve: (confirmed: boolean) => void };

type DialogModule = typeof import('./StepUpDialog');

/**
 * Where the step-up dialog lives (docs/security.md#step-up). Its chunk (the machine, the dialog) loads
 * with the first refused call, off the first paint; that call and any before the dialog is up wait
 * for it. Should the chunk fail to load, they fail with the server's words.
 */
export function StepUpHost() {
  const [module, setModule] = useState<DialogModule | null>(null);
  const [pending, setPending] = useState<PendingStepUp[]>([]);
  useEffect(
    () =>
      configureStepUp(
        (methods) =>
          new Promise<boolean>((resolve) => {
            setPending((waiting) => [...waiting, { methods, resolve }]);
            import('./StepUpDialog').then(setModule, () => resolve(false));
          }),
      ),
    [],
  );
  if (!module) return null;
  return <module.StepUpDialog pending={pending} />;
}
