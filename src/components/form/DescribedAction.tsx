import { useId } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRef, EventObject, Snapshot } from 'xstate';
import { FormMessages } from './FormMessages';

/** What a one-click flow shows: busy while it works, and its error once it is in `failure`. */
type OneClickSnapshot = Snapshot<unknown> & {
  hasTag(tag: 'busy'): boolean;
  matches(state: 'failure'): boolean;
  context: { error: string | null };
};

type DescribedActionProps<TEvent extends EventObject> = {
  flow: ActorRef<OneClickSnapshot, TEvent>;
  /** The one event the button sends. */
  event: TEvent;
  /** A success message, shown above with the error. */
  notice?: string | null;
  /** What the button does, read out with it. */
  description: string;
  label: string;
  busyLabel: string;
};

/** A one-click action with the sentence that says what it does: sends its flow one event, held while the flow is busy, its error above. */
export function DescribedAction<TEvent extends EventObject>({
  flow,
  event,
  notice,
  description,
  label,
  busyLabel,
}: DescribedActionProps<TEvent>) {
  const descriptionId = useId();
  const busy = useSelector(flow, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(flow, (snapshot) => (snapshot.matches('failure') ? snapshot.context.error : null));
  return (
    <>
      <FormMessages error={error} notice={notice} />
      <p id={descriptionId} className="muted">
        {description}
      </p>
      <button type="button" className="button" aria-describedby={descriptionId} disabled={busy} onClick={() => flow.send(event)}>
        {busy ? busyLabel : label}
      </button>
    </>
  );
}
