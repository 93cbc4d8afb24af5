import { useRouteContext } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import type { Actor, ActorOptions, AnyActorLogic, IsNotNever, RequiredActorOptionsKeys } from 'xstate';

type FlowOptions<TLogic extends AnyActorLogic> = Omit<ActorOptions<TLogic>, 'inspect'>;

/**
 * A page's flow actor, reporting to the app's inspector like the auth actor does, so the
 * Stately inspector shows every flow and the events they send each other.
 */
export function useFlowActor<TLogic extends AnyActorLogic>(
  logic: TLogic,
  ...[options]: IsNotNever<RequiredActorOptionsKeys<TLogic>> extends true
    ? [options: FlowOptions<TLogic> & { [K in RequiredActorOptionsKeys<TLogic>]: unknown }]
    : [options?: FlowOptions<TLogic>]
): Actor<TLogic> {
  const inspect = useRouteContext({ from: '__root__', select: (context) => context.inspect });
  const withInspector: ActorOptions<TLogic> = { ...options, inspect };
  return useActorRef<AnyActorLogic>(logic, withInspector) as Actor<TLogic>;
}
