import { errors } from '@strapi/utils';
import { GatewayError } from '../../../payments';
import { ConflictError } from '../../../payments/http';
import { billingMessages } from '../../../contract/billing';
import {
  blocksPurchase,
  purchaseRefusals,
  type CancelSubscriptionResponse,
  type CurrentSubscriptionAnswer,
} from '../../../contract/subscriptions';
import { CANCELABLE, isEnded, nowStamp, resumable, toIso, type SubscriptionRecords } from './records';

/** A subscription's life after the purchase: cancel at period end, resume, and its end with the account. */

export const LIFECYCLE_MESSAGES = {
  nothingToCancel: 'You have no active subscription to cancel.',
  nothingToResume: billingMessages.nothingToResume,
} as const;

export interface SubscriptionLifecycle {
  /** POST /api/subscriptions/cancel: cancel at period end; answers when access ends. */
  cancel(userId: number): Promise<CancelSubscriptionResponse>;
  /**
   * POST /api/subscriptions/resume: undoes "cancel at period end" of the member's subscription
   * while its period lasts. A purchase still waiting for payment (another tab, another plan) is
   * ended first, so that it can no longer be paid; if it was paid meanwhile, or another
   * subscription already renews, resuming is refused: it would bill the member twice.
   */
  resume(userId: number): Promise<CurrentSubscriptionAnswer>;
  /**
   * Account deletion clean-up: ends the member's open subscriptions now at the gateway, deletes
   * their payment customer (which holds their e-mail address) there, then removes their
   * subscription records. A gateway failure aborts before any record is removed (the account
   * stays intact, its records matching what the gateway did).
   */
  removeMemberSubscriptions(userId: number): Promise<{ canceled: number; removed: number; customersDeleted: number }>;
}

export function subscriptionLifecycle(records: SubscriptionRecords): SubscriptionLifecycle {
  const { gateway } = records;

  return {
    async cancel(userId) {
      return records.withMemberLock(userId, async () => {
        const cancelable = (await records.liveRecords(userId)).filter((r) => CANCELABLE.includes(r.status));
        const target = cancelable.find((r) => !r.cancel_at_period_end);
        if (!target) {
          // Already set to cancel: answer the same date again.
          if (cancelable[0]) return { cancelAt: toIso(cancelable[0].currentPeriodEnd) };
          throw new errors.ApplicationError(LIFECYCLE_MESSAGES.nothingToCancel);
        }
        const sub = await gateway().cancelAtPeriodEnd(target.stripe_subscription_id);
        await records.apply(target, sub, nowStamp());
        const updated = await records.reload(target.id);
        return { cancelAt: toIso(updated.currentPeriodEnd) ?? (sub.cancelAt ? sub.cancelAt.toISOString() : null) };
      });
    },

    async resume(userId) {
      return records.withMemberLock(userId, async () => {
        const live = await records.liveRecords(userId);
        const target = live.find((r) => resumable(r));
        if (!target) throw new ConflictError(LIFECYCLE_MESSAGES.nothingToResume);
        await records.endUnpaidAttempts(live);
        if ((await records.liveRecords(userId)).some(blocksPurchase)) throw new ConflictError(purchaseRefusals.existingSubscription);
        await records.apply(target, await gateway().resume(target.stripe_subscription_id), nowStamp());
        return records.answer(userId, await records.reload(target.id));
      });
    },

    async removeMemberSubscriptions(userId) {
      return records.withMemberLock(userId, async () => {
        const owned = await records.allOf(userId);
        let canceled = 0;
        for (const record of owned) {
          if (isEnded(record.status)) continue;
          try {
            await records.apply(record, await gateway().cancelNow(record.stripe_subscription_id), nowStamp());
            canceled += 1;
          } catch (error) {
            if (error instanceof GatewayError && error.kind === 'not_found') continue;
            // Stripe refuses to cancel a subscription that already ended; that is fine here.
            if (error instanceof GatewayError && error.kind === 'invalid_request') {
              const sub = await gateway().retrieveSubscription(record.stripe_subscription_id);
              if (isEnded(sub.status)) continue;
            }
            throw error;
          }
        }

        // The member's customer, and any other one their records name (e.g. from before a change of customer).
        const member = await records.member(userId);
        const customerIds = new Set(
          [member?.stripeCustomerId, ...owned.map((r) => r.stripe_customer_id)].filter(
            (id): id is string => typeof id === 'string' && id !== '',
          ),
        );
        for (const customerId of customerIds) await gateway().deleteCustomer(customerId);

        if (owned.length > 0) await records.remove(owned.map((r) => r.id));
        // Should a later step of the deletion fail, the account must not point at a deleted customer.
        if (member?.stripeCustomerId) await records.setCustomer(userId, null);
        return { canceled, removed: owned.length, customersDeleted: customerIds.size };
      });
    },
  };
}
