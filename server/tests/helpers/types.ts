export interface ApiError {
  data: null;
  error: { status: number; name: string; message: string; details?: unknown };
}

export interface AuthResponse {
  jwt: string;
  user: { id: number; documentId: string; username: string; email: string; createdAt: string; [key: string]: unknown };
}

export interface Ingredient {
  id: number;
  documentId: string;
  ingredient_name: string;
  slug: string;
}

export interface ListResponse<T> {
  data: T[];
  meta: { pagination?: { total: number } };
}

/** The fields a member's own user answer carries (SPEC §3 and later issues); nothing private. */
export const MEMBER_FIELDS = [
  'id',
  'documentId',
  'username',
  'email',
  'provider',
  'confirmed',
  'blocked',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'diet_preference',
  'stripeCustomerId',
  'ingredients',
  'goal_weight',
  'goal_reminder',
  'personal_goal_note',
  'bmi',
  'profile_picture',
  // Issue 12: the member's units and goal reminder settings.
  'unit_system',
  'reminders_enabled',
  // Issue 23: an e-mail change waiting for its confirmation link (the tokens stay private).
  'pending_email',
  'pending_email_expires_at',
] as const;
