// @ts-nocheck
import { setup } from 'xstate';

/**
 * SPEC §2 Social login callback, §5 Profile Information save, §9: a just-registered social account
 * lands on /bmi. The height and weight follow the profile's rules, with the profile's messages
 * ('Height and weight must be positive', 'Height must be between 100-250 cm', 'Weight must be between
 * 30-300 kg'); a valid form saves like the profile ('Saving...'), then goes to /profile, or shows the
 * server's message and stays.
 */
export const firstRunBmiModel = setup({
  types: {
    events: {} as
      | { type: 'page.opened' }
      | { type: 'bmi.submittedEmpty' }
      | { type: 'bmi.submittedShortHeight' }
      | { type: 'bmi.submittedHeavyWeight' }
      | { type: 'bmi.submittedValid' }
      | { type: 'server.saved' }
      | { type: 'server.refused' },
  },
}).createMachine({
  id: 'firstRunBmiModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'page.opened': 'form' } },
    form: {
      on: {
        'bmi.submittedEmpty': 'invalid',
        'bmi.submittedShortHeight': 'invalid',
        'bmi.submittedHeavyWeight': 'invalid',
        'bmi.submittedValid': 'saving',
      },
    },
    /** The rule's message; another invalid submission shows its own. */
    invalid: { on: { 'bmi.submittedValid': 'saving', 'bmi.submittedHeavyWeight': 'invalid' } },
    saving: { on: { 'server.saved': 'profilePage', 'server.refused': 'refused' } },
    refused: { on: { 'bmi.submittedValid': 'saving', 'bmi.submittedShortHeight': 'invalid' } },
    profilePage: {},
  },
});
