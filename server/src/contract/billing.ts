import type { UnitSystem, WeightEntry } from './progress';
import type { SandboxCard } from './sandboxCard';

/** Stripe's invoice statuses. */
export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'uncollectible', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** SPEC §9: amounts are cents, shown as dollars with 2 decimals ("$9.99"). */
export function formatAmount(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** One invoice of the member, as the payment provider keeps it; amounts in cents. */
export type Invoice = {
  /** The provider's invoice id. */
  id: string;
  /** When it was issued (ISO 8601). */
  date: string;
  /** What was paid, or is due when not paid. */
  amount: number;
  currency: string;
  status: InvoiceStatus;
  /** The period it pays for (ISO 8601), when the provider gives one. */
  periodStart: string | null;
  periodEnd: string | null;
  /** A receipt page the member can open (Stripe's hosted invoice page, or the sandbox's own). */
  receiptUrl: string | null;
  /** A PDF of the invoice, when the provider makes one (Stripe does, the sandbox does not). */
  pdfUrl: string | null;
  /** Refunded in full by the money-back guarantee (billing history shows "Refunded"). */
  refunded: boolean;
  /** When it was paid (ISO 8601), when the provider says; the money-back guarantee counts from it. */
  paidAt: string | null;
  /** The provider's id of the subscription it bills, when it bills one. */
  subscriptionId: string | null;
};

/** GET /api/subscriptions/invoices?page=N (1-based): the member's own invoices, newest first. */
export type InvoicesResponse = {
  data: Invoice[];
  /** `hasMore`: another page follows. */
  pagination: { page: number; pageSize: number; hasMore: boolean };
};

/** POST /api/subscriptions/portal (Stripe mode): a Customer Portal session returning to /profile?tab=subscriptions. */
export type BillingPortalResponse = { url: string };

/** POST /api/payments/sandbox/card (sandbox mode): replaces the sandbox card on file. */
export type SandboxCardUpdatePayload = SandboxCard;
export type SandboxCardUpdateResponse = { ok: true; last4: string };

/** Card networks as Stripe names them (PaymentMethod card.brand); anything else is 'unknown'. */
export const CARD_BRANDS = [
  'amex',
  'cartes_bancaires',
  'diners',
  'discover',
  'eftpos_au',
  'interac',
  'jcb',
  'link',
  'mastercard',
  'unionpay',
  'visa',
  'unknown',
] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** The card the member's payments are taken from, as the payment provider keeps it. */
export type CardOnFile = {
  brand: CardBrand;
  last4: string;
  /** The month (1-12) and four-digit year it expires. */
  expMonth: number;
  expYear: number;
};

/** GET /api/subscriptions/card: the member's own card on file; null before a payment saved one. */
export type CardOnFileResponse = { card: CardOnFile | null };

/** POST /api/subscriptions/resume answers like GET /api/subscriptions/current (a CurrentSubscription). */

/** GET /api/account/export: the member's data as a JSON file (Content-Disposition: attachment). */
export type AccountExport = {
  exportedAt: string;
  account: {
    id: number;
    username: string;
    email: string;
    provider: string;
    confirmed: boolean;
    createdAt: string;
    updatedAt: string;
  };
  profile: {
    bmi: {
      height: number | null;
      currentWeight: number | null;
      Gender: 'Male' | 'Female' | null;
      date_of_birth: string | null;
      idealBmiWeight: string | null;
    } | null;
    diet_preference: string | null;
    interests: string[];
    goal_weight: number | null;
    goal_reminder: string | null;
    personal_goal_note: string | null;
    unit_system: UnitSystem;
    reminders_enabled: boolean;
    /** Absolute URL of the profile picture, if any. */
    pictureUrl: string | null;
  };
  subscriptions: {
    id: string;
    status: string;
    plan: string | null;
    startDate: string | null;
    currentPeriodEnd: string | null;
    cancel_at_period_end: boolean;
  }[];
  invoices: Invoice[];
  /** The weight history, oldest first (kg). */
  weightEntries: WeightEntry[];
  /** Goal reminder e-mails sent (kept 8 days): the period each was for, and when. */
  goalReminders: { period: string; sentAt: string }[];
};

/** SPEC-style messages of the self-service calls (fallbacks when the server sends none). */
export const billingMessages = {
  invoicesFailed: 'Failed to load billing history',
  portalFailed: 'Failed to open billing management',
  cardUpdateFailed: 'Failed to update card',
  cardUpdated: 'Your card has been updated.',
  cardOnFileFailed: 'Failed to load your card on file',
  resumeFailed: 'Failed to resume subscription',
  resumed: 'Your subscription will continue.',
  nothingToResume: 'There is no cancelled subscription to resume.',
  exportFailed: 'Failed to download your data',
  exportLimit: 'You can download your data 5 times an hour. Please try again later.',
} as const;
