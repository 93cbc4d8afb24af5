import type { Core } from '@strapi/strapi';
import { UID } from '../../../content-types';
import { subscriptionRecords } from '../parts/records';
import { subscriptionPurchase, type SubscriptionPurchase } from '../parts/purchase';
import { subscriptionLifecycle, type SubscriptionLifecycle } from '../parts/lifecycle';
import { subscriptionInvoices, type SubscriptionInvoices } from '../parts/invoices';
import { gatewayEvents, type GatewayEvents } from '../parts/gateway-events';
import { subscriptionRefund, type SubscriptionRefund } from '../parts/refund';
import { renewalReminders, type RenewalReminders } from '../parts/renewal-reminders';

/**
 * api::subscription.subscription, made of the parts in ../parts:
 * - records.ts: the records and the gateway's view of them, the member's lock;
 * - purchase.ts: the current subscription, a purchase, its verification;
 * - lifecycle.ts: cancel, resume, the clean-up of a deleted account;
 * - invoices.ts: invoices, the portal, the sandbox card, the data export;
 * - gateway-events.ts: Stripe's webhook events and the sandbox's payments;
 * - refund.ts: the 30-day money-back guarantee's refund;
 * - renewal-reminders.ts: the e-mail before a yearly plan renews.
 * Callers reach it typed through subscriptionService(strapi).
 */
export type SubscriptionService = SubscriptionPurchase &
  SubscriptionLifecycle &
  SubscriptionInvoices &
  GatewayEvents &
  SubscriptionRefund &
  RenewalReminders;

export default ({ strapi }: { strapi: Core.Strapi }): SubscriptionService => {
  const records = subscriptionRecords(strapi);
  return {
    ...subscriptionPurchase(strapi, records),
    ...subscriptionLifecycle(records),
    ...subscriptionInvoices(records),
    ...gatewayEvents(strapi, records),
    ...subscriptionRefund(strapi, records),
    ...renewalReminders(strapi, records),
  };
};

/** The registered service with its type (Strapi types every service as an untyped record). */
export const subscriptionService = (strapi: Core.Strapi): SubscriptionService =>
  strapi.service(UID.subscription) as unknown as SubscriptionService;
