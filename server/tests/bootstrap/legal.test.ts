import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootStrapi, request, type TestStrapi } from '../helpers/strapi';
import { LEGAL_DOCUMENTS, seedLegalDocuments } from '../../src/bootstrap/legal';

type LegalResponse = { data: Record<string, unknown> & { id: number; documentId: string; Content: string } };

let app: TestStrapi;

beforeAll(async () => {
  app = await bootStrapi();
});

afterAll(async () => {
  await app?.stop();
});

// SPEC §3 and §7: the privacy policy gives Text and Content, the other two Title and Content.
const pages = [
  { path: '/api/privacy-policy', uid: LEGAL_DOCUMENTS[0].uid, titleField: 'Text', title: 'Privacy Policy' },
  { path: '/api/terms-and-condition', uid: LEGAL_DOCUMENTS[1].uid, titleField: 'Title', title: 'Terms and Conditions' },
  { path: '/api/refund-policy', uid: LEGAL_DOCUMENTS[2].uid, titleField: 'Title', title: 'Refund Policy' },
] as const;

describe('legal single types', () => {
  it.each(pages)('GET $path answers data.$titleField and data.Content without a token', async ({ path, titleField, title }) => {
    const res = await request<LegalResponse>(app.baseUrl, 'GET', path);
    expect(res.status).toBe(200);
    expect(res.body.data[titleField]).toBe(title);
    expect(res.body.data.Content).toEqual(expect.any(String));
    expect(res.body.data.Content.length).toBeGreaterThan(1500);
    expect(Object.keys(res.body.data)).toEqual(
      expect.arrayContaining(['id', 'documentId', titleField, 'Content', 'createdAt', 'updatedAt']),
    );
    expect(res.body.data).not.toHaveProperty(titleField === 'Text' ? 'Title' : 'Text');
  });

  it('seeds text of substance: subscription, 30-day refunds, account deletion, data kept', async () => {
    const [privacy, terms, refund] = await Promise.all(
      pages.map(({ path }) => request<LegalResponse>(app.baseUrl, 'GET', path).then((r) => r.body.data.Content)),
    );
    expect(privacy).toMatch(/How long we keep it/);
    expect(privacy).toMatch(/profile, your BMI records, your meal plans and your favorite recipes/);
    expect(privacy).toMatch(/Stripe/);
    expect(terms).toMatch(/renews automatically/);
    expect(terms).toMatch(/not medical advice/);
    expect(terms).toMatch(/end of the current billing period/);
    expect(refund).toMatch(/within 30 days/);
    expect(refund).toMatch(/support@carnivo\.app/);
  });

  it('is read-only over the content API', async () => {
    for (const { path, titleField } of pages) {
      const res = await request(app.baseUrl, 'PUT', path, { body: { data: { [titleField]: 'Hacked', Content: 'x' } } });
      expect([403, 404, 405]).toContain(res.status);
      const after = await request<LegalResponse>(app.baseUrl, 'GET', path);
      expect(after.body.data[titleField]).not.toBe('Hacked');
    }
  });

  it("shows an editor's change in the next GET, and a second seed keeps it", async () => {
    for (const { path, uid, titleField } of pages) {
      const documents = app.strapi.documents(uid);
      const current = await documents.findFirst();
      expect(current).toBeTruthy();
      const edited = { [titleField]: `Edited ${titleField}`, Content: `## Edited\n\nNew text for ${path}.` };
      await documents.update({ documentId: current!.documentId, data: edited as never });

      const res = await request<LegalResponse>(app.baseUrl, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject(edited);
    }

    await seedLegalDocuments(app.strapi);

    for (const { path, uid, titleField } of pages) {
      const res = await request<LegalResponse>(app.baseUrl, 'GET', path);
      expect(res.body.data[titleField]).toBe(`Edited ${titleField}`);
      expect(res.body.data.Content).toBe(`## Edited\n\nNew text for ${path}.`);
      expect(await app.strapi.documents(uid).count({})).toBe(1);
    }
  });

  it('keeps the edited text across a restart (bootstrap runs again)', async () => {
    const databaseFile = app.databaseFile!;
    await app.stop({ keepDatabase: true });
    app = await bootStrapi({ databaseFile });
    for (const { path, titleField } of pages) {
      const res = await request<LegalResponse>(app.baseUrl, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.body.data[titleField]).toBe(`Edited ${titleField}`);
    }
  });
});
