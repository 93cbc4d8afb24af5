import type { LinkProps } from '@tanstack/react-router';

/** The main navigation's links for everyone (members get Profile and Log Out after them, visitors Log In and Sign Up). */
export const publicLinks: Array<{ to: LinkProps['to'] & string; label: string }> = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About Us' },
  { to: '/company-details', label: 'Company Details' },
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms' },
  { to: '/contact', label: 'Contact' },
  { to: '/refund-policy', label: 'Refund Policy' },
  { to: '/delete-profile', label: 'Delete Account' },
];
