/** The hourly check: each run sends what is due in the current period (UTC) and not sent yet. */
export const DEFAULT_GOAL_REMINDER_CRON = '0 * * * *';

type Task = {
  task: (context: { strapi: { service(uid: string): unknown; log: { error(message: string): void } } }) => Promise<void>;
  options: { rule: string };
};

/**
 * server.cron.tasks for the goal reminders. GOAL_REMINDER_CRON is a cron expression (5 fields, or
 * 6 with seconds first); `off` disables the job. Under NODE_ENV=test the job runs only when the
 * variable is set, so that a test crossing the hour does not get e-mails it did not ask for.
 */
export function goalReminderTasks(env: NodeJS.ProcessEnv = process.env): Record<string, Task> {
  const configured = env.GOAL_REMINDER_CRON?.trim();
  if (configured === 'off' || (!configured && env.NODE_ENV === 'test')) return {};
  return {
    goalReminders: {
      async task({ strapi }) {
        try {
          await (strapi.service('api::reminder.goal-reminders') as { run(): Promise<unknown> }).run();
        } catch (error) {
          strapi.log.error(`[reminders] the goal reminder run failed: ${error instanceof Error ? error.stack : String(error)}`);
        }
      },
      options: { rule: configured || DEFAULT_GOAL_REMINDER_CRON },
    },
  };
}

/** Days before a yearly renewal its reminder is sent (RENEWAL_REMINDER_DAYS). */
export const DEFAULT_RENEWAL_REMINDER_DAYS = 30;
/** RENEWAL_REMINDER_DAYS, checked where the job is set up (a wrong value stops the start, saying why). */
export function renewalReminderDays(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.RENEWAL_REMINDER_DAYS?.trim();
  if (!raw) return DEFAULT_RENEWAL_REMINDER_DAYS;
  const days = Number(raw);
  if (!Number.isInteger(days) || days < 1 || days > 364) {
    throw new Error(`RENEWAL_REMINDER_DAYS must be a whole number of days from 1 to 364, not "${raw}".`);
  }
  return days;
}

/**
 * server.cron.tasks for the reminders before a yearly renewal (issue 30 item 5): RENEWAL_REMINDER_CRON
 * as GOAL_REMINDER_CRON (hourly by default, `off`, and not under NODE_ENV=test unless set);
 * RENEWAL_REMINDER_DAYS before the renewal (default 30), checked here so that a wrong value stops the start.
 */
export function renewalReminderTasks(env: NodeJS.ProcessEnv = process.env): Record<string, Task> {
  const configured = env.RENEWAL_REMINDER_CRON?.trim();
  if (configured === 'off' || (!configured && env.NODE_ENV === 'test')) return {};
  const days = renewalReminderDays(env);
  return {
    renewalReminders: {
      async task({ strapi }) {
        try {
          await (
            strapi.service('api::subscription.subscription') as { remindRenewals(options: { days: number }): Promise<unknown> }
          ).remindRenewals({
            days,
          });
        } catch (error) {
          strapi.log.error(`[reminders] the renewal reminder run failed: ${error instanceof Error ? error.stack : String(error)}`);
        }
      },
      options: { rule: configured || DEFAULT_GOAL_REMINDER_CRON },
    },
  };
}
