import { errors } from '@strapi/utils';
import { SandboxGateway, isGatewayError, type CardInput } from '../../../payments';
import { ConflictError } from '../../../payments/http';
import { profileTabUrl } from '../../../public-url';
import type { AccountExport, CardOnFileResponse, InvoicesResponse } from '../../../contract/billing';
import { toIso, type SubscriptionRecords } from './records';

/** The member's billing account at the gateway: invoices, the card on file, the portal, the data export. */

export const INVOICE_MESSAGES = {
  invalidPage: 'page must be a whole number from 1 to 1000.',
  noBillingAccount: 'You have no billing account yet. Subscribe to a plan first.',
  portalInSandbox: 'Billing management is not available in sandbox mode. Update your card in the app instead.',
} as const;

/** Invoices per page of GET /api/subscriptions/invoices. */
export const INVOICES_PAGE_SIZE = 10;
const MAX_INVOICE_PAGE = 1000;

/** ?page=N (1-based, default 1); anything else is refused. */
function parsePage(raw: unknown): number {
  if (raw === undefined) return 1;
  const page = typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(page >= 1 && page <= MAX_INVOICE_PAGE)) throw new errors.ValidationError(INVOICE_MESSAGES.invalidPage);
  return page;
}

export interface SubscriptionInvoices {
  /** GET /api/subscriptions/invoices?page=N: the member's own invoices (their customer's), newest first. */
  invoices(userId: number, rawPage: unknown): Promise<InvoicesResponse>;
  /**
   * GET /api/subscriptions/card: the card on file of the member's own customer (none before a
   * purchase, or once the customer is gone), seen as the current subscription is charged.
   */
  card(userId: number): Promise<CardOnFileResponse>;
  /** POST /api/subscriptions/portal (Stripe only): a Customer Portal session for the member's customer. */
  portal(userId: number): Promise<{ url: string }>;
  /** POST /api/payments/sandbox/card: replaces the sandbox card on file of the member's customer. */
  updateSandboxCard(userId: number, card: CardInput): Promise<{ ok: true; last4: string }>;
  /** The member's subscriptions (ended ones too) and every invoice, for the data export. */
  exportFor(userId: number): Promise<Pick<AccountExport, 'subscriptions' | 'invoices'>>;
}

export function subscriptionInvoices(records: SubscriptionRecords): SubscriptionInvoices {
  const { gateway, customerOf } = records;

  return {
    async invoices(userId, rawPage) {
      const page = parsePage(rawPage);
      const pagination = { page, pageSize: INVOICES_PAGE_SIZE };
      const customerId = await customerOf(userId);
      if (!customerId) return { data: [], pagination: { ...pagination, hasMore: false } };
      const { invoices, hasMore } = await gateway().listInvoices(customerId, (page - 1) * INVOICES_PAGE_SIZE, INVOICES_PAGE_SIZE);
      // Stripe keeps a refund on the payment, not the invoice: the refunds the app made mark theirs.
      const refunded = await records.refundedInvoiceIds(userId);
      const data = invoices.map((invoice) => ({ ...invoice, refunded: invoice.refunded || refunded.has(invoice.id) }));
      return { data, pagination: { ...pagination, hasMore } };
    },

    async card(userId) {
      const customerId = await customerOf(userId);
      if (!customerId) return { card: null };
      const charged = (await records.openRecords(userId)).find((record) => record.status !== 'incomplete');
      try {
        return { card: await gateway().cardOnFile(customerId, charged?.stripe_subscription_id ?? null) };
      } catch (error) {
        if (isGatewayError(error) && error.kind === 'not_found') return { card: null };
        throw error;
      }
    },

    async portal(userId) {
      if (gateway().mode !== 'stripe') throw new ConflictError(INVOICE_MESSAGES.portalInSandbox);
      const customerId = await customerOf(userId);
      if (!customerId) throw new ConflictError(INVOICE_MESSAGES.noBillingAccount);
      return gateway().createPortalSession(customerId, profileTabUrl('subscriptions'));
    },

    async updateSandboxCard(userId, card) {
      const sandbox = gateway();
      if (!(sandbox instanceof SandboxGateway)) throw new errors.NotFoundError('Not Found');
      // Under the member's lock, so that it cannot interleave with the deletion of the customer.
      return records.withMemberLock(userId, async () => {
        const customerId = await customerOf(userId);
        if (!customerId) throw new ConflictError(INVOICE_MESSAGES.noBillingAccount);
        try {
          return { ok: true as const, last4: (await sandbox.updateCard(customerId, card)).last4 };
        } catch (error) {
          if (isGatewayError(error) && error.kind === 'not_found') throw new ConflictError(INVOICE_MESSAGES.noBillingAccount);
          throw error;
        }
      });
    },

    async exportFor(userId) {
      const owned = await records.allOf(userId, 'newest-first');
      const refunded = await records.refundedInvoiceIds(userId);
      const invoices = (await records.allInvoices(userId)).map((invoice) => ({
        ...invoice,
        refunded: invoice.refunded || refunded.has(invoice.id),
      }));
      return {
        subscriptions: owned.map((record) => ({
          id: record.stripe_subscription_id,
          status: record.status,
          plan: record.plan?.name ?? null,
          startDate: toIso(record.startDate),
          currentPeriodEnd: toIso(record.currentPeriodEnd),
          cancel_at_period_end: Boolean(record.cancel_at_period_end),
        })),
        invoices,
      };
    },
  };
}
