import { escapeHtml } from '../escape-html';
import { formatWeight, type UnitSystem, type WeightEntry } from '../contract/progress';
import type { ReminderFrequency } from '../reminders/period';
import { SIGNATURE, defineMail } from './layout';

export interface GoalReminderMail {
  username: string;
  unit: UnitSystem;
  frequency: ReminderFrequency;
  /** kg; null when the member has not entered one. */
  currentWeight: number | null;
  goalWeight: number;
  /** Newest first. */
  latest: WeightEntry[];
  profileUrl: string;
  unsubscribeUrl: string;
}

/** The difference as the Goals tab labels it (SPEC §2): "x to lose", "x to gain", or the goal reached. */
function progressLine(currentWeight: number | null, goalWeight: number, unit: UnitSystem): string {
  if (currentWeight === null) return 'Add your current weight in your profile to see how far you are from your goal.';
  const difference = Math.round((currentWeight - goalWeight) * 10) / 10;
  if (difference === 0) return 'You have reached your goal weight. Well done!';
  return `${formatWeight(Math.abs(difference), unit)} ${difference > 0 ? 'to lose' : 'to gain'}`;
}

/** The goal reminder (api::reminder.goal-reminders): progress toward the goal, the latest entries, and a one-click unsubscribe link. */
export default defineMail<GoalReminderMail>({
  queue: 'reminder',
  render(input) {
    const { unit } = input;
    const goal = formatWeight(input.goalWeight, unit);
    const current = input.currentWeight === null ? 'not entered yet' : formatWeight(input.currentWeight, unit);
    const progress = progressLine(input.currentWeight, input.goalWeight, unit);
    const entries = input.latest.map((entry) => `${entry.date}: ${formatWeight(entry.weight, unit)}`);
    const period = input.frequency === 'daily' ? 'daily' : 'weekly';

    const subject = `Your Carnivo goal: ${goal}`;
    const text = [
      `Hello ${input.username},`,
      '',
      `Here is your ${period} progress toward your goal.`,
      '',
      `Current weight: ${current}`,
      `Goal weight: ${goal}`,
      `Progress: ${progress}`,
      '',
      ...(entries.length > 0 ? ['Your latest weights:', ...entries.map((line) => `- ${line}`), ''] : []),
      `Record a new weight or change your goal: ${input.profileUrl}`,
      '',
      `You receive this reminder because reminders are on in your profile. Stop them with one click: ${input.unsubscribeUrl}`,
      '',
      SIGNATURE,
    ].join('\n');

    const html = [
      `<p>Hello ${escapeHtml(input.username)},</p>`,
      `<p>Here is your ${period} progress toward your goal.</p>`,
      '<table>',
      `<tr><th align="left">Current weight</th><td>${escapeHtml(current)}</td></tr>`,
      `<tr><th align="left">Goal weight</th><td>${escapeHtml(goal)}</td></tr>`,
      `<tr><th align="left">Progress</th><td>${escapeHtml(progress)}</td></tr>`,
      '</table>',
      ...(entries.length > 0
        ? ['<p>Your latest weights:</p>', `<ul>${entries.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`]
        : []),
      `<p><a href="${escapeHtml(input.profileUrl)}">Record a new weight or change your goal</a></p>`,
      `<p>You receive this reminder because reminders are on in your profile. <a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe from goal reminders</a> (one click, no log-in).</p>`,
      `<p>${SIGNATURE}</p>`,
    ].join('\n');

    // RFC 2369 / 8058: mail clients offer their own unsubscribe button (a POST to the same link).
    const headers = { 'List-Unsubscribe': `<${input.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
    return { subject, text, html, headers };
  },
});
