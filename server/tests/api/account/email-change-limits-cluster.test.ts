import { describe, it, beforeAll, afterAll } from 'vitest';
import { missingServices, startCluster, type Cluster } from '../../helpers/instances';
import { RAISED_LIMITS } from '../../helpers/app';
import { request } from '../../helpers/strapi';
import { createOutboxReader } from '../../helpers/outbox';
import {
  burstFromOneMember,
  hostileAddressesRefused,
  oneMemberManyAddresses,
  twoMembersShareTheAddressBudget,
  type AttackSurface,
} from '../../helpers/email-change-attacks';

/**
 * The e-mail change attacks of email-change-limits.test.ts on two instances sharing one PostgreSQL
 * database and one Redis (the limits' counters): requests are spread over both, so a limit that was
 * counted per process would let twice as many through.
 */

const missing = await missingServices();
if (missing) console.warn(`[email-change-limits-cluster.test] skipped: ${missing}`);

let cluster: Cluster;

const countOf = async (sql: string, values: unknown[] = []) => Number((await cluster.sql<{ n: string }>(sql, values))[0].n);

const surface: AttackSurface = {
  register: (i, username) => cluster.register(cluster.instances[i % cluster.instances.length], username),
  async call(i, method, urlPath, options = {}) {
    const instance = cluster.instances[i % cluster.instances.length];
    const res = await request<{ error?: { message: string } }>(instance.baseUrl, method, urlPath, options);
    return {
      status: res.status,
      message: res.body?.error?.message,
      retryAfter: res.headers.get('retry-after') ?? undefined,
      body: res.body,
    };
  },
  queuedTo: (address, kind) =>
    kind
      ? countOf('SELECT count(*) AS n FROM email_messages WHERE "to" = $1 AND kind = $2', [address, kind])
      : countOf('SELECT count(*) AS n FROM email_messages WHERE "to" = $1', [address]),
  queued: () => countOf('SELECT count(*) AS n FROM email_messages'),
  async deliveredTo(address) {
    // The workers of both instances deliver; wait until nothing for this address is left to send.
    const deadline = Date.now() + 30_000;
    while ((await countOf(`SELECT count(*) AS n FROM email_messages WHERE "to" = $1 AND status IN ('queued', 'sending')`, [address])) > 0) {
      if (Date.now() > deadline) throw new Error(`mail to ${address} still queued after 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return createOutboxReader(cluster.outboxDir).take(address).length;
  },
  stored: async (id) =>
    (
      await cluster.sql<{ email: string; pending_email: string | null }>('SELECT email, pending_email FROM up_users WHERE id = $1', [id])
    )[0],
  accountsWith: (email) => countOf('SELECT count(*) AS n FROM up_users WHERE email = $1', [email]),
};

describe.skipIf(missing !== null)('e-mail change limits on two instances sharing PostgreSQL and Redis', () => {
  beforeAll(async () => {
    // The attacks come from 127.0.0.1: the auth routes' limits raised out of their way (the e-mail change's own are under test).
    cluster = await startCluster(2, { EMAIL_POLL_MS: '200', ...RAISED_LIMITS });
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('20 concurrent requests of one member for one address, spread over both: 3 go through, 3 mails reach it', () =>
    burstFromOneMember(surface));

  it('two members on different instances aiming at one address share its daily budget', () => twoMembersShareTheAddressBudget(surface));

  it('other addresses do not give a member a fresh budget', () => oneMemberManyAddresses(surface));

  it('the addresses of the issue are refused with 400 on every route of both instances; nothing is saved or queued', () =>
    hostileAddressesRefused(surface, [
      'a,b@example.com',
      '<script>x</script>@example.com',
      'x@example.com>',
      'a;b@example.com',
      '"a"@example.com',
    ]));
});
