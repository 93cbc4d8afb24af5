/** SPEC §3 entities as the API sends them. */
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

export type BmiRecord = {
  id: number;
  currentWeight: number | null;
  idealBmiWeight: string | null;
  height: number | null;
  Gender: 'Male' | 'Female' | null;
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
  diet_preference: 'Carnivore' | 'Ketovore' | null;
  stripeCustomerId: string | null;
  ingredients: Ingredient[];
  goal_weight: number | null;
  goal_reminder: 'daily' | 'weekly' | null;
  personal_goal_note: string | null;
  bmi: BmiRecord | null;
  profile_picture: Media | null;
};

export type AuthResponse = { jwt: string; user: Pick<User, 'id' | 'createdAt'> & Partial<User> };

/** SPEC §7 PUT /api/users/{userId} payloads, one per profile section. */
export type ProfileUpdate =
  | {
      section: 'information';
      values: {
        username: string;
        email: string;
        bmi: { currentWeight: number; height: number; Gender: 'Male' | 'Female'; date_of_birth: string | null; idealBmiWeight: string };
        /** Sent only with a changed e-mail: the server asks for it then. */
        currentPassword?: string;
      };
    }
  | { section: 'diet'; values: { diet_preference: 'Carnivore' | 'Ketovore' } }
  | { section: 'interests'; values: { ingredients: number[] } }
  | { section: 'goals'; values: { goal_weight: number; goal_reminder: 'daily' | 'weekly'; personal_goal_note: string } };

export type ProfileSection = ProfileUpdate['section'];
