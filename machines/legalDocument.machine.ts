import { assign, fromPromise, setup } from 'xstate';
import { fetchLegalDocument, type LegalDocument } from './services/legal';
import { legalDocuments, type LegalDocumentKind } from './rules/legalDocuments';

type LegalContext = {
  document: LegalDocumentKind;
  title: string;
  content: string;
  error: string | null;
};

export type LegalDocumentEvent = { type: 'retry' };

/**
 * SPEC §4 Legal page: loading, then loaded or error; Retry returns to loading. A page the server
 * prerendered starts loaded, from the text already in its HTML (input.prerendered).
 */
export const legalDocumentMachine = setup({
  types: {
    context: {} as LegalContext,
    events: {} as LegalDocumentEvent,
    input: {} as { document: LegalDocumentKind; prerendered?: LegalDocument },
  },
  guards: {
    prerendered: ({ context }) => context.content !== '',
  },
  actors: {
    fetchDocument: fromPromise<LegalDocument, { document: LegalDocumentKind }>(({ input, signal }) =>
      fetchLegalDocument(legalDocuments[input.document], { signal }),
    ),
  },
}).createMachine({
  id: 'legalDocument',
  context: ({ input }) => ({
    document: input.document,
    title: input.prerendered?.title ?? '',
    content: input.prerendered?.content ?? '',
    error: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'prerendered', target: 'loaded' }, { target: 'loading' }],
    },
    loading: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'fetchDocument',
        src: 'fetchDocument',
        input: ({ context }) => ({ document: context.document }),
        onDone: {
          target: 'loaded',
          actions: assign({
            title: ({ event }) => event.output.title,
            content: ({ event }) => event.output.content,
            error: null,
          }),
        },
        onError: {
          target: 'error',
          // The page shows the fixed text of SPEC §8, whatever the server said.
          actions: assign({ error: ({ context }) => legalDocuments[context.document].errorText }),
        },
      },
    },
    loaded: {},
    error: {
      on: { retry: { target: 'loading', actions: assign({ error: null }) } },
    },
  },
});

export type LegalDocumentMachine = typeof legalDocumentMachine;
