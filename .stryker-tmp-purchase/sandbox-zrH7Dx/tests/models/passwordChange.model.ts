// @ts-nocheck
import { setup } from 'xstate';

/**
 * SPEC §2 Profile, §4 Password change panel, §5, §9: 'Change Password' toggles the panel; Cancel or
 * closing clears the fields. Invalid fields show the rule's message; the server's refusal shows its
 * message. A change keeps the member logged in (with the fresh token) and shows
 * 'Password changed successfully!' for 3 seconds.
 */
export const passwordChangeModel = setup({
  types: {
    events: {} as
      | { type: 'profile.opened' }
      | { type: 'panel.toggled' }
      | { type: 'change.cancelled' }
      | { type: 'change.submittedBlankCurrent' }
      | { type: 'change.submittedMismatch' }
      | { type: 'change.submittedShort' }
      | { type: 'change.submittedValid' }
      | { type: 'server.changed' }
      | { type: 'server.refused' }
      | { type: 'time.passed3s' },
  },
}).createMachine({
  id: 'passwordChangeModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'profile.opened': 'closed' } },
    closed: { on: { 'panel.toggled': 'open' } },
    /** Empty fields. */
    open: {
      on: {
        'panel.toggled': 'closed',
        'change.cancelled': 'closed',
        'change.submittedBlankCurrent': 'invalid',
        'change.submittedMismatch': 'invalid',
        'change.submittedShort': 'invalid',
        'change.submittedValid': 'submitting',
      },
    },
    invalid: { on: { 'change.submittedValid': 'submitting', 'change.cancelled': 'closed' } },
    submitting: { on: { 'server.changed': 'changed', 'server.refused': 'refused' } },
    refused: { on: { 'panel.toggled': 'closed' } },
    changed: { on: { 'time.passed3s': 'closed', 'panel.toggled': 'open' } },
  },
});
