import {
  billingMessages,
  type BillingPortalResponse,
  type CardOnFile,
  type CardOnFileResponse,
  type InvoicesResponse,
  type SandboxCardUpdatePayload,
  type SandboxCardUpdateResponse,
} from '../../server/src/contract/billing';
import type { CurrentSubscription } from '../../server/src/contract/subscriptions';
import type { SandboxCard } from '../../server/src/contract/sandboxCard';
import { apiRequest } from './client';
import { ApiError } from './errors';

type CallOptions = { signal?: AbortSignal };

/** One page of the member's invoices, newest first. */
export type InvoicePage = { invoices: InvoicesResponse['data']; hasMore: boolean };

/** The export file as the server sent it, and the name to save it under. */
export type AccountExportFile = { filename: string; text: string };

export const EXPORT_FILENAME = 'carnivo-data.json';

/** GET /api/subscriptions/invoices?page=N (1-based) */
export function getInvoices(page: number, { signal }: CallOptions = {}): Promise<InvoicePage> {
  return apiRequest<InvoicesResponse, InvoicePage>('/api/subscriptions/invoices', {
    auth: true,
    query: { page: String(page) },
    fallback: billingMessages.invoicesFailed,
    read: (answer) => (answer?.data && answer.pagination ? { invoices: answer.data, hasMore: answer.pagination.hasMore } : undefined),
    signal,
  });
}

/** GET /api/subscriptions/card: the member's card on file (the gateway's), or null when none is saved. */
export function getCardOnFile({ signal }: CallOptions = {}): Promise<CardOnFile | null> {
  return apiRequest<CardOnFileResponse, CardOnFile | null>('/api/subscriptions/card', {
    auth: true,
    fallback: billingMessages.cardOnFileFailed,
    read: (answer) => answer?.card,
    signal,
  });
}

/** POST /api/subscriptions/portal (Stripe mode): the Customer Portal session's address. */
export function openBillingPortal({ signal }: CallOptions = {}): Promise<string> {
  return apiRequest<BillingPortalResponse, string>('/api/subscriptions/portal', {
    method: 'POST',
    auth: true,
    fallback: billingMessages.portalFailed,
    read: (answer) => answer?.url || undefined,
    signal,
  });
}

/** POST /api/payments/sandbox/card (sandbox mode): replaces the card on file; answers its last 4 digits. */
export function updateSandboxCard(card: SandboxCard, { signal }: CallOptions = {}): Promise<string> {
  const payload: SandboxCardUpdatePayload = card;
  return apiRequest<SandboxCardUpdateResponse, string>('/api/payments/sandbox/card', {
    method: 'POST',
    auth: true,
    body: payload,
    fallback: billingMessages.cardUpdateFailed,
    read: (answer) => (answer?.ok ? answer.last4 : undefined),
    signal,
  });
}

/** POST /api/subscriptions/resume: undoes a cancellation at period end; answers like /current. */
export function resumeSubscription({ signal }: CallOptions = {}): Promise<CurrentSubscription> {
  return apiRequest<CurrentSubscription>('/api/subscriptions/resume', {
    method: 'POST',
    auth: true,
    fallback: billingMessages.resumeFailed,
    signal,
  });
}

/** The file name of a Content-Disposition header, or null. */
export function attachmentName(disposition: string | null): string | null {
  const match = disposition?.match(/filename="?([^";]+)"?/i);
  return match ? match[1].trim() : null;
}

/** GET /api/account/export: the member's data file, kept as sent. A 429 without the server's text gets the limit's. */
export async function exportAccount({ signal }: CallOptions = {}): Promise<AccountExportFile> {
  try {
    return await apiRequest<string, AccountExportFile>('/api/account/export', {
      auth: true,
      responseType: 'text',
      fallback: billingMessages.exportFailed,
      read: (text, _status, headers) =>
        typeof text === 'string' && text
          ? { text, filename: attachmentName(headers.get('Content-Disposition')) ?? EXPORT_FILENAME }
          : undefined,
      signal,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 429 && error.message === billingMessages.exportFailed) {
      throw new ApiError(billingMessages.exportLimit, 429);
    }
    throw error;
  }
}
