import type { CardBrand, CardOnFile } from '../../../server/src/contract/billing';
import { formatMonth } from '../../../machines/rules/dates';

const BRAND_NAMES: Record<CardBrand, string> = {
  amex: 'American Express',
  cartes_bancaires: 'Cartes Bancaires',
  diners: 'Diners Club',
  discover: 'Discover',
  eftpos_au: 'eftpos',
  interac: 'Interac',
  jcb: 'JCB',
  link: 'Link',
  mastercard: 'Mastercard',
  unionpay: 'UnionPay',
  visa: 'Visa',
  unknown: 'Card',
};

/** "Visa ending in 4242, expires December 2030": the card as a person reads it, in the member area's date style. */
export function describeCard(card: CardOnFile): string {
  return `${BRAND_NAMES[card.brand] ?? BRAND_NAMES.unknown} ending in ${card.last4}, expires ${formatMonth(card.expYear, card.expMonth)}`;
}
