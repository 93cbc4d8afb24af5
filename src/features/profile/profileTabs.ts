// Keyed by id, so the ids make the type; the key order is the tabs' order.
const tabLabels = {
  information: 'Information',
  diet: 'Diet',
  interests: 'Interests',
  goals: 'Goals',
  faqs: 'FAQs',
  support: 'Support',
  subscriptions: 'Subscriptions',
  security: 'Security',
} as const;

export type ProfileTabId = keyof typeof tabLabels;

export const profileTabs = (Object.keys(tabLabels) as ProfileTabId[]).map((id) => ({ id, label: tabLabels[id] }));

/** Tabs kept in the phone's bottom bar; the slide-in menu lists them all. */
export const bottomBarTabs: readonly ProfileTabId[] = ['information', 'diet', 'goals', 'subscriptions'];

export function isProfileTab(value: unknown): value is ProfileTabId {
  return profileTabs.some((tab) => tab.id === value);
}
