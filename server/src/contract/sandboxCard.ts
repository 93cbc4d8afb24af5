import { check, object, pipe, regex, transform, type InferOutput } from 'valibot';
import { textField } from './schema';
import type { CardBrand } from './billing';

/**
 * The card of the offline payment sandbox (PAYMENTS_MODE=sandbox): its test numbers and the rules of the
 * card fields of POST /api/payments/sandbox/confirm and /card, which refuse as Stripe's test mode does.
 */

/** Test cards, as in Stripe's test mode. */
export const SANDBOX_CARDS = { success: '4242424242424242', declined: '4000000000000002' } as const;

/**
 * The test numbers that pay, each with its network (Stripe's test cards, docs/payments-sandbox-cards.md):
 * more than one, so that a changed card on file shows.
 */
export const SANDBOX_PAYING_CARDS: ReadonlyMap<string, CardBrand> = /* @__PURE__ */ new Map<string, CardBrand>([
  [SANDBOX_CARDS.success, 'visa'],
  ['4000056655665556', 'visa'],
  ['5555555555554444', 'mastercard'],
  ['2223003122003222', 'mastercard'],
  ['378282246310005', 'amex'],
  ['6011111111111117', 'discover'],
  ['3056930009020004', 'diners'],
  ['3566002020360505', 'jcb'],
  ['6200000000000005', 'unionpay'],
]);

/** Each refusal of the card fields (400), by the code the answer carries (Stripe's). */
export const sandboxCardMessages = {
  incorrect_number: 'Your card number is incorrect.',
  incomplete_expiry: "Your card's expiration date is incomplete. Use MM/YY.",
  invalid_expiry_month: "Your card's expiration month is invalid.",
  expired_card: "Your card's expiration date is in the past.",
  incomplete_cvc: "Your card's security code is incomplete. Enter 3 or 4 digits.",
} as const;

export type SandboxCardRefusal = keyof typeof sandboxCardMessages;

/** MM/YY, blanks allowed around each part. */
const EXPIRY_PATTERN = /^\s*(\d{1,2})\s*\/\s*(\d{2})\s*$/;
const CVC_PATTERN = /^\d{3,4}$/;

/** The expiry's month (1-12 when valid) and full year; the expiry matched EXPIRY_PATTERN. */
function expiryOf(expiry: string): { month: number; year: number } {
  const [, month, year] = EXPIRY_PATTERN.exec(expiry)!;
  return { month: Number(month), year: 2000 + Number(year) };
}

/**
 * The card fields as of `now` (a card is valid through the last day of its expiry month), in Stripe's
 * order: number, expiry, then CVC. The parsed number is without its spaces and dashes, the expiry MM/YY
 * without blanks. Other fields (the confirm route's clientSecret) are not the card's: left out.
 */
/* @__NO_SIDE_EFFECTS__ */
export function sandboxCardBody(now: Date) {
  return object(
    {
      cardNumber: pipe(
        textField(sandboxCardMessages.incorrect_number),
        transform((number) => number.replace(/[\s-]/g, '')),
        check((number) => SANDBOX_PAYING_CARDS.has(number) || number === SANDBOX_CARDS.declined, sandboxCardMessages.incorrect_number),
      ),
      expiry: pipe(
        textField(sandboxCardMessages.incomplete_expiry),
        regex(EXPIRY_PATTERN, sandboxCardMessages.incomplete_expiry),
        check((expiry) => expiryOf(expiry).month >= 1 && expiryOf(expiry).month <= 12, sandboxCardMessages.invalid_expiry_month),
        check((expiry) => {
          const { month, year } = expiryOf(expiry);
          return Date.UTC(year, month, 1) > now.getTime();
        }, sandboxCardMessages.expired_card),
        transform((expiry) => expiry.replace(/\s/g, '')),
      ),
      cvc: pipe(
        textField(sandboxCardMessages.incomplete_cvc),
        transform((cvc) => cvc.trim()),
        regex(CVC_PATTERN, sandboxCardMessages.incomplete_cvc),
      ),
    },
    sandboxCardMessages.incorrect_number,
  );
}

/** The card fields of the sandbox's payment form (its stand-in for Stripe's card element). */
export type SandboxCard = InferOutput<ReturnType<typeof sandboxCardBody>>;
