import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { progressMessages, weightEntryBodySchema } from '../../../contract/progress';
import { validBody } from '../../../validated-body';
import type { MemberContext } from '../../../request-context';
import type { WeightEntryService } from '../services/weight-entry';

const { NotFoundError } = errors;
/** The largest id of a PostgreSQL integer column. */
const MAX_ID = 2_147_483_647;

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const service = () => strapi.service('api::weight-entry.weight-entry') as unknown as WeightEntryService;

  return {
    /** GET /api/weight-entries: the member's own entries, oldest first. */
    async find(ctx: MemberContext) {
      ctx.body = { data: await service().list(ctx.state.user.id) };
    },

    /** POST /api/weight-entries { date, weight }: 201 with a new entry, 200 when it replaced the day's entry. */
    async create(ctx: MemberContext) {
      const { date, weight } = validBody(weightEntryBodySchema(), ctx.request.body);
      const { entry, replaced } = await service().record(ctx.state.user.id, date, weight);
      ctx.status = replaced ? 200 : 201;
      ctx.body = { data: entry, replaced };
    },

    /** DELETE /api/weight-entries/:id: own entries only; any other id is not found. */
    async delete(ctx: MemberContext) {
      const id = /^[1-9]\d{0,9}$/.test(String(ctx.params.id)) ? Number(ctx.params.id) : NaN;
      // Anything but an id an integer column can hold cannot be an entry (and must not reach the database).
      if (!(id <= MAX_ID)) throw new NotFoundError(progressMessages.entryNotFound);
      await service().remove(ctx.state.user.id, id);
      ctx.body = { ok: true };
    },
  };
};
