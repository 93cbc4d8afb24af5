import { setup } from 'xstate';

/**
 * SPEC §4 Profile sections, §5 Profile Information save, §9: Edit Profile opens the form; Cancel
 * shows the saved values again. Save checks the rules in the spec's order and shows the rule's
 * message; a valid form saves ('Saving...'), or stays in the form with the server's message. Once
 * saved, the profile reloads (still 'Saving...', issue 21); then the section leaves edit mode and
 * 'Profile updated successfully!' shows beside the saved values, for 3 seconds. A changed e-mail
 * asks for the current password; the server's newer username rules speak too. A new address is not
 * saved: the notice says a confirmation link went to it, and the section shows it as waiting (issue 23). A new member, with no
 * height or weight yet, saves the other fields without them; typing one asks for both (issue 21).
 */
export const profileInformationModel = setup({
  types: {
    events: {} as
      | { type: 'profile.opened' }
      /** A member who has given no height or weight yet. */
      | { type: 'profile.openedNewMember' }
      | { type: 'edit.started' }
      | { type: 'edit.cancelled' }
      /** Only the e-mail changed (with the current password), height and weight left empty. */
      | { type: 'save.newEmailOnly' }
      /** A height typed, the weight left empty. */
      | { type: 'save.heightOnly' }
      | { type: 'save.blankUsername' }
      | { type: 'save.shortUsername' }
      | { type: 'save.badEmail' }
      | { type: 'save.zeroHeight' }
      | { type: 'save.shortHeight' }
      | { type: 'save.heavyWeight' }
      | { type: 'save.longUsername' }
      | { type: 'save.usernameWithAt' }
      | { type: 'save.newEmailNoPassword' }
      | { type: 'save.valid' }
      | { type: 'save.sameEmailOtherCase' }
      | { type: 'save.newEmailWithPassword' }
      | { type: 'server.saved' }
      /** The other fields saved; the new address waits for the link mailed to it. */
      | { type: 'server.savedNewEmail' }
      | { type: 'server.refused' }
      | { type: 'server.wrongPassword' }
      /** The reloaded profile (GET /api/users/me) arrives. */
      | { type: 'server.reloaded' }
      | { type: 'time.passed3s' },
  },
}).createMachine({
  id: 'profileInformationModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'profile.opened': 'viewing', 'profile.openedNewMember': 'newMember' } },
    viewing: { on: { 'edit.started': 'editing' } },
    /** Height and weight 'Not set', 'Add your height and weight' for the BMI. */
    newMember: { on: { 'edit.started': 'newMemberEditing' } },
    /** The form with height and weight empty. */
    newMemberEditing: { on: { 'save.newEmailOnly': 'savingNewEmail', 'save.heightOnly': 'invalid' } },
    editing: {
      on: {
        'edit.cancelled': 'viewing',
        'save.blankUsername': 'invalid',
        'save.shortUsername': 'invalid',
        'save.badEmail': 'invalid',
        'save.zeroHeight': 'invalid',
        'save.shortHeight': 'invalid',
        'save.heavyWeight': 'invalid',
        'save.longUsername': 'invalid',
        'save.usernameWithAt': 'invalid',
        'save.newEmailNoPassword': 'invalid',
        'save.valid': 'saving',
        'save.sameEmailOtherCase': 'saving',
        'save.newEmailWithPassword': 'savingNewEmail',
      },
    },
    /** The first broken rule's message; another invalid save shows its own. */
    invalid: { on: { 'save.valid': 'saving', 'save.shortUsername': 'invalid', 'edit.cancelled': 'viewing' } },
    saving: {
      on: {
        'server.saved': 'reloading',
        'server.refused': 'refused',
        'server.wrongPassword': 'refused',
      },
    },
    /** As saving, with a new address (and the current password). */
    savingNewEmail: {
      on: {
        'server.savedNewEmail': 'reloadingNewEmail',
        'server.refused': 'refused',
        'server.wrongPassword': 'refused',
      },
    },
    /** Saved, the profile reloading: still 'Saving...', no notice beside the old values. */
    reloading: { on: { 'server.reloaded': 'saved' } },
    reloadingNewEmail: { on: { 'server.reloaded': 'emailChangeSent' } },
    /**
     * 'We sent a confirmation link to <new>. Your email changes when you open it (within 24 hours).' for
     * 3 seconds; the old address stays, the new one shows as waiting.
     */
    emailChangeSent: { on: { 'time.passed3s': 'viewing', 'edit.started': 'editing' } },
    /** Still in the form, with the server's message. */
    refused: { on: { 'save.valid': 'saving', 'save.blankUsername': 'invalid', 'edit.cancelled': 'viewing' } },
    saved: { on: { 'time.passed3s': 'viewing', 'edit.started': 'editing' } },
  },
});

/**
 * SPEC §2 Goals, §4 Profile sections, §5 Goals save, §9: as Information, with the one rule: a goal
 * weight above 0 must be 30-300 kg ('Goal weight must be between 30-300 kg'); 0 means no goal.
 */
export const profileGoalsModel = setup({
  types: {
    events: {} as
      | { type: 'profile.opened' }
      | { type: 'edit.started' }
      | { type: 'edit.cancelled' }
      | { type: 'save.valid' }
      | { type: 'save.noGoal' }
      | { type: 'save.lightGoal' }
      | { type: 'server.saved' }
      | { type: 'server.refused' }
      | { type: 'server.reloaded' }
      | { type: 'time.passed3s' },
  },
}).createMachine({
  id: 'profileGoalsModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'profile.opened': 'viewing' } },
    viewing: { on: { 'edit.started': 'editing' } },
    editing: { on: { 'edit.cancelled': 'viewing', 'save.valid': 'saving', 'save.noGoal': 'saving', 'save.lightGoal': 'invalid' } },
    invalid: { on: { 'save.valid': 'saving', 'edit.cancelled': 'viewing' } },
    saving: { on: { 'server.saved': 'reloading', 'server.refused': 'refused' } },
    reloading: { on: { 'server.reloaded': 'saved' } },
    refused: { on: { 'save.noGoal': 'saving', 'save.lightGoal': 'invalid', 'edit.cancelled': 'viewing' } },
    saved: { on: { 'time.passed3s': 'viewing', 'edit.started': 'editing' } },
  },
});
