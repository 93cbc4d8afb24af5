import { escapeHtml } from '../escape-html';
import { formatWeight, type UnitSystem, type WeightEntry } from '../contract/progress';
import type { ReminderFrequency } from './period';
import { sitePage } from '../site-page';

export interface ReminderEmailInput {
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
export function progressLine(currentWeight: number | null, goalWeight: number, unit: UnitSystem): string {
  if (currentWeight === null) return 'Add your current weight in your profile to see how far you are from your goal.';
  const difference = Math.round((currentWeight - goalWeight) * 10) / 10;
  if (difference === 0) return 'You have reached your goal weight. Well done!';
  return `${formatWeight(Math.abs(difference), unit)} ${difference > 0 ? 'to lose' : 'to gain'}`;
}

/** The goal reminder e-mail: progress toward the goal, the latest entries, and a one-click unsubscribe link. */
export function renderReminderEmail(input: ReminderEmailInput): { subject: string; text: string; html: string } {
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
    'The Carnivo team',
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
    '<p>The Carnivo team</p>',
  ].join('\n');

  return { subject, text, html };
}

/** The page the unsubscribe link answers with, in the site's look; `profilePath` is relative to the site. */
export function unsubscribePage(title: string, message: string, profilePath: string, stylesheets: readonly string[]): string {
  return sitePage({
    title,
    content: [
      `<h1>${escapeHtml(title)}</h1>`,
      `<p>${escapeHtml(message)}</p>`,
      `<p class="auth-card__links"><a href="${escapeHtml(profilePath)}">Go to your profile</a><a href="/">Back to Carnivo</a></p>`,
    ].join('\n'),
    stylesheets,
  });
}
