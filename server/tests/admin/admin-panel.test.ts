import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { request } from '../helpers/strapi';
import { PG, postgresEnv, withPostgres } from '../helpers/instances';
import { resetCodeOf } from '../helpers/outbox';
import { mailQueueOf } from '../helpers/mail-queue';
import type { AuthResponse } from '../helpers/types';
import { CONTENT_ROLE_SUBJECTS, narrowContentRoles } from '../../src/bootstrap/admin-roles';
import { listQueue, formatQueue, retryMessage } from '../../src/operations/mail-queue-view';
import { KNOWN_DEVICE_DAYS, pruneSessions } from '../../src/security/sessions/records';
import { boot, type TestApp } from '../helpers/app';

/**
 * The admin panel cannot read or forge members' secrets (issue 28, docs/security.md#the-admin-panel).
 * Each attack is made through the real admin API (/admin/login, then /content-manager/...) as an
 * Editor and as a Super Admin, and the victim's data is re-read: the reset code appears in no answer
 * (it reaches the member's inbox only), no e-mail the administrator wrote is sent, a signed-out
 * session stays signed out. Malformed filters answer 400, never 5xx. On SQLite, and on PostgreSQL
 * when one answers.
 */

const pgReachable = await withPostgres(async () => true).catch((error: Error) => {
  console.warn(`[admin-panel.test] PostgreSQL part skipped: no PostgreSQL at ${PG.host}:${PG.port} (${error.message})`);
  return false;
});

const MESSAGE = 'api::email-message.email-message';
const SESSION = 'api::member-session.member-session';
const USER = 'plugin::users-permissions.user';
/** Every security or internal table: out of the admin panel for every role. */
const HIDDEN = [
  MESSAGE,
  SESSION,
  'api::passkey.passkey',
  'api::passkey.passkey-challenge',
  'api::two-factor.two-factor',
  'api::two-factor.two-factor-recovery-code',
  'api::two-factor.two-factor-ticket',
  'api::reminder.reminder-send',
  'api::payment.payment-event',
];
const DAY_MS = 86_400_000;

const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;

function adminPanelSuite(label: string, setup: { env: () => Record<string, string>; after?: () => Promise<void> }) {
  let app: TestApp;
  const admins: Record<'editor' | 'superAdmin', string> = { editor: '', superAdmin: '' };
  /** Every admin answer body of the suite, as text: the reset code must be in none. */
  const answers: string[] = [];

  const cm = (role: keyof typeof admins, method: string, urlPath: string, body?: unknown) =>
    request<{ data?: unknown; error?: { status: number; message: string } }>(app.baseUrl, method, `/content-manager${urlPath}`, {
      token: admins[role],
      body,
    }).then((res) => {
      answers.push(JSON.stringify(res.body));
      return res;
    });

  async function createAdmin(role: 'strapi-editor' | 'strapi-super-admin', email: string): Promise<string> {
    const { id } = (await app.strapi.db.query('admin::role').findOne({ where: { code: role } })) as { id: number };
    const password = 'Admin-Passw0rd-1';
    await app.strapi.service('admin::user').create({ email, password, firstname: 'Ad', lastname: 'Min', isActive: true, roles: [id] });
    const res = await request<{ data: { token: string } }>(app.baseUrl, 'POST', '/admin/login', { body: { email, password } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.token;
  }

  const register = (name: string) => app.register(name);

  describe(`the admin panel (${label})`, () => {
    beforeAll(async () => {
      app = await boot({
        outbox: true,
        limits: 'off',
        env: {
          EMAIL_CONFIRMATION: 'false',
          // Queued mail stays queued until the test drives the worker: the attacks run against unsent codes.
          EMAIL_WORKER: 'off',
          ...setup.env(),
        },
      });
      admins.editor = await createAdmin('strapi-editor', `editor.${label}@carnivo.example`);
      admins.superAdmin = await createAdmin('strapi-super-admin', `super.${label}@carnivo.example`);
      // As an older deployment had them (or an administrator granted them since the last start): the tables stay out all the same.
      const editorRole = (await app.strapi.db.query('admin::role').findOne({ where: { code: 'strapi-editor' } })) as { id: number };
      for (const subject of HIDDEN) {
        for (const action of ['read', 'create', 'update', 'delete']) {
          await app.strapi.db.query('admin::permission').create({
            data: { action: `plugin::content-manager.explorer.${action}`, subject, properties: {}, conditions: [], role: editorRole.id },
          });
        }
      }
    });
    afterAll(async () => {
      await app?.stop();
      await setup.after?.();
    });

    it('hides the security tables from the Content Manager of every role: no reset code readable anywhere through the admin API, before or after it is sent', async () => {
      const victim = await register(`victim${label}`);
      expect((await request(app.baseUrl, 'POST', '/api/auth/forgot-password', { body: { email: victim.email } })).status).toBe(200);
      const [queued] = (await app.strapi.db.query(MESSAGE).findMany({ where: { to: victim.email } })) as { id: number; text: string }[];
      expect(queued).toBeDefined();

      for (const role of ['editor', 'superAdmin'] as const) {
        for (const uid of HIDDEN) {
          const list = await cm(role, 'GET', `/collection-types/${uid}`);
          expect(list.status, `${role} lists ${uid}`).toBe(404);
          expect((await cm(role, 'GET', `/collection-types/${encodeURIComponent(uid)}?page=1&pageSize=10`)).status).toBe(404);
        }
        expect((await cm(role, 'GET', `/collection-types/${MESSAGE}/${queued.id}`)).status).toBe(404);
        // Refused by the query grammar (400) or as hidden (404): never a 5xx, never rows.
        expect([400, 404]).toContain((await cm(role, 'GET', `/collection-types/${MESSAGE}?filters[attempts][$eq]=abc`)).status);
        expect((await cm(role, 'GET', `/relations/${MESSAGE}/to`)).status).toBe(404);
        expect((await cm(role, 'POST', '/uid/generate', { contentTypeUID: MESSAGE, field: 'to', data: {} })).status).toBe(404);
        expect((await cm(role, 'GET', `/history-versions?contentType=${MESSAGE}`)).status).toBe(404);
        // The panel's own lists (menu, home page) show none of them.
        const init = await cm(role, 'GET', '/init');
        expect(init.status).toBe(200);
        const displayed = (init.body.data as { contentTypes: { uid: string; isDisplayed: boolean }[] }).contentTypes
          .filter((type) => type.isDisplayed)
          .map((type) => type.uid);
        for (const uid of HIDDEN) expect(displayed).not.toContain(uid);
        await cm(role, 'GET', '/homepage/recent-documents?action=update');
        // Whatever else it may read (Super Admin: members, subscriptions...), no answer holds a body of the queue.
        for (const uid of Object.keys(app.strapi.contentTypes).filter((uid) => uid.startsWith('api::') || uid === USER)) {
          const { kind } = (app.strapi.contentTypes as unknown as Record<string, { kind: string }>)[uid];
          await cm(role, 'GET', `/${kind === 'singleType' ? 'single-types' : 'collection-types'}/${uid}`);
        }
      }

      // The code reaches the member only; it was in none of the administrators' answers.
      await mailQueueOf(app.strapi).worker.drain();
      const code = resetCodeOf(await app.outbox.next(victim.email));
      expect(answers.join('\n')).not.toContain(code);
      expect(answers.join('\n')).not.toContain(queued.text);
      // And the Editor cannot use it: the member's password is unchanged.
      const login = await request<AuthResponse>(app.baseUrl, 'POST', '/api/auth/local', {
        body: { identifier: victim.email, password: victim.password },
      });
      expect(login.status).toBe(200);
    });

    it('no administrator can queue an e-mail of its own (from, reply-to, body): nothing is written, nothing sent', async () => {
      const target = `outsider${label}@elsewhere.example`;
      for (const role of ['editor', 'superAdmin'] as const) {
        const forged = await cm(role, 'POST', `/collection-types/${MESSAGE}`, {
          to: target,
          from_address: 'security@carnivo.example',
          reply_to: 'attacker@evil.example',
          subject: 'Verify your account',
          text: 'Click https://evil.example',
          message_id: '<forged@carnivo.mail>',
          kind: 'other',
          status: 'queued',
          attempts: 0,
        });
        expect(forged.status).toBe(404);
        // Cloned from an existing row, bulk-published, or through a visible type's relation: refused alike.
        expect((await cm(role, 'POST', `/collection-types/${MESSAGE}/clone/1`, { to: target })).status).toBe(404);
        expect((await cm(role, 'POST', `/collection-types/${MESSAGE}/actions/bulkPublish`, { documentIds: ['x'] })).status).toBe(404);
      }
      expect(await app.strapi.db.query(MESSAGE).count({ where: { to: target } })).toBe(0);
      await mailQueueOf(app.strapi).worker.drain();
      expect(app.outbox.take(target)).toEqual([]);
    });

    it('no administrator can list a member’s sessions or revive one the member signed out', async () => {
      const member = await register(`signedout${label}`);
      const sid = claims(member.jwt).sid as string;
      expect((await request(app.baseUrl, 'DELETE', `/api/sessions/${sid}`, { token: member.jwt })).status).toBe(200);
      const row = (await app.strapi.db.query(SESSION).findOne({ where: { sid } })) as {
        id: number;
        documentId: string;
        revoked_at: unknown;
      };
      expect(row.revoked_at).not.toBeNull();

      for (const role of ['editor', 'superAdmin'] as const) {
        expect((await cm(role, 'GET', `/collection-types/${SESSION}`)).status).toBe(404);
        const revive = await cm(role, 'PUT', `/collection-types/${SESSION}/${row.documentId}`, { revoked_at: null });
        expect(revive.status).toBe(404);
        expect((await cm(role, 'POST', `/collection-types/${SESSION}`, { sid: 'x'.repeat(32), member_id: member.id })).status).toBe(404);
        expect((await cm(role, 'POST', `/collection-types/${SESSION}/actions/bulkDelete`, { documentIds: [row.documentId] })).status).toBe(
          404,
        );
      }
      // Re-read: still revoked, and the token is still refused.
      expect(((await app.strapi.db.query(SESSION).findOne({ where: { sid } })) as { revoked_at: unknown }).revoked_at).not.toBeNull();
      expect((await request(app.baseUrl, 'GET', '/api/users/me', { token: member.jwt })).status).toBe(401);
    });

    it('no spelling of a hidden route gets past: letter case and percent-encoded letters are refused alike, and the session stays signed out', async () => {
      const member = await register(`spelled${label}`);
      const sid = claims(member.jwt).sid as string;
      expect((await request(app.baseUrl, 'DELETE', `/api/sessions/${sid}`, { token: member.jwt })).status).toBe(200);
      const row = (await app.strapi.db.query(SESSION).findOne({ where: { sid } })) as { documentId: string; revoked_at: unknown };
      expect(row.revoked_at).not.toBeNull();
      // Strapi's router ignores letter case: each of these reaches the Content Manager's own routes.
      const spellings = [
        `/Content-Manager/collection-types/${SESSION}`,
        `/CONTENT-MANAGER/COLLECTION-TYPES/${SESSION}`,
        `/content-manager/Collection-Types/${encodeURIComponent(SESSION)}`,
        `/Content-Manager/collection-types/${SESSION.replace('member-session.', '%6Dember-session.')}`,
        `/content-manager/collection-types/${SESSION.toUpperCase()}`,
        `/%63ontent-manager/collection-types/${SESSION}`,
      ];
      for (const role of ['editor', 'superAdmin'] as const) {
        for (const spelling of spellings) {
          const admin = (method: string, urlPath: string, body?: unknown) =>
            request(app.baseUrl, method, urlPath, { token: admins[role], body }).then((res) => {
              answers.push(JSON.stringify(res.body));
              return res;
            });
          expect((await admin('GET', spelling)).status, `${role} GET ${spelling}`).toBe(404);
          expect((await admin('GET', `${spelling}/${row.documentId}`)).status, `${role} GET ${spelling}/:id`).toBe(404);
          expect((await admin('PUT', `${spelling}/${row.documentId}`, { revoked_at: null })).status, `${role} PUT ${spelling}`).toBe(404);
        }
        const relations = await request(app.baseUrl, 'GET', `/Content-Manager/relations/${SESSION}/member_id`, { token: admins[role] });
        expect(relations.status).toBe(404);
      }
      // Re-read: still revoked, the token still refused, and no answer showed the session.
      expect(((await app.strapi.db.query(SESSION).findOne({ where: { sid } })) as { revoked_at: unknown }).revoked_at).not.toBeNull();
      expect((await request(app.baseUrl, 'GET', '/api/users/me', { token: member.jwt })).status).toBe(401);
      expect(answers.join('\n')).not.toContain(sid);
    });

    it('malformed filters on the admin content routes answer 400, never 5xx', async () => {
      const lists = [
        '/collection-types/api::ingredient.ingredient',
        '/collection-types/api::subscription-plan.subscription-plan',
        `/collection-types/${USER}`,
      ];
      const shapes = [
        'filters[$and]=x',
        'filters[id][$between]=1',
        'filters[amount][$eq]=abc',
        'filters[attempts][$eq]=abc',
        'filters[id][$eq]=abc',
      ];
      for (const list of lists) {
        for (const shape of shapes) {
          const res = await cm('superAdmin', 'GET', `${list}?${shape}`);
          expect(res.status, `${list}?${shape}: ${JSON.stringify(res.body)}`).toBe(400);
        }
      }
      const single = await cm('superAdmin', 'GET', '/single-types/api::privacy-policy.privacy-policy?filters[$and]=x');
      expect(single.status).toBe(400);
      // Whatever the letter case of the path (Strapi's router ignores it).
      for (const spelling of [
        '/Content-Manager/collection-types/api::ingredient.ingredient',
        '/content-manager/COLLECTION-TYPES/api::ingredient.ingredient',
      ]) {
        for (const shape of ['filters[$and]=x', 'filters[id][$between]=1', 'filters[id][$eq]=abc']) {
          const res = await request(app.baseUrl, 'GET', `${spelling}?${shape}`, { token: admins.superAdmin });
          expect(res.status, `${spelling}?${shape}: ${JSON.stringify(res.body)}`).toBe(400);
        }
      }
      // The relation picker: the same grammar, and its own parameters (ids, search operator, a component's id).
      const pickers = ['/relations/api::subscription.subscription/plan', `/relations/${USER}/role`];
      const pickerShapes = [
        'filters[$and]=x',
        'filters[id][$eq]=abc',
        'sort[id][x]=1',
        'idsToOmit[0]=abc',
        'idsToInclude[0]=abc&id=x',
        'idsToOmit=1',
        '_q=a&_filter=$between',
        '_q=a&_filter=$in',
        '_q=a&_filter[x]=1',
      ];
      for (const picker of pickers) {
        for (const shape of pickerShapes) {
          const res = await cm('superAdmin', 'GET', `${picker}?${shape}`);
          expect(res.status, `${picker}?${shape}: ${JSON.stringify(res.body)}`).toBe(400);
        }
        expect((await cm('superAdmin', 'GET', `${picker}?_q=a&_filter=$startsWithi&idsToOmit[0]=1&page=1&pageSize=10`)).status).toBe(200);
      }
      // Well-formed ones still work.
      expect((await cm('superAdmin', 'GET', '/collection-types/api::ingredient.ingredient?filters[id][$gt]=0')).status).toBe(200);
      expect(
        (await cm('editor', 'GET', '/collection-types/api::ingredient.ingredient?filters[id][$between][0]=1&filters[id][$between][1]=9'))
          .status,
      ).toBe(200);
    });

    it('narrows the Editor to the site’s content at every start: a permission granted by hand does not survive', async () => {
      expect((await cm('editor', 'GET', '/collection-types/api::ingredient.ingredient')).status).toBe(200);
      expect((await cm('editor', 'GET', '/collection-types/api::subscription-plan.subscription-plan')).status).toBe(200);
      expect((await cm('editor', 'GET', '/single-types/api::privacy-policy.privacy-policy')).status).toBe(200);
      for (const uid of [USER, 'api::subscription.subscription', 'api::weight-entry.weight-entry']) {
        expect((await cm('editor', 'GET', `/collection-types/${uid}`)).status, uid).toBe(403);
      }
      // An administrator gives the Editor the members; the next start takes it back.
      const editorRole = (await app.strapi.db.query('admin::role').findOne({ where: { code: 'strapi-editor' } })) as { id: number };
      await app.strapi.db.query('admin::permission').create({
        data: {
          action: 'plugin::content-manager.explorer.read',
          subject: USER,
          properties: { fields: ['username', 'email'] },
          conditions: [],
          role: editorRole.id,
        },
      });
      expect((await cm('editor', 'GET', `/collection-types/${USER}`)).status).toBe(200);
      await narrowContentRoles(app.strapi);
      await narrowContentRoles(app.strapi);
      expect((await cm('editor', 'GET', `/collection-types/${USER}`)).status).toBe(403);
      const subjects = (await app.strapi.db.query('admin::permission').findMany({
        where: { role: editorRole.id, action: { $startsWith: 'plugin::content-manager.explorer.' } },
        select: ['subject'],
      })) as { subject: string }[];
      expect(subjects.length).toBeGreaterThan(0);
      for (const { subject } of subjects) expect(CONTENT_ROLE_SUBJECTS).toContain(subject);
    });

    it('shows operators the queue without bodies or addresses, and retries only what it can send unchanged', async () => {
      const queue = mailQueueOf(app.strapi);
      await queue.worker.drain();
      const plain = await queue.enqueue({ kind: 'other', to: `ops.reader${label}@example.org`, subject: 'Hello', text: 'Plain body' });
      const secret = await queue.enqueue({
        kind: 'reset',
        to: `ops.secret${label}@example.org`,
        subject: 'Code',
        text: 'Your reset code: OPS123',
      });
      for (const id of [plain, secret]) {
        await app.strapi.db.query(MESSAGE).update({
          where: { id },
          data: {
            status: 'failed',
            attempts: 8,
            last_error: `550 <ops.reader${label}@example.org> mailbox unavailable`,
            text: id === secret ? null : 'Plain body',
            html: null,
          },
        });
      }
      const printed = formatQueue(await listQueue(app.strapi, { status: 'failed' }));
      expect(printed).toContain(`#${plain}  failed  other  to @example.org  attempts 8`);
      expect(printed).toContain('550 <…@example.org> mailbox unavailable');
      expect(printed).not.toMatch(/ops\.(reader|secret)/);
      expect(printed).not.toContain('Plain body');

      await expect(retryMessage(app.strapi, secret)).rejects.toThrow(/held a secret/);
      await expect(retryMessage(app.strapi, 999_999)).rejects.toThrow(/no message/);
      await retryMessage(app.strapi, plain);
      await expect(retryMessage(app.strapi, plain)).rejects.toThrow(/is queued: only a failed message is retried/);
      await queue.worker.drain();
      const [email] = app.outbox.take(`ops.reader${label}@example.org`);
      expect(email.text).toBe('Plain body');
      expect(app.outbox.take(`ops.secret${label}@example.org`)).toEqual([]);
    });

    it(`prunes session rows that no longer work once older than the ${KNOWN_DEVICE_DAYS}-day recognition window, and keeps the rest`, async () => {
      const member = await register(`pruned${label}`);
      const now = Date.now();
      const old = new Date(now - (KNOWN_DEVICE_DAYS + 1) * DAY_MS);
      const recent = new Date(now - (KNOWN_DEVICE_DAYS - 1) * DAY_MS);
      const row = (name: string, issued: Date, extra: Record<string, unknown>) => ({
        sid: `${name}-${crypto.randomBytes(12).toString('hex')}`,
        member_id: member.id,
        device: 'Mac',
        browser: 'Firefox',
        issued_at: issued,
        last_active_at: issued,
        expires_at: null,
        revoked_at: null,
        ...extra,
      });
      const rows = [
        row('old-revoked', old, { revoked_at: old }),
        row('old-expired', old, { expires_at: new Date(now - DAY_MS) }),
        row('old-live', old, {}),
        row('old-unexpired', old, { expires_at: new Date(now + DAY_MS) }),
        row('recent-revoked', recent, { revoked_at: recent }),
        row('recent-expired', recent, { expires_at: new Date(now - DAY_MS) }),
      ];
      await app.strapi.db.query(SESSION).createMany({ data: rows });
      expect(await pruneSessions(app.strapi, now)).toBe(2);
      const names = new Map(rows.map((made) => [made.sid, made.sid.slice(0, made.sid.lastIndexOf('-'))]));
      const left = (
        (await app.strapi.db.query(SESSION).findMany({ where: { member_id: member.id }, select: ['sid'] })) as { sid: string }[]
      ).map((found) => names.get(found.sid) ?? 'sign-up');
      expect(left.sort()).toEqual(['old-live', 'old-unexpired', 'recent-expired', 'recent-revoked', 'sign-up']);
      // The member's own sign-in still works.
      expect((await request(app.baseUrl, 'GET', '/api/users/me', { token: member.jwt })).status).toBe(200);
    });
  });
}

adminPanelSuite('sqlite', { env: () => ({}) });

const schema = `carnivo_admin_${crypto.randomBytes(4).toString('hex')}`;
describe.skipIf(!pgReachable)('on PostgreSQL', () => {
  beforeAll(async () => {
    await withPostgres((client) => client.query(`CREATE SCHEMA "${schema}"`));
  });
  adminPanelSuite('postgres', {
    env: () => postgresEnv(schema),
    after: () => withPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)).then(() => undefined),
  });
});
