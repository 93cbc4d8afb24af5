import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { isGatewayError, SandboxCardError, type GatewaySubscription, type PaymentGateway } from '../../../payments';
import { UID } from '../../../content-types';
import { withMemberLock as lockMember } from '../../../security/member-lock';
import {
  ENDED_STATUSES,
  INCOMPLETE_LIFETIME_MS,
  firstPayment,
  holdsPlan,
  MONEY_BACK_MS,
  refundableUntil,
  type CurrentSubscription,
  type CurrentSubscriptionAnswer,
  type SubscriptionPlan,
  type SubscriptionStatus,
} from '../../../contract/subscriptions';
import type { Invoice } from '../../../contract/billing';

/**
 * The subscription records and the gateway's view of them: the other parts read and change the
 * records, and take the member's lock, through here.
 */

/** Statuses of a subscription that can be set to cancel at period end. */
export const CANCELABLE: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due', 'unpaid', 'paused'];

/** A subscription set to cancel at period end whose paid period still runs: "Resume subscription" undoes the cancel. */
export const resumable = (record: SubscriptionRecord, now = Date.now()): boolean =>
  CANCELABLE.includes(record.status) && record.cancel_at_period_end === true && (toMs(record.currentPeriodEnd) ?? 0) > now;

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
  /** The money-back guarantee's refund, recorded on the subscription it ended (issue 30 item 3). */
  refunded_invoice_id?: string | null;
  refunded_at?: string | number | Date | null;
  refund_amount?: number | null;
  refund_currency?: string | null;
}

/** The money-back guarantee on offer: the first payment, the subscription it paid for, and until when (ISO 8601). */
export interface RefundOffer {
  invoice: Invoice;
  record: SubscriptionRecord;
  until: string;
}

export interface MemberRow {
  id: number;
  documentId: string;
  email: string;
  username: string;
  stripeCustomerId?: string | null;
}

export const toMs = (value: string | number | Date | null | undefined): number | null => {
  if (value == null) return null;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
};
export const toIso = (value: string | number | Date | null | undefined): string | null => {
  const ms = toMs(value);
  return ms == null ? null : new Date(ms).toISOString();
};
export const isEnded = (status: SubscriptionStatus) => ENDED_STATUSES.includes(status);
/** Local actions are stamped at whole seconds, like Stripe's event.created. */
export const nowStamp = () => Math.floor(Date.now() / 1000) * 1000;

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

export interface SubscriptionRecords {
  /** The configured payment gateway (Stripe or sandbox). */
  gateway(): PaymentGateway;
  /**
   * One purchase, payment, cancellation, resumption or deletion clean-up at a time per member,
   * across every server process on the database (double clicks, or one click retried onto another
   * instance, must not make two attempts payable). The gateway cannot be rolled back: after its
   * errors the records of what it already did (an ended attempt, a new customer's id) are kept.
   */
  withMemberLock<T>(userId: number, work: () => Promise<T>): Promise<T>;
  reload(id: number): Promise<SubscriptionRecord>;
  /** The record of a gateway subscription, with its plan; only the member's own when userId is given. */
  findBySubscriptionId(subscriptionId: string, userId?: number): Promise<SubscriptionRecord | null>;
  /** The member who owns the gateway subscription's record (null when none does). */
  ownerOf(subscriptionId: string): Promise<number | null>;
  /** Every record of the member, ended ones too, with their plans (newest first when asked). */
  allOf(userId: number, order?: 'newest-first'): Promise<SubscriptionRecord[]>;
  /**
   * Applies the gateway's view of a subscription to its record, unless that would move it
   * backwards: an older event than the last one applied, any change to an ended subscription
   * (canceled and incomplete_expired are final on Stripe), or a return to 'incomplete'.
   */
  apply(record: SubscriptionRecord, sub: GatewaySubscription, atMs: number): Promise<ApplyOutcome>;
  /** Asks the gateway for the subscription's real state and applies it (verify, stale records). */
  refresh(record: SubscriptionRecord): Promise<SubscriptionRecord>;
  /** The member's open (not ended) records as stored, newest first. */
  openRecords(userId: number): Promise<SubscriptionRecord[]>;
  /** The member's open records after settling (see settle), newest first. */
  liveRecords(userId: number): Promise<SubscriptionRecord[]>;
  /**
   * Ends the member's attempts still waiting for their first payment (incomplete), so that none of
   * them can be paid any more; one the gateway reports paid meanwhile is brought up to date instead.
   */
  endUnpaidAttempts(live: SubscriptionRecord[]): Promise<void>;
  /** The member's payment customer at the gateway (null before their first purchase). */
  customerOf(userId: number): Promise<string | null>;
  /** Every invoice of the member's customer, newest first (none before their first purchase). */
  allInvoices(userId: number): Promise<Invoice[]>;
  /**
   * A record as GET /api/subscriptions/current answers it (and resume): while the member holds its plan,
   * with the end of the money-back guarantee on their first payment (null once past, or with none paid).
   */
  answer(userId: number, record: SubscriptionRecord): Promise<CurrentSubscriptionAnswer>;
  /** Whether the member has had the money-back guarantee's refund (once per member). */
  refundClaimed(userId: number): Promise<boolean>;
  /**
   * The money-back guarantee's offer among these held subscriptions: the member's first payment, while
   * in its window, not refunded yet, and paying for one of them (that one ends with the refund); else
   * null. With `quiet`, a gateway that cannot be read means no offer (a page still loads), not an error.
   */
  refundOffer(userId: number, held: SubscriptionRecord[], options?: { quiet?: boolean }): Promise<RefundOffer | null>;
  /** Records the guarantee's refund on the subscription it ends. */
  recordRefund(
    id: number,
    refund: { refunded_invoice_id: string; refunded_at: Date; refund_amount: number; refund_currency: string },
  ): Promise<void>;
  /** The invoice ids the member had refunded (billing history marks them). */
  refundedInvoiceIds(userId: number): Promise<Set<string>>;
  member(userId: number): Promise<MemberRow | null>;
  /** Records a subscription made at the gateway. */
  create(data: Record<string, unknown>): Promise<void>;
  /** Deletes these records. */
  remove(ids: number[]): Promise<void>;
  /** Remembers the member's payment customer (or forgets it: null). */
  setCustomer(userId: number, customerId: string | null): Promise<void>;
}

export function subscriptionRecords(strapi: Core.Strapi): SubscriptionRecords {
  const gateway = (): PaymentGateway => strapi.service('api::payment.gateway').get();
  const subs = () => strapi.db.query(UID.subscription);

  /** Errors after which what was done stays (the gateway already acted on it), as opposed to a database failure. */
  const keepsWork = (error: unknown) =>
    isGatewayError(error) || error instanceof errors.ApplicationError || error instanceof SandboxCardError;

  const reload = async (id: number): Promise<SubscriptionRecord> =>
    (await subs().findOne({ where: { id }, populate: ['plan'] })) as SubscriptionRecord;

  const customerOf = async (userId: number): Promise<string | null> => {
    const member = (await strapi.db.query(UID.user).findOne({ where: { id: userId }, select: ['stripeCustomerId'] })) as Pick<
      MemberRow,
      'stripeCustomerId'
    > | null;
    return member?.stripeCustomerId || null;
  };

  const allInvoices = async (userId: number): Promise<Invoice[]> => {
    const customerId = await customerOf(userId);
    const invoices: Invoice[] = [];
    // 100 a call, at most 10,000 (a member has a few dozen).
    for (let offset = 0; customerId && offset < 10_000; offset += 100) {
      const page = await gateway().listInvoices(customerId, offset, 100);
      invoices.push(...page.invoices);
      if (!page.hasMore) break;
    }
    return invoices;
  };

  /** Whether the member has had the money-back guarantee's refund (once per member). */
  const refundClaimed = async (userId: number): Promise<boolean> =>
    (await subs().count({ where: { user: { id: userId }, refunded_at: { $notNull: true } } })) > 0;

  async function refundOffer(userId: number, held: SubscriptionRecord[], { quiet = false } = {}): Promise<RefundOffer | null> {
    const now = gateway().now().getTime();
    // A subscription's first payment is made within INCOMPLETE_LIFETIME_MS of its creation: past that and the
    // guarantee's days, none of its payments can be in the window, and the gateway is not asked.
    const candidates = held.filter(
      (record) => holdsPlan(record) && now < (toMs(record.createdAt) ?? 0) + INCOMPLETE_LIFETIME_MS + MONEY_BACK_MS,
    );
    if (candidates.length === 0 || (await refundClaimed(userId))) return null;
    let invoices: Invoice[];
    try {
      invoices = await allInvoices(userId);
    } catch (error) {
      if (!quiet || !isGatewayError(error)) throw error;
      strapi.log.warn(`[payments] the money-back guarantee of user ${userId} could not be read from the gateway: ${error.message}`);
      return null;
    }
    const first = firstPayment(invoices);
    const record = first ? candidates.find((candidate) => candidate.stripe_subscription_id === first.subscriptionId) : undefined;
    const until = first ? refundableUntil([first], now) : null;
    return first && record && until ? { invoice: first, record, until } : null;
  }

  /** Open (not ended) subscriptions of a member, newest first. */
  const openRecords = async (userId: number): Promise<SubscriptionRecord[]> =>
    (await subs().findMany({
      where: { user: { id: userId }, status: { $notIn: [...ENDED_STATUSES] } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      populate: ['plan'],
    })) as SubscriptionRecord[];

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
    const incompleteExpired = record.status === 'incomplete' && now - (toMs(record.createdAt) ?? now) > INCOMPLETE_LIFETIME_MS;
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

  return {
    gateway,
    withMemberLock: (userId, work) => lockMember(strapi, userId, work, { keepsWork }),
    reload,
    openRecords,
    async findBySubscriptionId(subscriptionId, userId) {
      const own = userId === undefined ? {} : { user: { id: userId } };
      return (await subs().findOne({
        where: { stripe_subscription_id: subscriptionId, ...own },
        populate: ['plan'],
      })) as SubscriptionRecord | null;
    },
    async ownerOf(subscriptionId) {
      const record = (await subs().findOne({ where: { stripe_subscription_id: subscriptionId }, populate: ['user'] })) as {
        user?: { id: number } | null;
      } | null;
      return record?.user?.id ?? null;
    },
    async allOf(userId, order) {
      return (await subs().findMany({
        where: { user: { id: userId } },
        ...(order === 'newest-first' ? { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] } : {}),
        populate: ['plan'],
      })) as SubscriptionRecord[];
    },
    apply,
    refresh,
    async liveRecords(userId) {
      const settled: SubscriptionRecord[] = [];
      for (const record of await openRecords(userId)) {
        const current = await settle(record);
        if (!isEnded(current.status)) settled.push(current);
      }
      return settled;
    },
    async endUnpaidAttempts(live) {
      for (const record of live) {
        if (record.status === 'incomplete') await apply(record, await gateway().endUnpaid(record.stripe_subscription_id), nowStamp());
      }
    },
    customerOf,
    allInvoices,
    async answer(userId, record) {
      const offer = await refundOffer(userId, [record], { quiet: true });
      return { ...toCurrent(record), refundableUntil: offer?.until ?? null, refundableAmount: offer?.invoice.amount ?? null };
    },
    refundOffer,
    refundClaimed,
    async recordRefund(id, refund) {
      await subs().update({ where: { id }, data: refund });
    },
    async refundedInvoiceIds(userId) {
      const refunded = (await subs().findMany({
        where: { user: { id: userId }, refunded_invoice_id: { $notNull: true } },
        select: ['refunded_invoice_id'],
      })) as Pick<SubscriptionRecord, 'refunded_invoice_id'>[];
      return new Set(refunded.map((record) => record.refunded_invoice_id!));
    },
    async member(userId) {
      return (await strapi.db.query(UID.user).findOne({ where: { id: userId } })) as MemberRow | null;
    },
    async create(data) {
      await subs().create({ data });
    },
    async remove(ids) {
      await subs().deleteMany({ where: { id: { $in: ids } } });
    },
    async setCustomer(userId, customerId) {
      await strapi.db.query(UID.user).update({ where: { id: userId }, data: { stripeCustomerId: customerId } });
    },
  };
}
