import { site } from '../../config/site';
import { MONEY_BACK_DAYS } from '../../../server/src/contract/subscriptions';

const { figures } = site;

/** SPEC §9: the hero stats rotate every 3000 ms across these three. */
export const STAT_ROTATION_MS = 3000;

export const heroStats = [
  { value: figures.users, label: 'carnivore and ketovore eaters' },
  { value: `${figures.rating} ★`, label: 'average rating out of 5' },
  { value: figures.averageWeightLoss, label: 'average weight loss' },
] as const;

export type Feature = {
  id: string;
  title: string;
  description: string;
  /** A drawing of the app screen, in public/images/screens/. */
  screenshot: string;
  screenshotAlt: string;
};

export type FeatureCategory = { id: string; title: string; summary: string; features: Feature[] };

const screen = (id: string) => `/images/screens/${id}.svg`;

/** SPEC §2 Features: three categories, nine cards. */
export const featureCategories: FeatureCategory[] = [
  {
    id: 'personalization',
    title: 'Personalization',
    summary: 'A plan that starts from what you eat, what you avoid and what your body tells you.',
    features: [
      {
        id: 'recipes',
        title: 'Recipes and Meal Plans',
        description: `${figures.recipes} recipes built around meat, fish, eggs and fat, with meal plans matched to your diet, your goals and the foods you love.`,
        screenshot: screen('recipes'),
        screenshotAlt: 'App screen: a list of carnivore recipes with photos and cooking times',
      },
      {
        id: 'elimination',
        title: 'Food Sensitivity and Elimination Tracker',
        description: 'Take foods out, note how you feel day by day, and see which ones agree with you and which ones do not.',
        screenshot: screen('elimination'),
        screenshotAlt: 'App screen: an elimination diet checklist with days marked as fine or reactive',
      },
      {
        id: 'introduction',
        title: 'New Food Introduction',
        description: 'Bring foods back one at a time on a steady schedule, with reminders and a log of every reaction.',
        screenshot: screen('introduction'),
        screenshotAlt: 'App screen: a food reintroduction schedule with one new food per three days',
      },
    ],
  },
  {
    id: 'health',
    title: 'Health and Weight Tracking',
    summary: 'The numbers and notes that show whether your diet is working for you.',
    features: [
      {
        id: 'weight',
        title: 'Weight and Body Composition',
        description: 'Log weight and measurements, follow your BMI and ideal weight, and watch the trend line instead of the daily noise.',
        screenshot: screen('weight'),
        screenshotAlt: 'App screen: a weight chart trending down with the current BMI',
      },
      {
        id: 'hormonal',
        title: 'Hormonal and Digestive Tracking',
        description: 'Keep your menstrual cycle and digestion in one log and spot how they change with what you eat.',
        screenshot: screen('hormonal'),
        screenshotAlt: 'App screen: a cycle calendar next to a digestion log',
      },
      {
        id: 'mood',
        title: 'Mood and Clarity Tracking',
        description: 'Rate your mood, energy and mental clarity in two taps and see how they move with your meals.',
        screenshot: screen('mood'),
        screenshotAlt: 'App screen: daily mood and clarity ratings drawn as a bar chart',
      },
    ],
  },
  {
    id: 'planning',
    title: 'Meal Planning and Support',
    summary: 'Everything that keeps you on track from the shopping list to a hard day.',
    features: [
      {
        id: 'diet',
        title: 'Diet Tracker',
        description: 'Carnivore or ketovore: track what you eat against your protein, fat and carb targets without weighing every bite.',
        screenshot: screen('diet'),
        screenshotAlt: 'App screen: a daily diet tracker with protein, fat and carb rings',
      },
      {
        id: 'calendar',
        title: 'Meal Planner and Calendar',
        description: 'Plan the week on a diet calendar, move meals around and get a shopping list that follows your plan.',
        screenshot: screen('calendar'),
        screenshotAlt: 'App screen: a weekly meal calendar with planned breakfasts and dinners',
      },
      {
        id: 'support',
        title: '24/7 Expert Support',
        description: 'Ask our team of carnivore and ketovore coaches anything, any time of day, right from the app.',
        screenshot: screen('support'),
        screenshotAlt: 'App screen: a chat with a Carnivo diet coach',
      },
    ],
  },
];

export const SCREENSHOT_PLACEHOLDER = '/images/screens/placeholder.svg';

export const testimonials = [
  {
    quote:
      'I had tried every macro app out there. Carnivo is the first one that does not treat steak and butter as a problem to fix. Down 18 lbs since spring.',
    name: 'Marcus T.',
    detail: 'Carnivore for 14 months, Denver',
  },
  {
    quote:
      'The elimination tracker finally showed me that dairy was behind my bloating. Reintroducing foods one by one with reminders made it easy.',
    name: 'Elena R.',
    detail: 'Ketovore, Austin',
  },
  {
    quote:
      'Planning the week on the calendar and getting the shopping list from it saves me an hour every Sunday. The support team answers at midnight too.',
    name: 'Priya S.',
    detail: 'Carnivore with a busy family, Toronto',
  },
] as const;

/** SPEC §2: the three FAQ entries of the landing page. */
export const faqs = [
  {
    question: 'What is the best carnivore diet app?',
    answer: `${site.brand} is made for carnivore eaters from the ground up: ${figures.recipes} meat-based recipes, a carnivore meal planner with a diet calendar, weight and BMI tracking and 24/7 expert support. More than ${figures.users} people use it and rate it ${figures.rating} out of 5.`,
  },
  {
    question: 'Does it support both carnivore and ketovore diets?',
    answer: `Yes. Choose carnivore (animal foods only) or ketovore (mostly animal foods with a few low-carb plants) in your profile, and ${site.brand} adapts your recipes, meal plans and targets. You can switch at any time.`,
  },
  {
    question: 'How does the elimination diet feature work?',
    answer:
      'You pick the foods to remove, and the app logs how you feel each day. After the elimination period it schedules the foods back one at a time and records any reaction, so you learn which foods suit you.',
  },
] as const;

export const trustBadges = ['No credit card required', `${MONEY_BACK_DAYS}-day money-back guarantee`, 'Free download'] as const;
