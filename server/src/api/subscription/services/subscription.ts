import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import {
  ENDED_STATUSES,
  GatewayError,
  isGatewayError,
  SandboxCardError,
  SandboxGateway,
  type CardInput,
  type GatewaySubscription,
  type PaymentGateway,
  type WebhookEvent,
} from '../../../payments';
import { UID } from '../../../content-types';
import { withMemberLock as lockMember } from '../../../security/member-lock';
import { ConflictError } from '../../../payments/http';
import { publicUrl } from '../../../public-url';
import { billingMessages, type AccountExport, type Invoice, type InvoicesResponse } from '../../../contract/billing';
import type {
  CancelSubscriptionResponse,
  CreateSubscriptionResponse,
  CurrentSubscription,
  SubscriptionPlan,
  SubscriptionStatus,
} from '../../../contract/subscriptions';

/** Statuses of a subscription that can be set to cancel at period end. */
const CANCELABLE: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due', 'unpaid', 'paused'];
/** Stripe expires an unpaid first invoice (and its subscription) after 23 hours. */
const INCOMPLETE_LIFETIME_MS = 23 * 60 * 60 * 1000;

export const MESSAGES = {
  unknownPlan: 'This plan does not exist.',
  inactivePlan: 'This plan is no longer available.',
  alreadySubscribed: 'You already have an active subscription.',
  nothingToCancel: 'You have no active subscription to cancel.',
  notFound: 'Subscription not found.',
  priceIdRequired: 'priceId is required.',
  nothingToResume: billingMessages.nothingToResume,
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
  if (!(page >= 1 && page <= MAX_INVOICE_PAGE)) throw new errors.ValidationError(MESSAGES.invalidPage);
  return page;
}

/** A plan as stored: the fields the SPA reads (SPEC §3). */
export type PlanRecord = SubscriptionPlan;

export interface SubscriptionRecord {
  id: number;
  documentId: string;
  status: SubscriptionStatus;
  startDate: string | number | Date | null;
  currentPeriodEnd: string | number | Date | null;
  cancel_at_period_end: boolean | null;
  stripe_subscription_id: string;
  stripe_customer_id: string | null;
  last_event_at: string | number | Date | null;
  createdAt: string | number | Date;
  plan?: PlanRecord | null;
}

interface MemberRow {
  id: number;
  documentId: string;
  email: string;
  username: string;
  stripeCustomerId?: string | null;
}

const toMs = (value: string | number | Date | null | undefined): number | null => {
  if (value == null) return null;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
};
const toIso = (value: string | number | Date | null | undefined): string | null => {
  const ms = toMs(value);
  return ms == null ? null : new Date(ms).toISOString();
};
const isEnded = (status: SubscriptionStatus) => ENDED_STATUSES.includes(status);
/** A live record past its first payment that will bill again at its period's end. */
const renews = (record: SubscriptionRecord) => record.status !== 'incomplete' && !record.cancel_at_period_end;
/** Local actions are stamped at whole seconds, like Stripe's event.created. */
const nowStamp = () => Math.floor(Date.now() / 1000) * 1000;

export function toCurrent(record: SubscriptionRecord): CurrentSubscription {
  const plan = record.plan ?? null;
  return {
    id: record.stripe_subscription_id,
    status: record.status,
    plan: plan ? { id: plan.id, productName: plan.name, amount: plan.amount, interval: plan.duration } : null,
    startDate: toIso(record.startDate),
    currentPeriodEnd: toIso(record.currentPeriodEnd),
    cancel_at_period_end: Boolean(record.cancel_at_period_end),
  };
}

export type ApplyOutcome = 'applied' | 'stale' | 'ended' | 'backwards';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const gateway = (): PaymentGateway => strapi.service('api::payment.gateway').get();
  const subs = () => strapi.db.query(UID.subscription);

  /** Errors after which what was done stays (the gateway already acted on it), as opposed to a database failure. */
  const keepsWork = (error: unknown) =>
    isGatewayError(error) || error instanceof errors.ApplicationError || error instanceof SandboxCardError;

  /**
   * One purchase, payment, cancellation, resumption or deletion clean-up at a time per member,
   * across every server process on the database (double clicks, or one click retried onto another
   * instance, must not make two attempts payable). The gateway cannot be rolled back: after its
   * errors the records of what it already did (an ended attempt, a new customer's id) are kept.
   */
  const withMemberLock = <T>(userId: number, work: () => Promise<T>): Promise<T> =>
    lockMember(strapi, userId, work, { keepsWork });

  const reload = async (id: number): Promise<SubscriptionRecord> =>
    (await subs().findOne({ where: { id }, populate: ['plan'] })) as SubscriptionRecord;

  /** Open (not ended) subscriptions of a member, newest first. */
  const openRecords = async (userId: number): Promise<SubscriptionRecord[]> =>
    (await subs().findMany({
      where: { user: { id: userId }, status: { $notIn: [...ENDED_STATUSES] } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      populate: ['plan'],
    })) as SubscriptionRecord[];

  /**
   * Applies the gateway's view of a subscription to its record, unless that would move it
   * backwards: an older event than the last one applied, any change to an ended subscription
   * (canceled and incomplete_expired are final on Stripe), or a return to 'incomplete'.
   */
  async function apply(record: SubscriptionRecord, sub: GatewaySubscription, atMs: number): Promise<ApplyOutcome> {
    const last = toMs(record.last_event_at);
    if (last != null && atMs < last) return 'stale';
    if (isEnded(record.status) && sub.status !== record.status) return 'ended';
    if (record.status !== 'incomplete' && sub.status === 'incomplete') return 'backwards';

    const data: Record<string, unknown> = {
      status: sub.status,
      cancel_at_period_end: sub.cancelAtPeriodEnd,
      last_event_at: new Date(Math.max(atMs, last ?? 0)),
    };
    if (sub.startDate) data.startDate = sub.startDate;
    if (sub.currentPeriodEnd) data.currentPeriodEnd = sub.currentPeriodEnd;
    if (sub.priceId && sub.priceId !== record.plan?.stripe_price_id) {
      // A plan change (e.g. in Stripe's Customer Portal). A price that is none of our plans leaves
      // no plan rather than the old one, which the member no longer pays for.
      const plan = await strapi.documents(UID.subscriptionPlan).findFirst({ filters: { stripe_price_id: sub.priceId } });
      data.plan = plan ? plan.id : null;
      if (!plan) strapi.log.warn(`[subscriptions] ${record.stripe_subscription_id} moved to unknown price ${sub.priceId}`);
    }
    await subs().update({ where: { id: record.id }, data });
    return 'applied';
  }

  /** Asks the gateway for the subscription's real state and applies it (verify, stale records). */
  async function refresh(record: SubscriptionRecord): Promise<SubscriptionRecord> {
    const sub = await gateway().retrieveSubscription(record.stripe_subscription_id);
    await apply(record, sub, nowStamp());
    return reload(record.id);
  }

  /**
   * Brings a record up to date when time has passed it by: a period that ended (renewed, or
   * ended because it was set to cancel at period end) or an unpaid first invoice older than
   * 23 hours. Normally webhooks (Stripe) do this; this covers missed webhooks and the sandbox.
   */
  async function settle(record: SubscriptionRecord): Promise<SubscriptionRecord> {
    if (isEnded(record.status)) return record;
    const now = Date.now();
    const periodEnd = toMs(record.currentPeriodEnd);
    const periodOver = periodEnd != null && periodEnd <= now && CANCELABLE.includes(record.status);
    const incompleteExpired =
      record.status === 'incomplete' && now - (toMs(record.createdAt) ?? now) > INCOMPLETE_LIFETIME_MS;
    if (!periodOver && !incompleteExpired) return record;
    try {
      return await refresh(record);
    } catch (error) {
      strapi.log.warn(`[subscriptions] could not refresh ${record.stripe_subscription_id}: ${(error as Error).message}`);
      if (periodOver && record.cancel_at_period_end) {
        await subs().update({ where: { id: record.id }, data: { status: 'canceled' } });
        return reload(record.id);
      }
      return record;
    }
  }

  /** Open records after settling, newest first. */
  async function liveRecords(userId: number): Promise<SubscriptionRecord[]> {
    const settled: SubscriptionRecord[] = [];
    for (const record of await openRecords(userId)) {
      const current = await settle(record);
      if (!isEnded(current.status)) settled.push(current);
    }
    return settled;
  }

  /**
   * Ends the member's attempts still waiting for their first payment (incomplete), so that none of
   * them can be paid any more; one the gateway reports paid meanwhile is brought up to date instead.
   */
  async function endUnpaidAttempts(live: SubscriptionRecord[]): Promise<void> {
    for (const record of live) {
      if (record.status === 'incomplete') await apply(record, await gateway().endUnpaid(record.stripe_subscription_id), nowStamp());
    }
  }

  /** The member's payment customer at the gateway (null before their first purchase). */
  async function customerOf(userId: number): Promise<string | null> {
    const member = (await strapi.db.query(UID.user).findOne({ where: { id: userId }, select: ['stripeCustomerId'] })) as
      | Pick<MemberRow, 'stripeCustomerId'>
      | null;
    return member?.stripeCustomerId || null;
  }

  return {
    toCurrent,
    apply,

    /** GET /api/subscriptions/invoices?page=N: the member's own invoices (their customer's), newest first. */
    async invoices(userId: number, rawPage: unknown): Promise<InvoicesResponse> {
      const page = parsePage(rawPage);
      const pagination = { page, pageSize: INVOICES_PAGE_SIZE };
      const customerId = await customerOf(userId);
      if (!customerId) return { data: [], pagination: { ...pagination, hasMore: false } };
      const { invoices, hasMore } = await gateway().listInvoices(customerId, (page - 1) * INVOICES_PAGE_SIZE, INVOICES_PAGE_SIZE);
      return { data: invoices, pagination: { ...pagination, hasMore } };
    },

    /** POST /api/subscriptions/portal (Stripe only): a Customer Portal session for the member's customer. */
    async portal(userId: number): Promise<{ url: string }> {
      if (gateway().mode !== 'stripe') throw new ConflictError(MESSAGES.portalInSandbox);
      const customerId = await customerOf(userId);
      if (!customerId) throw new ConflictError(MESSAGES.noBillingAccount);
      return gateway().createPortalSession(customerId, `${publicUrl()}/profile?tab=subscriptions`);
    },

    /** POST /api/payments/sandbox/card: replaces the sandbox card on file of the member's customer. */
    async updateSandboxCard(userId: number, card: CardInput): Promise<{ ok: true; last4: string }> {
      const sandbox = gateway();
      if (!(sandbox instanceof SandboxGateway)) throw new errors.NotFoundError('Not Found');
      // Under the member's lock, so that it cannot interleave with the deletion of the customer.
      return withMemberLock(userId, async () => {
        const customerId = await customerOf(userId);
        if (!customerId) throw new ConflictError(MESSAGES.noBillingAccount);
        try {
          return { ok: true as const, last4: (await sandbox.updateCard(customerId, card)).last4 };
        } catch (error) {
          if (isGatewayError(error) && error.kind === 'not_found') throw new ConflictError(MESSAGES.noBillingAccount);
          throw error;
        }
      });
    },

    /**
     * POST /api/subscriptions/resume: undoes "cancel at period end" of the member's subscription
     * while its period lasts. A purchase still waiting for payment (another tab, another plan) is
     * ended first, so that it can no longer be paid; if it was paid meanwhile, or another
     * subscription already renews, resuming is refused: it would bill the member twice.
     */
    async resume(userId: number): Promise<CurrentSubscription> {
      return withMemberLock(userId, async () => {
        const live = await liveRecords(userId);
        const now = Date.now();
        const target = live.find(
          (r) => CANCELABLE.includes(r.status) && r.cancel_at_period_end && (toMs(r.currentPeriodEnd) ?? 0) > now
        );
        if (!target) throw new ConflictError(MESSAGES.nothingToResume);
        await endUnpaidAttempts(live);
        if ((await liveRecords(userId)).some(renews)) throw new ConflictError(MESSAGES.alreadySubscribed);
        await apply(target, await gateway().resume(target.stripe_subscription_id), nowStamp());
        return toCurrent(await reload(target.id));
      });
    },

    /** The member's subscriptions (ended ones too) and every invoice, for the data export. */
    async exportFor(userId: number): Promise<Pick<AccountExport, 'subscriptions' | 'invoices'>> {
      const records = (await subs().findMany({
        where: { user: { id: userId } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        populate: ['plan'],
      })) as SubscriptionRecord[];
      const invoices: Invoice[] = [];
      const customerId = await customerOf(userId);
      // 100 a call, at most 10,000 (a member has a few dozen).
      for (let offset = 0; customerId && offset < 10_000; offset += 100) {
        const page = await gateway().listInvoices(customerId, offset, 100);
        invoices.push(...page.invoices);
        if (!page.hasMore) break;
      }
      return {
        subscriptions: records.map((record) => ({
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

    /**
     * The member's current subscription: the newest open one that got past payment, else the
     * newest one still waiting for its first payment (incomplete), else null.
     */
    async current(userId: number): Promise<CurrentSubscription | null> {
      const records = await liveRecords(userId);
      const record = records.find((r) => r.status !== 'incomplete') ?? records[0];
      return record ? toCurrent(record) : null;
    },

    async create(userId: number, priceId: unknown): Promise<CreateSubscriptionResponse> {
      const arrivedAt = Date.now();
      if (typeof priceId !== 'string' || priceId.trim() === '') {
        throw new errors.ValidationError(MESSAGES.priceIdRequired);
      }
      const plan = (await strapi.documents(UID.subscriptionPlan).findFirst({ filters: { stripe_price_id: priceId } })) as PlanRecord | null;
      if (!plan) throw new errors.ApplicationError(MESSAGES.unknownPlan);
      if (!plan.is_active) throw new errors.ApplicationError(MESSAGES.inactivePlan);

      return withMemberLock(userId, async () => {
        const live = await liveRecords(userId);
        // An attempt created after this request arrived was made by a concurrent request while this
        // one waited for the lock (the same click twice, or sent to two instances). If it can still
        // be paid it is the answer to this request too (same plan); for another plan this request
        // is refused. Either way that attempt stays the only payable one.
        for (const record of live) {
          if (record.status !== 'incomplete' || (toMs(record.createdAt) ?? 0) < arrivedAt) continue;
          const fresh = await refresh(record);
          if (fresh.status !== 'incomplete') continue;
          const clientSecret = await gateway().paymentSecret(fresh.stripe_subscription_id);
          if (!clientSecret) continue;
          if (fresh.plan?.stripe_price_id !== priceId) throw new errors.ApplicationError(MESSAGES.alreadySubscribed);
          return { clientSecret, subscriptionId: fresh.stripe_subscription_id };
        }

        // An abandoned attempt (still waiting for its first payment) does not block a new one: it
        // is ended first, unless the gateway says it was paid meanwhile. A subscription set to
        // cancel at period end does not block either (a new plan after a cancellation); resuming
        // it later ends this attempt if it is still unpaid, or is refused once it is paid.
        await endUnpaidAttempts(live);
        if ((await liveRecords(userId)).some(renews)) throw new errors.ApplicationError(MESSAGES.alreadySubscribed);

        const member = (await strapi.db.query(UID.user).findOne({ where: { id: userId } })) as MemberRow | null;
        if (!member) throw new errors.NotFoundError('Account not found');
        let customerId = member.stripeCustomerId ?? null;
        if (!customerId) {
          ({ customerId } = await gateway().createCustomer({
            userId: member.id,
            userDocumentId: member.documentId,
            email: member.email,
            username: member.username,
          }));
          await strapi.db.query(UID.user).update({ where: { id: member.id }, data: { stripeCustomerId: customerId } });
        }

        const created = await gateway().createSubscription(customerId!, priceId);
        const sub = created.subscription;
        await subs().create({
          data: {
            user: member.id,
            plan: plan.id,
            status: sub.status,
            startDate: sub.startDate ?? new Date(),
            currentPeriodEnd: sub.currentPeriodEnd,
            cancel_at_period_end: sub.cancelAtPeriodEnd,
            stripe_subscription_id: created.subscriptionId,
            stripe_customer_id: customerId,
            last_event_at: new Date(nowStamp()),
          },
        });
        return { clientSecret: created.clientSecret, subscriptionId: created.subscriptionId };
      });
    },

    /** GET /api/subscriptions/:id/verify: the gateway's real status, for the member's own subscription only. */
    async verify(userId: number, subscriptionId: unknown): Promise<CurrentSubscription> {
      const record =
        typeof subscriptionId === 'string' && subscriptionId
          ? ((await subs().findOne({
              where: { stripe_subscription_id: subscriptionId, user: { id: userId } },
              populate: ['plan'],
            })) as SubscriptionRecord | null)
          : null;
      if (!record) throw new errors.NotFoundError(MESSAGES.notFound);
      return toCurrent(await refresh(record));
    },

    /** POST /api/subscriptions/cancel: cancel at period end; answers when access ends. */
    async cancel(userId: number): Promise<CancelSubscriptionResponse> {
      return withMemberLock(userId, async () => {
        const cancelable = (await liveRecords(userId)).filter((r) => CANCELABLE.includes(r.status));
        const target = cancelable.find((r) => !r.cancel_at_period_end);
        if (!target) {
          // Already set to cancel: answer the same date again.
          if (cancelable[0]) return { cancelAt: toIso(cancelable[0].currentPeriodEnd) };
          throw new errors.ApplicationError(MESSAGES.nothingToCancel);
        }
        const sub = await gateway().cancelAtPeriodEnd(target.stripe_subscription_id);
        await apply(target, sub, nowStamp());
        const updated = await reload(target.id);
        return { cancelAt: toIso(updated.currentPeriodEnd) ?? (sub.cancelAt ? sub.cancelAt.toISOString() : null) };
      });
    },

    /** After a sandbox card payment: what a Stripe webhook would do. */
    async syncFromGateway(subscriptionId: string): Promise<void> {
      const record = (await subs().findOne({
        where: { stripe_subscription_id: subscriptionId },
        populate: ['plan'],
      })) as SubscriptionRecord | null;
      if (record) await refresh(record);
    },

    /**
     * Applies a verified webhook event once. Its id is claimed first (unique index), so a replay
     * or a concurrent duplicate does nothing; if applying fails the claim is released so the
     * provider's retry is applied. Events older than the last one applied to their subscription
     * change nothing.
     */
    async handleEvent(event: WebhookEvent): Promise<{ duplicate: boolean; outcome: string }> {
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
          const record = (await subs().findOne({
            where: { stripe_subscription_id: event.subscriptionId },
            populate: ['plan'],
          })) as SubscriptionRecord | null;
          if (!record) {
            outcome = 'unknown-subscription';
          } else if (event.subscription) {
            // Stripe stamps events in whole seconds: two of one second (cancel then resume in the
            // portal) may arrive in either order, so on a tie Stripe's current state decides.
            const tie = toMs(record.last_event_at) === event.created * 1000;
            const sub = tie ? await gateway().retrieveSubscription(event.subscriptionId) : event.subscription;
            outcome = await apply(record, sub, event.created * 1000);
          } else {
            // Invoice events: the subscription's state after the payment (or failure), from the gateway.
            const sub = await gateway().retrieveSubscription(event.subscriptionId);
            outcome = await apply(record, sub, event.created * 1000);
          }
        }
        await events.update({ where: { id: claim.id }, data: { outcome } });
        return { duplicate: false, outcome };
      } catch (error) {
        await events.delete({ where: { id: claim.id } });
        throw error;
      }
    },

    /**
     * Runs `work` under the lock of the member who owns the subscription (alone when nobody does).
     * The sandbox's card confirmation uses it, so that a payment cannot interleave with a purchase
     * ending the same attempt: as on Stripe, one of the two happens first and the other sees it.
     */
    async whileLocked<T>(subscriptionId: string | null, work: () => Promise<T>): Promise<T> {
      const record = subscriptionId
        ? ((await subs().findOne({ where: { stripe_subscription_id: subscriptionId }, populate: ['user'] })) as
            | (SubscriptionRecord & { user?: { id: number } | null })
            | null)
        : null;
      return record?.user ? withMemberLock(record.user.id, work) : work();
    },

    /**
     * Account deletion clean-up: ends the member's open subscriptions now at the gateway, deletes
     * their payment customer (which holds their e-mail address) there, then removes their
     * subscription records. A gateway failure aborts before any record is removed (the account
     * stays intact, its records matching what the gateway did).
     */
    async removeMemberSubscriptions(
      userId: number
    ): Promise<{ canceled: number; removed: number; customersDeleted: number }> {
      return withMemberLock(userId, async () => {
        const records = (await subs().findMany({ where: { user: { id: userId } }, populate: ['plan'] })) as SubscriptionRecord[];
        let canceled = 0;
        for (const record of records) {
          if (isEnded(record.status)) continue;
          try {
            await apply(record, await gateway().cancelNow(record.stripe_subscription_id), nowStamp());
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
        const member = (await strapi.db.query(UID.user).findOne({ where: { id: userId } })) as MemberRow | null;
        const customerIds = new Set(
          [member?.stripeCustomerId, ...records.map((r) => r.stripe_customer_id)].filter(
            (id): id is string => typeof id === 'string' && id !== ''
          )
        );
        for (const customerId of customerIds) await gateway().deleteCustomer(customerId);

        if (records.length > 0) {
          await subs().deleteMany({ where: { id: { $in: records.map((r) => r.id) } } });
        }
        // Should a later step of the deletion fail, the account must not point at a deleted customer.
        if (member?.stripeCustomerId) {
          await strapi.db.query(UID.user).update({ where: { id: userId }, data: { stripeCustomerId: null } });
        }
        return { canceled, removed: records.length, customersDeleted: customerIds.size };
      });
    },
  };
};
