import type { Core } from '@strapi/strapi';
import { isDraining } from './shutdown';
import { redisReady } from '../security/limits';

export type Check = 'ok' | 'failing' | 'not configured';

export interface Readiness {
  ready: boolean;
  draining: boolean;
  database: Check;
  redis: Check;
}

const within = <T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> =>
  Promise.race([promise, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms).unref())]);

/** Whether this instance should get traffic: the database answers and it is not draining (GET /api/health/ready, the metrics). */
export async function readiness(strapi: Core.Strapi): Promise<Readiness> {
  const database: Check = await within(
    strapi.db.connection.raw('select 1').then(
      (): Check => 'ok',
      (): Check => 'failing',
    ),
    2_000,
    'failing',
  );
  const redisUp = await within(redisReady(), 2_000, false);
  const redis: Check = redisUp === null ? 'not configured' : redisUp ? 'ok' : 'failing';
  const draining = isDraining();
  // Redis failing does not take the instance out: limits fail open (src/security/limits.ts).
  return { ready: database === 'ok' && !draining, draining, database, redis };
}
