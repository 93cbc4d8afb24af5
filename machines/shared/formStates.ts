/**
 * A one-form flow's states up to its answer: the form at rest, `idle` before a submission and `failure` after a
 * refused one, takes the next submission alike; `submitting` is tagged busy, so the view holds the form meanwhile.
 * Spread into the machine's states, so the Stately inspector still shows each state by name.
 */
export function formStates<const TResting, const TSubmitting extends object>(resting: TResting, submitting: TSubmitting) {
  return { idle: resting, failure: resting, submitting: { tags: ['busy'], ...submitting } };
}
