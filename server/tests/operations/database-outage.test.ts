import { describe, it, expect } from 'vitest';
import { isDatabaseUnavailable, surviveOutageRejections } from '../../src/operations/database-outage';

/** Which errors mean "the database cannot be reached now" (503) and which are the query's own (left alone). */

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('recognises what knex and node-postgres throw when PostgreSQL is away, stopping or starting', () => {
    const unavailable = [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('connection failure', '08006'),
      withCode('sorry, too many clients already', '53300'),
      new Error('select "t0".* from "up_users" as "t0" - Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }),
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'connect failed'),
      new Error('could not save', { cause: withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED') }),
    ];
    for (const error of unavailable) expect(isDatabaseUnavailable(error), error.message).toBe(true);
  });

  it('leaves a query error, a constraint and anything that is not an error to the route', () => {
    const own = [
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('syntax error at or near "selec"', '42601'),
      withCode('relation "nope" does not exist', '42P01'),
      new Error('Invalid credentials'),
    ];
    for (const error of own) expect(isDatabaseUnavailable(error), error.message).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});

describe('a rejection no request awaited, during an outage', () => {
  it('is logged and noted, not fatal; any other rejection stays fatal', () => {
    const logged: string[] = [];
    const before = process.listeners('unhandledRejection');
    const remove = surviveOutageRejections((message) => logged.push(message));
    const added = process.listeners('unhandledRejection').find((listener) => !before.includes(listener));
    try {
      expect(added).toBeDefined();
      const outage = new Error('select distinct "t0".* from "components_profile_bmis" - Connection terminated unexpectedly');
      expect(() => added!(outage, Promise.resolve())).not.toThrow();
      expect(logged).toEqual([`[database] a query no request awaited failed while the database is away: ${outage.message}`]);
      const bug = new TypeError('row.bmi is not a function');
      expect(() => added!(bug, Promise.resolve())).toThrow(bug);
      expect(logged).toHaveLength(1);
    } finally {
      remove();
    }
    expect(process.listeners('unhandledRejection')).toEqual(before);
  });
});
