import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { missingServices, startCluster, type Cluster, type Instance } from '../helpers/instances';
import { monthlyPriceId } from '../helpers/strapi';

const require = createRequire(import.meta.url);
const sharp = require('sharp') as typeof import('sharp').default;

/**
 * `kill -9` of a server process in the middle of concurrent writes (docs/operations.md, "Crashes
 * and restarts"): members write their profile, weight entries, pictures and buy a subscription
 * (payment sandbox) at once; the process is SIGKILLed, started again, and then:
 * - every write the server acknowledged is there (re-read through the API and the database);
 * - no member is charged twice (paid invoices and paid subscriptions per member);
 * - no purchase attempt cut off by the kill blocks a new one (the member buys again);
 * - no half-written upload remains: every file on disk is named by a row, every row's files exist.
 */

const missing = await missingServices();
if (missing) console.warn(`[kill-instance.test] skipped: ${missing}`);

const USERS = 'plugin::users-permissions.user';
const MEMBERS = 8;
const BUYERS = 4;
/** Bounds of the write phase: per member, and in time before the kill. */
const MAX_ROUNDS = 30;
const WRITE_MS_BEFORE_KILL = 5_000;
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };

let cluster: Cluster;
let server: Instance;
let uploadsDir: string;
let priceId: string;

interface Member {
  id: number;
  jwt: string;
  buys: boolean;
  /** What the server acknowledged (2xx), and how far each kind of write went. */
  ackedNote: number;
  sentNote: number;
  ackedWeights: Map<string, number>;
  ackedPictures: number[];
  purchase: 'none' | 'sent' | 'created' | 'paid';
}
interface MediaFile {
  id: number;
  url: string;
  formats: Record<string, { url: string }> | null;
}

const dayBefore = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const auth = (member: Member) => ({ Authorization: `Bearer ${member.jwt}` });

/** The fields the test reads from the answers it gets. */
interface Answer {
  clientSecret?: string;
  subscriptionId?: string;
  status?: string;
  personal_goal_note?: string | null;
  profile_picture?: MediaFile | null;
  data?: unknown[];
}

/** Requests under way, by kind: how many the kill cut off. */
const inFlight = { profile: 0, weight: 0, upload: 0, purchase: 0 };
type Kind = keyof typeof inFlight;
async function counted<T>(kind: Kind, work: () => Promise<T>): Promise<T> {
  inFlight[kind] += 1;
  try {
    return await work();
  } finally {
    inFlight[kind] -= 1;
  }
}

/** One call; a network error (the process died under it) is `null`: not acknowledged. */
async function call(method: string, urlPath: string, member: Member, body?: unknown): Promise<{ status: number; body: Answer } | null> {
  try {
    const res = await fetch(server.baseUrl + urlPath, {
      method,
      headers: { ...auth(member), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    return { status: res.status, body: ((await res.json().catch(() => null)) ?? {}) as Answer };
  } catch {
    return null;
  }
}

async function uploadPicture(member: Member, bytes: Buffer): Promise<{ status: number; body: MediaFile[] } | null> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'me.png');
  form.append('refId', String(member.id));
  form.append('ref', USERS);
  form.append('field', 'profile_picture');
  try {
    const res = await fetch(`${server.baseUrl}/api/upload`, {
      method: 'POST',
      headers: auth(member),
      body: form,
      signal: AbortSignal.timeout(20_000),
    });
    return { status: res.status, body: (await res.json()) as MediaFile[] };
  } catch {
    return null;
  }
}

/**
 * A purchase attempt (each new one ends the member's earlier unpaid one), paid when `pay`:
 * create, pay (sandbox), verify; each acknowledgement moves `purchase` on.
 */
async function buy(member: Member, pay: boolean): Promise<void> {
  if (member.purchase === 'none') member.purchase = 'sent';
  const created = await counted('purchase', () => call('POST', '/api/subscriptions', member, { priceId }));
  if (created?.status !== 200) return;
  member.purchase = 'created';
  if (!pay) return;
  const paid = await counted('purchase', () =>
    call('POST', '/api/payments/sandbox/confirm', member, { clientSecret: created.body.clientSecret, ...CARD }),
  );
  if (paid?.status !== 200) return;
  member.purchase = 'paid';
  await call('GET', `/api/subscriptions/${created.body.subscriptionId}/verify`, member);
}

/** The member's writes, one after the other, until the process dies, `rounds` are done or time is up. */
async function write(member: Member, index: number, pictures: Buffer[], until: number, alive: () => boolean): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS && alive() && Date.now() < until + 2_000; round += 1) {
    const note = round + 1;
    member.sentNote = note;
    const put = await counted('profile', () => call('PUT', `/api/users/${member.id}`, member, { personal_goal_note: `note ${note}` }));
    if (put?.status === 200) member.ackedNote = note;

    const date = dayBefore(round + 1);
    const weight = 60 + index + round / 10;
    const entry = await counted('weight', () => call('POST', '/api/weight-entries', member, { date, weight }));
    if (entry && entry.status >= 200 && entry.status < 300) member.ackedWeights.set(date, weight);

    const picture = await counted('upload', () => uploadPicture(member, pictures[round % pictures.length]));
    if (picture?.status === 201) member.ackedPictures.push(picture.body[0].id);
  }
}

/** Buyers make purchase attempts over and over (each ends the one before), and pay the one of round `payAt`. */
async function buyRepeatedly(member: Member, payAt: number, until: number, alive: () => boolean): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS * 2 && alive() && Date.now() < until + 2_000 && member.purchase !== 'paid'; round += 1) {
    await buy(member, round === payAt);
  }
}

/** Files on disk that no committed row names yet: an upload between its files and its row. */
async function halfWrittenUploads(): Promise<number> {
  const rows = await cluster.sql<Pick<MediaFile, 'url' | 'formats'>>('SELECT url, formats FROM files');
  const named = new Set(rows.flatMap((row) => urlsOf(row).map((url) => path.basename(url))));
  return fs.readdirSync(uploadsDir).filter((name) => !name.startsWith('.') && !named.has(name)).length;
}

const urlsOf = (file: { url: string; formats: Record<string, { url: string }> | null }) => [
  file.url,
  ...Object.values(file.formats ?? {}).map((format) => format.url),
];

describe.skipIf(missing !== null)('kill -9 of an instance during concurrent writes (PostgreSQL, payment sandbox)', () => {
  beforeAll(async () => {
    // Sign-ups come from fresh client addresses (cluster.register): the auth limits stay out of the way.
    cluster = await startCluster(1, { UPLOAD_LIMIT_PER_HOUR: '1000' });
    [server] = cluster.instances;
    uploadsDir = path.join(cluster.publicDir, 'uploads');
    priceId = await monthlyPriceId(server.baseUrl);
  }, 240_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('keeps every acknowledged write, charges nobody twice, blocks no purchase and leaves no half-written upload', async () => {
    const members: Member[] = [];
    for (let i = 0; i < MEMBERS; i += 1) {
      const { id, jwt } = await cluster.register(server, `kill${crypto.randomBytes(4).toString('hex')}`);
      members.push({
        id,
        jwt,
        buys: i < BUYERS,
        ackedNote: 0,
        sentNote: 0,
        ackedWeights: new Map(),
        ackedPictures: [],
        purchase: 'none',
      });
    }
    const pictures = await Promise.all(
      ['#b22222', '#228b22', '#1e90ff'].map((background) =>
        sharp({ create: { width: 480, height: 360, channels: 3, background } })
          .png()
          .toBuffer(),
      ),
    );

    // Write; after a warm-up, kill -9 at a moment an upload is half written (files without their row)
    // and a purchase is under way, or at the deadline whatever is under way; let the writers see it.
    const killAt = Date.now() + WRITE_MS_BEFORE_KILL;
    let killed = false;
    const alive = () => !killed;
    const writers = [
      ...members.map((member, i) => write(member, i, pictures, killAt, alive)),
      ...members.filter((member) => member.buys).map((member, i) => buyRepeatedly(member, 2 + 3 * i, killAt, alive)),
    ];
    await new Promise((resolve) => setTimeout(resolve, WRITE_MS_BEFORE_KILL / 2));
    let halfWrittenAtKill = 0;
    while (Date.now() < killAt) {
      halfWrittenAtKill = await halfWrittenUploads();
      if (halfWrittenAtKill > 0 && inFlight.purchase > 0) break;
    }
    server.child.kill('SIGKILL');
    killed = true;
    const cutOff = { ...inFlight };
    await server.exited;
    await Promise.all(writers);

    const recoveryMs = await cluster.restart(server);
    const log = fs.readFileSync(server.logFile, 'utf8');
    const swept = /removed (\d+) file\(s\) of uploads interrupted/.exec(log)?.[1] ?? '0';
    const sweptReplaced = /removed (\d+) replaced picture\(s\) left behind/.exec(log)?.[1] ?? '0';

    // Every acknowledged write is there.
    let acknowledged = 0;
    let lost = 0;
    let duplicated = 0;
    const lostWhat: string[] = [];
    for (const member of members) {
      const me = await call('GET', '/api/users/me?populate=*', member);
      expect(me?.status).toBe(200);
      const note = Number(/^note (\d+)$/.exec(me!.body.personal_goal_note ?? '')?.[1] ?? 0);
      // A write in flight at the kill may or may not have landed; one acknowledged must have.
      if (member.ackedNote > 0) acknowledged += 1;
      if (note < member.ackedNote || note > member.sentNote) {
        lost += 1;
        lostWhat.push(`member ${member.id}: note ${note}, acknowledged ${member.ackedNote}`);
      }

      const entries = (await call('GET', '/api/weight-entries', member))!.body.data as { date: string; weight: number }[];
      const perDay = new Map<string, number>();
      for (const entry of entries) perDay.set(entry.date, (perDay.get(entry.date) ?? 0) + 1);
      duplicated += [...perDay.values()].filter((count) => count > 1).length;
      for (const [date, weight] of member.ackedWeights) {
        acknowledged += 1;
        if (!entries.some((entry) => entry.date === date && entry.weight === weight)) {
          lost += 1;
          lostWhat.push(`member ${member.id}: weight entry ${date}`);
        }
      }

      const lastPicture = member.ackedPictures.at(-1);
      if (lastPicture !== undefined) {
        acknowledged += member.ackedPictures.length;
        // The newest acknowledged picture, or one sent after it, is the member's picture.
        const current = me!.body.profile_picture ?? null;
        if (!current || current.id < lastPicture) {
          lost += 1;
          lostWhat.push(`member ${member.id}: picture ${current?.id ?? 'none'}, acknowledged ${lastPicture}`);
        }
      }
    }

    // Pictures: one row per member, and disk and rows agree (no half-written upload).
    const rows = await cluster.sql<MediaFile & { owner_member_id: number }>(
      'SELECT id, url, formats, owner_member_id FROM files ORDER BY id',
    );
    for (const member of members.filter((candidate) => candidate.ackedPictures.length > 0)) {
      expect(rows.filter((row) => Number(row.owner_member_id) === member.id).length, `file rows of member ${member.id}`).toBe(1);
    }
    const named = new Set(rows.flatMap((row) => urlsOf(row).map((url) => path.basename(url))));
    const onDisk = fs.readdirSync(uploadsDir).filter((name) => !name.startsWith('.'));
    const strayFiles = onDisk.filter((name) => !named.has(name));
    const missingFiles = [...named].filter((name) => !onDisk.includes(name));

    // Purchases: nobody charged twice; an acknowledged payment is there; nothing blocks buying again.
    let charged = 0;
    let boughtAgain = 0;
    for (const member of members.filter((candidate) => candidate.buys)) {
      const invoices = (await call('GET', '/api/subscriptions/invoices', member))!.body.data as { status: string }[];
      const paidInvoices = invoices.filter((invoice) => invoice.status === 'paid').length;
      expect(paidInvoices, `paid invoices of member ${member.id}`).toBeLessThanOrEqual(1);
      const current = (await call('GET', '/api/subscriptions/current', member))!.body;
      if (member.purchase === 'paid') {
        acknowledged += 1;
        expect(current?.status).toBe('active');
      }
      if (current?.status === 'active') {
        charged += 1;
        expect(paidInvoices).toBe(1);
        continue;
      }
      // Cut off before its payment: the member buys again, once, at once.
      const again = await call('POST', '/api/subscriptions', member, { priceId });
      expect(again?.status, JSON.stringify(again?.body)).toBe(200);
      const paid = await call('POST', '/api/payments/sandbox/confirm', member, { clientSecret: again!.body.clientSecret, ...CARD });
      expect(paid?.status).toBe(200);
      boughtAgain += 1;
      const after = (await call('GET', '/api/subscriptions/invoices', member))!.body.data as { status: string }[];
      expect(after.filter((invoice) => invoice.status === 'paid')).toHaveLength(1);
    }
    const paidSubscriptions = await cluster.sql<{ user_id: number; n: number }>(
      `SELECT l.user_id, count(*)::int AS n FROM subscriptions s
         JOIN subscriptions_user_lnk l ON l.subscription_id = s.id
        WHERE s.status NOT IN ('incomplete', 'incomplete_expired', 'canceled') GROUP BY l.user_id`,
    );
    const chargedTwice = paidSubscriptions.filter((row) => row.n > 1).length;

    console.info(
      `[kill-instance] cut off by the kill: ${JSON.stringify(cutOff)}, ${halfWrittenAtKill} upload file(s) without their row; ` +
        `acknowledged ${acknowledged}, lost ${lost}, duplicated ${duplicated}; recovery (restart to ready) ${recoveryMs} ms; ` +
        `purchases: ${charged} paid before the kill, ${boughtAgain} bought again after it, charged twice ${chargedTwice}; ` +
        `uploads: ${swept} interrupted upload file(s) and ${sweptReplaced} replaced picture(s) swept at start, ${onDisk.length} files on disk, ${strayFiles.length} without a row, ` +
        `${missingFiles.length} rows' files missing`,
    );
    expect(acknowledged).toBeGreaterThan(0);
    expect(lostWhat).toEqual([]);
    expect(duplicated).toBe(0);
    expect(chargedTwice).toBe(0);
    expect(strayFiles).toEqual([]);
    expect(missingFiles).toEqual([]);
  });
});
