import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Knex } from 'knex';
import { UID } from '../../../content-types';
import { progressMessages, type WeightEntry } from '../../../contract/progress';

interface EntryRow {
  id: number;
  date: string | Date;
  weight: number | string;
}

// PostgreSQL hands decimals back as strings and may hand dates back as Date objects.
const toEntry = (row: EntryRow): WeightEntry => ({
  id: row.id,
  date: row.date instanceof Date ? row.date.toISOString().slice(0, 10) : String(row.date).slice(0, 10),
  weight: Number(row.weight),
});

/** The unique key of a member's day: the database refuses a second entry for it. */
const dayKey = (userId: number, date: string) => `${userId}:${date}`;

export interface WeightEntryService {
  list(userId: number): Promise<WeightEntry[]>;
  record(userId: number, date: string, weight: number): Promise<{ entry: WeightEntry; replaced: boolean }>;
  remove(userId: number, id: number): Promise<void>;
  removeAll(userId: number): Promise<number>;
}

/** The weight history (issue 12): own entries only, one per day. Routes: routes/weight-entry.ts. */
export default ({ strapi }: { strapi: Core.Strapi }): WeightEntryService => {
  const entries = () => strapi.db.query(UID.weightEntry);

  /**
   * Locks the member's row until the transaction ends, so that two writes of the same day (two
   * tabs, two instances) run one after the other: the second sees the first's entry and replaces it.
   * SQLite has no row locks; a write takes the database's write lock instead.
   */
  async function lockMember(userId: number, trx: Knex.Transaction): Promise<boolean> {
    const { tableName } = strapi.db.metadata.get(UID.user);
    const row = strapi.db.getConnection(tableName).transacting(trx).where('id', userId);
    if (strapi.db.dialect.client === 'sqlite') return (await row.update({ id: strapi.db.connection.ref('id') })) > 0;
    return (await row.forUpdate().select('id')).length > 0;
  }

  return {
    /** The member's entries, oldest first. */
    async list(userId) {
      const rows = (await entries().findMany({
        where: { user: { id: userId } },
        select: ['id', 'date', 'weight'],
        orderBy: [{ date: 'asc' }, { id: 'asc' }],
      })) as EntryRow[];
      return rows.map(toEntry);
    },

    /**
     * Saves the member's weight for the day: a new entry, or the day's entry with the new weight.
     * Joins the caller's transaction when there is one (the profile update records its weight so).
     */
    async record(userId, date, weight) {
      return strapi.db.transaction(async ({ trx }) => {
        if (!(await lockMember(userId, trx))) throw new errors.NotFoundError('Account not found');
        const key = dayKey(userId, date);
        const existing = (await entries().findOne({ where: { day_key: key }, select: ['id'] })) as { id: number } | null;
        if (existing) {
          const row = (await entries().update({ where: { id: existing.id }, data: { weight } })) as EntryRow;
          return { entry: toEntry(row), replaced: true };
        }
        const row = (await entries().create({ data: { user: userId, date, weight, day_key: key } })) as EntryRow;
        return { entry: toEntry(row), replaced: false };
      });
    },

    /** Deletes one of the member's entries; someone else's (or none) is not found, and nothing is deleted. */
    async remove(userId, id) {
      const own = (await entries().findOne({ where: { id, user: { id: userId } }, select: ['id'] })) as { id: number } | null;
      if (!own) throw new errors.NotFoundError(progressMessages.entryNotFound);
      await entries().delete({ where: { id: own.id } });
    },

    /** Account deletion: every entry of the member. */
    async removeAll(userId) {
      const rows = (await entries().findMany({ where: { user: { id: userId } }, select: ['id'] })) as { id: number }[];
      if (rows.length === 0) return 0;
      const { count } = await entries().deleteMany({ where: { id: { $in: rows.map((row) => row.id) } } });
      return count;
    },
  };
};
