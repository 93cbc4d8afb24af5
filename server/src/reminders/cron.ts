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
