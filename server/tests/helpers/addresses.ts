/**
 * Addresses the one e-mail rule (server/src/contract/fieldRules.ts) must refuse, and good ones it must
 * take: used by the rule's unit test and by the server tests that send each hostile one to every route
 * that takes an address.
 */

/** What the mail queue or an SMTP server would read as list, name, comment or header syntax, or not as an address at all. */
export const HOSTILE_ADDRESSES = [
  'a,b@example.com',
  '<script>x</script>@example.com',
  'x@example.com>',
  '"a"@example.com',
  'a"b@example.com',
  'a;b@example.com',
  'a b@example.com',
  'a\tb@example.com',
  'a\u0000b@example.com',
  'a\u0007b@example.com',
  'x@example.com\r\nBcc: y@example.com',
  'a\u200bb@example.com',
  'Name <a@example.com>',
  'a(comment)@example.com',
  'a\\b@example.com',
  'a:b@example.com',
  'a[b]@example.com',
  '.a@example.com',
  'a.@example.com',
  'a..b@example.com',
  'a@example',
  'a@example.c',
  'a@example.c0m',
  'a@example.com.',
  'a@-x.example.com',
  'a@x..example.com',
  'a@exa mple.com',
  'a@b@example.com',
  '@example.com',
  `${'a'.repeat(65)}@example.com`,
  `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(63)}.com`,
] as const;

/** Plus-addressing, subdomains, long and internationalised top-level domains, unusual but valid characters. */
export const GOOD_ADDRESSES = [
  'ribeye@example.com',
  'first.last+tag@sub.example.org',
  'eater+carnivo@mail.eu.example.co.uk',
  'x@example.photography',
  'x@example.international',
  "o'brien@example.ie",
  'user_1-2@a-b.example.travel',
  'josé@exämple.de',
  'user@xn--mnchen-3ya.de',
  'user@example.xn--p1ai',
  'a!#$%&*/=?^`{|}~@example.com',
  `${'a'.repeat(64)}@example.com`,
] as const;
