import type { Core } from '@strapi/strapi';
import type { WebhookEvent } from '../../../payments';
import { UID } from '../../../content-types';
import { toMs, type SubscriptionRecords } from './records';

/** What the gateway tells: Stripe's webhook events, and the sandbox's card payments. */

export interface GatewayEvents {
  /**
   * Applies a verified webhook event once. Its id is claimed first (unique index), so a replay
   * or a concurrent duplicate does nothing; if applying fails the claim is released so the
   * provider's retry is applied. Events older than the last one applied to their subscription
   * change nothing.
   */
  handleEvent(event: WebhookEvent): Promise<{ duplicate: boolean; outcome: string }>;
  /** After a sandbox card payment: what a Stripe webhook would do. */
  syncFromGateway(subscriptionId: string): Promise<void>;
  /**
   * Runs `work` under the lock of the member who owns the subscription (alone when nobody does).
   * The sandbox's card confirmation uses it, so that a payment cannot interleave with a purchase
   * ending the same attempt: as on Stripe, one of the two happens first and the other sees it.
   */
  whileLocked<T>(subscriptionId: string | null, work: () => Promise<T>): Promise<T>;
}

export function gatewayEvents(strapi: Core.Strapi, records: SubscriptionRecords): GatewayEvents {
  const { gateway } = records;

  return {
    async handleEvent(event) {
      const events = strapi.db.query(UID.paymentEvent);
      if (await events.findOne({ where: { event_id: event.id } })) return { duplicate: true, outcome: 'duplicate' };
      let claim: { id: number };
      try {
        claim = await events.create({
          data: { event_id: event.id, type: event.type, event_created: new Date(event.created * 1000), outcome: 'processing' },
        });
      } catch (error) {
        if (await events.findOne({ where: { event_id: event.id } })) return { duplicate: true, outcome: 'duplicate' };
        throw error;
      }

      try {
        let outcome = 'ignored';
        const handled =
          event.type.startsWith('customer.subscription.') || event.type === 'invoice.paid' || event.type === 'invoice.payment_failed';
        if (handled && event.subscriptionId) {
          const record = await records.findBySubscriptionId(event.subscriptionId);
          if (!record) {
            outcome = 'unknown-subscription';
          } else if (event.subscription) {
            // Stripe stamps events in whole seconds: two of one second (cancel then resume in the
            // portal) may arrive in either order, so on a tie Stripe's current state decides.
            const tie = toMs(record.last_event_at) === event.created * 1000;
            const sub = tie ? await gateway().retrieveSubscription(event.subscriptionId) : event.subscription;
            outcome = await records.apply(record, sub, event.created * 1000);
          } else {
            // Invoice events: the subscription's state after the payment (or failure), from the gateway.
            const sub = await gateway().retrieveSubscription(event.subscriptionId);
            outcome = await records.apply(record, sub, event.created * 1000);
          }
        }
        await events.update({ where: { id: claim.id }, data: { outcome } });
        return { duplicate: false, outcome };
      } catch (error) {
        await events.delete({ where: { id: claim.id } });
        throw error;
      }
    },

    async syncFromGateway(subscriptionId) {
      const record = await records.findBySubscriptionId(subscriptionId);
      if (record) await records.refresh(record);
    },

    async whileLocked(subscriptionId, work) {
      const owner = subscriptionId ? await records.ownerOf(subscriptionId) : null;
      return owner !== null ? records.withMemberLock(owner, work) : work();
    },
  };
}
