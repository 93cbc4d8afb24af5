/** SPEC §9: success messages on the profile disappear after 3000 ms. */
export const SUCCESS_NOTICE_MS = 3000;

/**
 * The notice-then-clear state: tagged `success` (the view shows the flow's message) and left for
 * `then` once the machine's `delay` (its `successMessage` unless named) has run out. Spread into a named
 * state, so the Stately inspector still shows the state with its tag and delayed transition.
 */
export function successNotice<const TThen, const TDelay extends string = 'successMessage'>(then: TThen, delay?: TDelay) {
  const after = { [delay ?? 'successMessage']: then } as Record<TDelay, TThen>;
  return { tags: ['success'], after };
}
