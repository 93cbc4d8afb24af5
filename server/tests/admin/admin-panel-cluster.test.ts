import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { missingServices, startCluster, type Cluster, type Instance } from '../helpers/instances';

/**
 * The admin panel attacks of issue 28 on two server processes sharing one PostgreSQL database
 * (docs/security.md#the-admin-panel): administrators made through the admin API itself (the first
 * one registered, an Editor invited by it), signed in on one instance and attacking through the
 * other. The victim's rows are re-read in PostgreSQL: the unsent reset code is stored encrypted and
 * appears in no admin answer, no forged e-mail is queued, a signed-out session stays signed out.
 */

const missing = await missingServices();
if (missing) console.warn(`[admin-panel-cluster.test] skipped: ${missing}`);

const MESSAGE = 'api::email-message.email-message';
const SESSION = 'api::member-session.member-session';

let cluster: Cluster;
let a: Instance;
let b: Instance;
const tokens = { superAdmin: '', editor: '' };
const answers: string[] = [];

type Answer = { data?: Record<string, unknown> & { token?: string; registrationToken?: string }; error?: unknown };
const call = async (instance: Instance, method: string, path: string, options: { body?: unknown; token?: string } = {}) => {
  const res = await cluster.call<Answer>(instance, method, path, options);
  answers.push(JSON.stringify(res.body));
  return res;
};

describe.skipIf(missing !== null)('the admin panel on two instances (PostgreSQL)', () => {
  beforeAll(async () => {
    // Mail stays queued: the attacks run against an unsent reset code.
    cluster = await startCluster(2, { EMAIL_WORKER: 'off', AUTH_RATELIMIT_ENABLED: 'false' });
    [a, b] = cluster.instances;
    const superAdmin = await call(a, 'POST', '/admin/register-admin', {
      body: { email: 'cluster.super@carnivo.example', password: 'Super-Passw0rd-1', firstname: 'Su', lastname: 'Per' },
    });
    expect(superAdmin.status, JSON.stringify(superAdmin.body)).toBe(200);
    tokens.superAdmin = superAdmin.body.data!.token!;
    const roles = await call(a, 'GET', '/admin/roles', { token: tokens.superAdmin });
    const editorRole = (roles.body.data as unknown as { id: number; code: string }[]).find((role) => role.code === 'strapi-editor')!;
    const invited = await call(a, 'POST', '/admin/users', {
      token: tokens.superAdmin,
      body: { email: 'cluster.editor@carnivo.example', firstname: 'Ed', lastname: 'Itor', roles: [editorRole.id] },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const registered = await call(b, 'POST', '/admin/register', {
      body: {
        registrationToken: invited.body.data!.registrationToken,
        userInfo: { firstname: 'Ed', lastname: 'Itor', password: 'Editor-Passw0rd-1' },
      },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    tokens.editor = registered.body.data!.token!;
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('neither an Editor nor the Super Admin, on either instance, reads the unsent reset code, queues an e-mail or revives a session', async () => {
    const { jwt } = await cluster.register(a, 'clustervictim');
    const sid = JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')).sid as string;
    expect((await call(b, 'DELETE', `/api/sessions/${sid}`, { token: jwt })).status).toBe(200);
    expect((await call(b, 'POST', '/api/auth/forgot-password', { body: { email: 'clustervictim@example.com' } })).status).toBe(200);
    const [queued] = await cluster.sql<{ id: number; text: string }>(`SELECT id, text FROM email_messages WHERE "to" = $1`, [
      'clustervictim@example.com',
    ]);
    // Stored encrypted: the table itself holds no code.
    expect(queued.text).toMatch(/^v1\./);
    const [session] = await cluster.sql<{ document_id: string }>(`SELECT document_id FROM member_sessions WHERE sid = $1`, [sid]);

    for (const instance of [a, b]) {
      for (const role of ['editor', 'superAdmin'] as const) {
        const token = tokens[role];
        const cm = (method: string, path: string, body?: unknown) => call(instance, method, `/content-manager${path}`, { token, body });
        expect((await cm('GET', `/collection-types/${MESSAGE}`)).status).toBe(404);
        expect((await cm('GET', `/collection-types/${MESSAGE}/${queued.id}`)).status).toBe(404);
        expect(
          (
            await cm('POST', `/collection-types/${MESSAGE}`, {
              to: 'outsider@elsewhere.example',
              from_address: 'security@carnivo.example',
              subject: 'Verify',
              text: 'https://evil.example',
              message_id: '<forged@carnivo.mail>',
              kind: 'other',
            })
          ).status,
        ).toBe(404);
        expect((await cm('GET', `/collection-types/${SESSION}`)).status).toBe(404);
        expect((await cm('PUT', `/collection-types/${SESSION}/${session.document_id}`, { revoked_at: null })).status).toBe(404);
        for (const shape of ['filters[$and]=x', 'filters[id][$between]=1', 'filters[id][$eq]=abc']) {
          expect((await cm('GET', `/collection-types/api::ingredient.ingredient?${shape}`)).status).toBe(400);
        }
        expect([400, 404]).toContain((await cm('GET', `/collection-types/${MESSAGE}?filters[attempts][$eq]=abc`)).status);
      }
    }

    // Re-read in PostgreSQL: nothing forged, still revoked, still refused; and no admin answer held the body.
    expect(await cluster.sql(`SELECT id FROM email_messages WHERE "to" = 'outsider@elsewhere.example'`)).toEqual([]);
    const [after] = await cluster.sql<{ revoked_at: Date | null }>(`SELECT revoked_at FROM member_sessions WHERE sid = $1`, [sid]);
    expect(after.revoked_at).not.toBeNull();
    for (const instance of [a, b]) expect((await call(instance, 'GET', '/api/users/me', { token: jwt })).status).toBe(401);
    expect(answers.join('\n')).not.toContain(queued.text);
    expect(answers.join('\n')).not.toMatch(/reset code/i);
  });
});
