// @ts-nocheck
import type { Core } from '@strapi/strapi';
import { createGateway, type PaymentGateway } from '../../../payments';

/** api::payment.gateway: the configured payment gateway (Stripe or sandbox), created once. */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  let gateway: PaymentGateway | undefined;
  return {
    get(): PaymentGateway {
      gateway ??= createGateway(strapi);
      return gateway;
    },
  };
};
