import { setup } from 'xstate';

/**
 * Issue 12, the units switch in Information: Metric or Imperial, saved as soon as it is chosen (the
 * choice disabled meanwhile), then 'Profile updated successfully!' for 3 seconds and every weight and
 * height shown in the chosen unit; a refusal shows the server's message and the saved unit again.
 */
export const unitsSwitchModel = setup({
  types: {
    events: {} as
      | { type: 'profile.opened' }
      | { type: 'imperial.chosen' }
      | { type: 'metric.chosen' }
      | { type: 'server.saved' }
      | { type: 'server.refused' }
      | { type: 'time.passed3s' },
  },
}).createMachine({
  id: 'unitsSwitchModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'profile.opened': 'metric' } },
    metric: { on: { 'imperial.chosen': 'savingImperial' } },
    savingImperial: { on: { 'server.saved': 'imperialSaved', 'server.refused': 'refusedMetric' } },
    imperialSaved: { on: { 'time.passed3s': 'imperial', 'metric.chosen': 'savingMetric' } },
    imperial: { on: { 'metric.chosen': 'savingMetric' } },
    savingMetric: { on: { 'server.saved': 'metricSaved' } },
    metricSaved: { on: { 'time.passed3s': 'metric' } },
    /** The server's message; Metric still chosen. */
    refusedMetric: { on: { 'imperial.chosen': 'savingImperial' } },
  },
});

/**
 * Issue 12, "Reminders on/off" in Goals: on by default, saved as soon as it is switched, then
 * 'Profile updated successfully!' for 3 seconds; a refusal shows the server's message and the saved state.
 */
export const remindersToggleModel = setup({
  types: {
    events: {} as
      | { type: 'goals.opened' }
      | { type: 'reminders.switchedOff' }
      | { type: 'reminders.switchedOn' }
      | { type: 'server.saved' }
      | { type: 'server.refused' }
      | { type: 'time.passed3s' },
  },
}).createMachine({
  id: 'remindersToggleModel',
  initial: 'notOpened',
  states: {
    notOpened: { on: { 'goals.opened': 'on' } },
    on: { on: { 'reminders.switchedOff': 'savingOff' } },
    savingOff: { on: { 'server.saved': 'offSaved', 'server.refused': 'refusedOn' } },
    offSaved: { on: { 'time.passed3s': 'off', 'reminders.switchedOn': 'savingOn' } },
    off: { on: { 'reminders.switchedOn': 'savingOn' } },
    savingOn: { on: { 'server.saved': 'onSaved' } },
    onSaved: { on: { 'time.passed3s': 'on' } },
    refusedOn: { on: { 'reminders.switchedOff': 'savingOff' } },
  },
});
