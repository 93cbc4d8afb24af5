// @ts-nocheck
import { factories } from '@strapi/strapi';
import { UID } from '../../../content-types';

/** The fields of SPEC §3 (id and documentId are always included). */
export const PLAN_FIELDS = ['name', 'stripe_price_id', 'stripe_product_id', 'amount', 'currency', 'duration', 'is_active'];

/**
 * GET /api/subscription-plans: every plan, inactive ones included (the SPA shows them as
 * unavailable; POST /api/subscriptions refuses them). Active plans first, then by price.
 */
export default factories.createCoreController(UID.subscriptionPlan, () => ({
  async find(ctx) {
    ctx.query = { fields: PLAN_FIELDS, sort: ['is_active:desc', 'amount:asc', 'id:asc'], ...ctx.query };
    return super.find(ctx);
  },
}));
