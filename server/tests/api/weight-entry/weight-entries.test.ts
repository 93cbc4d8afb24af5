import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../../helpers/app';
import type { Member } from '../../helpers/members';
import { request } from '../../helpers/strapi';
import type { ApiError } from '../../helpers/types';
import {
  latestEntryDate,
  progressMessages,
  utcDate,
  type WeightEntriesResponse,
  type WeightEntryResponse,
} from '../../../src/contract/progress';
import { profileMessages } from '../../../src/contract/profileRules';
import { setupProgress } from '../../../src/bootstrap/progress';

/**
 * Issue 12, weight history: GET/POST /api/weight-entries, DELETE /api/weight-entries/:id (own
 * entries only, 30-300 kg, not in the future, one a day), the entry a new current weight records
 * through PUT /api/users/:id, the unit and reminder settings, and account deletion.
 */

let app: TestApp;

let counter = 0;
const register = (prefix: string) => app.register(`${prefix}${++counter}`);

const list = async (member: Member) => {
  const res = await request<WeightEntriesResponse>(app.baseUrl, 'GET', '/api/weight-entries', { token: member.jwt });
  expect(res.status).toBe(200);
  return res.body.data;
};
const post = (member: Member | null, body: unknown) =>
  request<WeightEntryResponse & Pick<ApiError, 'error'>>(app.baseUrl, 'POST', '/api/weight-entries', { body, token: member?.jwt });
const remove = (member: Member | null, id: number | string) =>
  request<{ ok: true } & Pick<ApiError, 'error'>>(app.baseUrl, 'DELETE', `/api/weight-entries/${id}`, { token: member?.jwt });
const put = (member: Member, body: unknown) =>
  request<Record<string, unknown> & ApiError>(app.baseUrl, 'PUT', `/api/users/${member.id}`, { body, token: member.jwt });
const me = async (member: Member) => {
  const res = await request<Record<string, unknown> & { bmi: { currentWeight: number } | null }>(
    app.baseUrl,
    'GET',
    '/api/users/me?populate=*',
    {
      token: member.jwt,
    },
  );
  expect(res.status).toBe(200);
  return res.body;
};
/** Every stored entry row, whoever owns it (the database, not the API). */
const allRows = () =>
  app.strapi.db.query('api::weight-entry.weight-entry').findMany({ populate: ['user'] }) as Promise<
    { id: number; day_key: string; user: { id: number } | null }[]
  >;

const daysFromToday = (days: number) => utcDate(new Date(Date.now() + days * 86_400_000));
const bmi = (currentWeight: number) => ({
  currentWeight,
  height: 180,
  Gender: 'Male',
  date_of_birth: '1990-05-01',
  idealBmiWeight: '72.9',
});

beforeAll(async () => {
  // Several sign-ups from one address: the auth rate limit is not what is tested here.
  app = await boot({ outbox: true, limits: 'off' });
});

afterAll(async () => {
  await app?.stop();
});

describe('weight entries: access', () => {
  it('answers 401 Not authenticated without a token, on every route', async () => {
    for (const res of [
      await request<ApiError>(app.baseUrl, 'GET', '/api/weight-entries'),
      await post(null, { date: daysFromToday(0), weight: 80 }),
      await remove(null, 1),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.error.message).toBe('Not authenticated');
    }
  });

  it("never shows or deletes another member's entries (the victim's are re-read)", async () => {
    const alice = await register('alice');
    const bob = await register('bob');
    const created = await post(alice, { date: daysFromToday(-3), weight: 82.5 });
    expect(created.status).toBe(201);
    const aliceEntry = created.body.data;

    expect(await list(bob)).toEqual([]);

    const attack = await remove(bob, aliceEntry.id);
    expect(attack.status).toBe(404);
    expect(attack.body.error.message).toBe(progressMessages.entryNotFound);
    expect(await list(alice)).toEqual([aliceEntry]);

    // Bob cannot write into Alice's history either: the owner is always the token's member.
    const forged = await post(bob, { date: daysFromToday(-3), weight: 31, user: alice.id });
    expect(forged.status).toBe(400);
    expect(forged.body.error.message).toBe(progressMessages.entryUnknownField(['user']));
    const ownDay = await post(bob, { date: daysFromToday(-3), weight: 90 });
    expect(ownDay.status).toBe(201);
    expect(ownDay.body.data.id).not.toBe(aliceEntry.id);
    expect(await list(alice)).toEqual([aliceEntry]);

    expect((await remove(alice, aliceEntry.id)).status).toBe(200);
    expect(await list(alice)).toEqual([]);
    expect(await list(bob)).toEqual([ownDay.body.data]);
    expect((await remove(alice, aliceEntry.id)).status).toBe(404);
    for (const id of ['abc', '0', '-1', '1.5', '99999999999', '2147483648']) {
      const res = await remove(alice, id);
      expect(res.status, id).toBe(404);
    }
    expect(await list(bob)).toEqual([ownDay.body.data]);
  });
});

describe('weight entries: rules', () => {
  let member: Member;
  beforeAll(async () => {
    member = await register('rules');
  });

  it('refuses weights outside 30-300 kg, bad dates and future dates with the contract messages', async () => {
    const today = daysFromToday(0);
    const cases: [unknown, string][] = [
      [{ date: today, weight: 29.9 }, progressMessages.entryWeight],
      [{ date: today, weight: 300.1 }, progressMessages.entryWeight],
      [{ date: today, weight: 'eighty' }, progressMessages.entryWeight],
      [{ date: today, weight: null }, progressMessages.entryWeight],
      [{ date: today }, progressMessages.entryWeight],
      [{ date: '2024-02-30', weight: 80 }, progressMessages.entryDate],
      [{ date: '1899-12-31', weight: 80 }, progressMessages.entryDate],
      [{ date: '12/01/2024', weight: 80 }, progressMessages.entryDate],
      [{ date: 20240101, weight: 80 }, progressMessages.entryDate],
      [{ weight: 80 }, progressMessages.entryDate],
      [{ date: daysFromToday(2), weight: 80 }, progressMessages.entryDateFuture],
      [{ date: today, weight: 80, id: 1 }, progressMessages.entryUnknownField(['id'])],
    ];
    for (const [body, message] of cases) {
      const res = await post(member, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toBe(message);
    }
    expect(await list(member)).toEqual([]);
    expect(progressMessages.entryWeight).toBe('Weight must be between 30-300 kg');
  });

  it('accepts the limits, and today in the time zone furthest ahead (UTC+14), oldest first', async () => {
    const latest = latestEntryDate(new Date());
    const a = await post(member, { date: latest, weight: 300 });
    const b = await post(member, { date: '2000-01-01', weight: 30 });
    const c = await post(member, { date: daysFromToday(-1), weight: '72.5' });
    for (const res of [a, b, c]) expect(res.status).toBe(201);
    expect((await list(member)).map(({ date, weight }) => [date, weight])).toEqual([
      ['2000-01-01', 30],
      [daysFromToday(-1), 72.5],
      [latest, 300],
    ]);
  });

  it('keeps one entry a day: a second entry for the day replaces the first (same id)', async () => {
    const day = daysFromToday(-10);
    const first = await post(member, { date: day, weight: 80 });
    expect(first.status).toBe(201);
    expect(first.body.replaced).toBe(false);
    const second = await post(member, { date: day, weight: 79.4 });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ data: { id: first.body.data.id, date: day, weight: 79.4 }, replaced: true });
    expect((await list(member)).filter((entry) => entry.date === day)).toEqual([second.body.data]);
  });

  it('keeps one entry a day when many arrive at once', async () => {
    const day = daysFromToday(-20);
    const weights = [70, 71, 72, 73, 74, 75, 76, 77];
    const answers = await Promise.all(weights.map((weight) => post(member, { date: day, weight })));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    const ofDay = (await list(member)).filter((entry) => entry.date === day);
    expect(ofDay).toHaveLength(1);
    expect(weights).toContain(ofDay[0].weight);
    expect(new Set(answers.map((res) => res.body.data.id))).toEqual(new Set([ofDay[0].id]));
  });
});

describe('a new current weight through PUT /api/users/:id', () => {
  let member: Member;
  beforeAll(async () => {
    member = await register('weigher');
  });

  it("records today's entry (UTC) when the weight changes, and replaces it on the next change", async () => {
    const today = daysFromToday(0);
    expect((await put(member, { bmi: bmi(88) })).status).toBe(200);
    expect((await list(member)).map(({ date, weight }) => [date, weight])).toEqual([[today, 88]]);

    expect((await put(member, { bmi: bmi(87.2) })).status).toBe(200);
    expect((await list(member)).map(({ date, weight }) => [date, weight])).toEqual([[today, 87.2]]);
  });

  it('records nothing when the weight does not change (other fields, or the same weight again)', async () => {
    const today = daysFromToday(0);
    // The member corrected today's entry by hand; saving the profile with the same current weight keeps it.
    expect((await post(member, { date: today, weight: 86 })).status).toBe(200);
    expect((await put(member, { bmi: { ...bmi(87.2), height: 181 } })).status).toBe(200);
    expect((await put(member, { goal_weight: 75 })).status).toBe(200);
    expect((await list(member)).map(({ date, weight }) => [date, weight])).toEqual([[today, 86]]);
  });

  it('records nothing when the update is refused, before or inside the save (both or neither)', async () => {
    const other = await register('taken');
    const before = await list(member);

    const outOfRange = await put(member, { bmi: bmi(301) });
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.body.error.message).toBe(profileMessages.weightRange);

    // Strapi's own controller refuses the taken e-mail after the guard: the transaction rolls back.
    const taken = await put(member, { email: other.email, currentPassword: member.password, bmi: bmi(70) });
    expect(taken.status).toBe(400);
    expect(taken.body.error.message).toBe('Email is already taken');

    expect(await list(member)).toEqual(before);
    expect((await me(member)).bmi?.currentWeight).toBe(87.2);
  });
});

describe('unit_system and reminders_enabled on the user', () => {
  it('default to metric and on, are saved by PUT /api/users/:id and returned by /api/users/me', async () => {
    const member = await register('units');
    expect(await me(member)).toMatchObject({ unit_system: 'metric', reminders_enabled: true });

    const saved = await put(member, { unit_system: 'imperial', reminders_enabled: false });
    expect(saved.status).toBe(200);
    expect(await me(member)).toMatchObject({ unit_system: 'imperial', reminders_enabled: false });

    expect((await put(member, { unit_system: 'metric', reminders_enabled: true })).status).toBe(200);
    expect(await me(member)).toMatchObject({ unit_system: 'metric', reminders_enabled: true });
  });

  it('are filled in at start-up for members from before they existed (the columns were added empty)', async () => {
    const member = await register('older');
    const users = app.strapi.db.query('plugin::users-permissions.user');
    await users.update({ where: { id: member.id }, data: { unit_system: null, reminders_enabled: null } });
    await setupProgress(app.strapi);
    expect(await me(member)).toMatchObject({ unit_system: 'metric', reminders_enabled: true });
  });

  it('refuses other values with the contract messages and saves nothing', async () => {
    const member = await register('badunits');
    const cases: [unknown, string][] = [
      [{ unit_system: 'stones' }, profileMessages.unitSystem],
      [{ unit_system: null }, profileMessages.unitSystem],
      [{ unit_system: 'imperial', reminders_enabled: 'no' }, profileMessages.remindersEnabled],
      [{ reminders_enabled: 0 }, profileMessages.remindersEnabled],
      [{ reminders_enabled: null }, profileMessages.remindersEnabled],
    ];
    for (const [body, message] of cases) {
      const res = await put(member, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toBe(message);
    }
    expect(await me(member)).toMatchObject({ unit_system: 'metric', reminders_enabled: true });
  });
});

describe('account deletion', () => {
  it("removes the member's entries and no one else's", async () => {
    const leaving = await register('leaving');
    const staying = await register('staying');
    for (const days of [-2, -1, 0]) {
      expect((await post(leaving, { date: daysFromToday(days), weight: 90 + days })).status).toBe(201);
    }
    expect((await put(leaving, { bmi: bmi(85) })).status).toBe(200);
    expect((await post(staying, { date: daysFromToday(-1), weight: 60 })).status).toBe(201);
    const stayingBefore = await list(staying);
    expect((await allRows()).filter((row) => row.user?.id === leaving.id)).toHaveLength(3);

    const deleted = await request<{ ok: boolean }>(app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', {
      token: leaving.jwt,
    });
    expect(deleted.status).toBe(200);

    const rows = await allRows();
    expect(rows.filter((row) => row.user?.id === leaving.id || row.day_key.startsWith(`${leaving.id}:`))).toEqual([]);
    expect(await list(staying)).toEqual(stayingBefore);
  });
});
