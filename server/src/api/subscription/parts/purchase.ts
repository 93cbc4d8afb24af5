import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { UID } from '../../../content-types';
import {
  blocksPurchase,
  purchaseRefusals,
  type CreateSubscriptionResponse,
  type CurrentSubscription,
  type CurrentSubscriptionAnswer,
} from '../../../contract/subscriptions';
import { nowStamp, resumable, toCurrent, toMs, type PlanRecord, type SubscriptionRecords } from './records';

/** Buying a subscription: the member's current one, a new purchase, and checking it after payment. */

/** Statuses whose current period is paid. */
const PAID_UP: readonly string[] = ['active', 'trialing'];

export const PURCHASE_MESSAGES = {
  unknownPlan: 'This plan does not exist.',
  priceIdRequired: 'priceId is required.',
  notFound: 'Subscription not found.',
} as const;

export interface SubscriptionPurchase {
  /**
   * GET /api/subscriptions/current: the newest open subscription that got past payment, else the
   * newest one still waiting for its first payment (incomplete), else null. While the member holds a
   * plan, with the end of the money-back guarantee on their first payment (null once past).
   */
  current(userId: number): Promise<CurrentSubscriptionAnswer | null>;
  /**
   * POST /api/subscriptions { priceId }: a subscription waiting for its first payment; or, for the plan the
   * member holds set to cancel, that subscription resumed with nothing to pay (clientSecret null).
   */
  create(userId: number, priceId: unknown): Promise<CreateSubscriptionResponse>;
  /** GET /api/subscriptions/:id/verify: the gateway's real status, for the member's own subscription only. */
  verify(userId: number, subscriptionId: unknown): Promise<CurrentSubscription>;
}

export function subscriptionPurchase(strapi: Core.Strapi, records: SubscriptionRecords): SubscriptionPurchase {
  const { gateway } = records;

  return {
    async current(userId) {
      const live = await records.liveRecords(userId);
      const record = live.find((r) => r.status !== 'incomplete') ?? live[0];
      return record ? records.answer(userId, record) : null;
    },

    async create(userId, priceId) {
      const arrivedAt = Date.now();
      if (typeof priceId !== 'string' || priceId.trim() === '') {
        throw new errors.ValidationError(PURCHASE_MESSAGES.priceIdRequired);
      }
      const plan = (await strapi.documents(UID.subscriptionPlan).findFirst({ filters: { stripe_price_id: priceId } })) as PlanRecord | null;
      if (!plan) throw new errors.ApplicationError(PURCHASE_MESSAGES.unknownPlan);
      if (!plan.is_active) throw new errors.ApplicationError(purchaseRefusals.inactivePlan);

      return records.withMemberLock(userId, async () => {
        const live = await records.liveRecords(userId);
        // An attempt created after this request arrived was made by a concurrent request while this
        // one waited for the lock (the same click twice, or sent to two instances). If it can still
        // be paid it is the answer to this request too (same plan); for another plan this request
        // is refused. Either way that attempt stays the only payable one.
        for (const record of live) {
          if (record.status !== 'incomplete' || (toMs(record.createdAt) ?? 0) < arrivedAt) continue;
          const fresh = await records.refresh(record);
          if (fresh.status !== 'incomplete') continue;
          const clientSecret = await gateway().paymentSecret(fresh.stripe_subscription_id);
          if (!clientSecret) continue;
          if (fresh.plan?.stripe_price_id !== priceId) throw new errors.ApplicationError(purchaseRefusals.existingSubscription);
          return { clientSecret, subscriptionId: fresh.stripe_subscription_id };
        }

        // An abandoned attempt (still waiting for its first payment) does not block a new one: it
        // is ended first, unless the gateway says it was paid meanwhile. A subscription set to
        // cancel at period end does not block either (a new plan after a cancellation); resuming
        // it later ends this attempt if it is still unpaid, or is refused once it is paid.
        await records.endUnpaidAttempts(live);
        const open = await records.liveRecords(userId);
        if (open.some(blocksPurchase)) throw new errors.ApplicationError(purchaseRefusals.existingSubscription);

        // The plan held and set to cancel, bought again while its period is paid up: it resumes, and nothing is
        // charged (a new subscription would charge the same days twice). No payment is due: clientSecret null.
        // One whose renewal is unpaid (past_due, …) is not resumed here: buying is paying.
        const cancelling = open.find((r) => PAID_UP.includes(r.status) && resumable(r) && r.plan?.stripe_price_id === priceId);
        if (cancelling) {
          const resumed = await gateway().resume(cancelling.stripe_subscription_id);
          await records.apply(cancelling, resumed, nowStamp());
          // Still set to end at the gateway (a cancellation date set in Stripe's dashboard): bought anew, as before.
          if (!resumed.cancelAtPeriodEnd) return { clientSecret: null, subscriptionId: cancelling.stripe_subscription_id };
        }

        const member = await records.member(userId);
        if (!member) throw new errors.NotFoundError('Account not found');
        let customerId = member.stripeCustomerId ?? null;
        if (!customerId) {
          ({ customerId } = await gateway().createCustomer({
            userId: member.id,
            userDocumentId: member.documentId,
            email: member.email,
            username: member.username,
          }));
          await records.setCustomer(member.id, customerId);
        }

        // Numbered by the member's records: a retry after the gateway failed mid-call (nothing
        // recorded) repeats the number, so the gateway answers the subscription it already made.
        const attempt = (await records.allOf(userId)).length + 1;
        const created = await gateway().createSubscription(customerId!, priceId, attempt);
        const sub = created.subscription;
        await records.create({
          user: member.id,
          plan: plan.id,
          status: sub.status,
          startDate: sub.startDate ?? new Date(),
          currentPeriodEnd: sub.currentPeriodEnd,
          cancel_at_period_end: sub.cancelAtPeriodEnd,
          stripe_subscription_id: created.subscriptionId,
          stripe_customer_id: customerId,
          last_event_at: new Date(nowStamp()),
        });
        return { clientSecret: created.clientSecret, subscriptionId: created.subscriptionId };
      });
    },

    async verify(userId, subscriptionId) {
      const record =
        typeof subscriptionId === 'string' && subscriptionId ? await records.findBySubscriptionId(subscriptionId, userId) : null;
      if (!record) throw new errors.NotFoundError(PURCHASE_MESSAGES.notFound);
      return toCurrent(await records.refresh(record));
    },
  };
}
