/** SPEC §3 entities as GET /api/users/me?populate=* sends them, and the PUT /api/users/{id} payloads. */

export type Media = {
  id: number;
  name: string;
  alternativeText: string | null;
  caption: string | null;
  width: number | null;
  height: number | null;
  formats: Record<string, unknown> | null;
  hash: string;
  ext: string;
  mime: string;
  size: number;
  url: string;
  previewUrl: string | null;
  provider: string;
  provider_metadata: unknown;
};

export type Gender = 'Male' | 'Female';
export type DietPreference = 'Carnivore' | 'Ketovore';
export type GoalReminder = 'daily' | 'weekly';

export type BmiRecord = {
  id: number;
  currentWeight: number | null;
  idealBmiWeight: string | null;
  height: number | null;
  Gender: Gender | null;
  date_of_birth: string | null;
};

export type Ingredient = { id: number; documentId: string; ingredient_name: string; slug: string };

export type User = {
  id: number;
  documentId: string;
  username: string;
  email: string;
  provider: string;
  confirmed: boolean;
  blocked: boolean;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  diet_preference: DietPreference | null;
  stripeCustomerId: string | null;
  ingredients: Ingredient[];
  goal_weight: number | null;
  goal_reminder: GoalReminder | null;
  personal_goal_note: string | null;
  /** Issue 12: how weights and heights are shown (stored in kg and cm either way); default metric. */
  unit_system?: 'metric' | 'imperial' | null;
  /** Issue 12: goal reminder e-mails on (default) or off. */
  reminders_enabled?: boolean | null;
  bmi: BmiRecord | null;
  profile_picture: Media | null;
  /** Issue 23: a new e-mail address waiting for the link mailed to it, and until when the link works. */
  pending_email?: string | null;
  pending_email_expires_at?: string | null;
};

/** The bmi component as the Information section sends it. */
export type BmiUpdate = { currentWeight: number; height: number; Gender: Gender; date_of_birth: string | null; idealBmiWeight: string };
/**
 * The bmi component without height and weight (nor the ideal weight they give): what the Information
 * section sends while the member has neither, so the other fields save on their own (issue 21).
 */
export type BmiDetailsUpdate = Pick<BmiUpdate, 'Gender' | 'date_of_birth'>;

/** SPEC §7 PUT /api/users/{userId} payloads, one per profile section. */
export type ProfileUpdate =
  | {
      section: 'information';
      values: {
        username: string;
        email: string;
        bmi: BmiUpdate | BmiDetailsUpdate;
        /** Sent only with a changed e-mail: the server asks for it then. */
        currentPassword?: string;
      };
    }
  | { section: 'diet'; values: { diet_preference: DietPreference } }
  | { section: 'interests'; values: { ingredients: number[] } }
  | { section: 'goals'; values: { goal_weight: number; goal_reminder: GoalReminder; personal_goal_note: string } };

/** The members' content type, as POST /api/upload names it. */
export const USER_CONTENT_TYPE = 'plugin::users-permissions.user';

/** The POST /api/upload form fields that make a file the member's profile picture. */
export const PROFILE_PICTURE_UPLOAD = { ref: USER_CONTENT_TYPE, field: 'profile_picture' } as const;
