export const profileTabs = [
  { id: 'information', label: 'Information', icon: '👤' },
  { id: 'diet', label: 'Diet', icon: '🥩' },
  { id: 'interests', label: 'Interests', icon: '🧈' },
  { id: 'goals', label: 'Goals', icon: '🎯' },
  { id: 'faqs', label: 'FAQs', icon: '❓' },
  { id: 'support', label: 'Support', icon: '💬' },
  { id: 'subscriptions', label: 'Subscriptions', icon: '⭐' },
] as const;

export type ProfileTabId = (typeof profileTabs)[number]['id'];

/** Tabs kept in the phone's bottom bar; the slide-in menu lists them all. */
export const bottomBarTabs: readonly ProfileTabId[] = ['information', 'diet', 'goals', 'subscriptions'];

export function isProfileTab(value: unknown): value is ProfileTabId {
  return profileTabs.some((tab) => tab.id === value);
}
