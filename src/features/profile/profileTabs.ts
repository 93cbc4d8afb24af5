export const profileTabs = [
  { id: 'information', label: 'Information' },
  { id: 'diet', label: 'Diet' },
  { id: 'interests', label: 'Interests' },
  { id: 'goals', label: 'Goals' },
  { id: 'faqs', label: 'FAQs' },
  { id: 'support', label: 'Support' },
  { id: 'subscriptions', label: 'Subscriptions' },
  { id: 'security', label: 'Security' },
] as const;

export type ProfileTabId = (typeof profileTabs)[number]['id'];

/** Tabs kept in the phone's bottom bar; the slide-in menu lists them all. */
export const bottomBarTabs: readonly ProfileTabId[] = ['information', 'diet', 'goals', 'subscriptions'];

export function isProfileTab(value: unknown): value is ProfileTabId {
  return profileTabs.some((tab) => tab.id === value);
}
