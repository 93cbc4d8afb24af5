import { describe, expect, it } from 'vitest';
import { PASSWORD_HASH_COST, passwordHashCost } from '../../src/security/password-hash';
import { NO_ACCOUNT_HASH } from '../../src/security/login-throttle';
import { boot } from '../helpers/app';

describe("bcrypt's cost for members' passwords", () => {
  it('is 10 wherever it is not a test, whatever the environment says', () => {
    expect(PASSWORD_HASH_COST).toBe(10);
    for (const NODE_ENV of ['production', 'development', undefined]) {
      expect(passwordHashCost({ NODE_ENV, TEST_PASSWORD_HASH_COST: '4' })).toBe(10);
    }
    // The log-in throttle's stand-in hash for unknown identifiers costs what a real check costs.
    expect(Number(NO_ACCOUNT_HASH.split('$')[2])).toBe(PASSWORD_HASH_COST);
  });

  it('may be lowered for tests only, to no less than 4 and no more than 10', () => {
    expect(passwordHashCost({ NODE_ENV: 'test', TEST_PASSWORD_HASH_COST: '4' })).toBe(4);
    expect(passwordHashCost({ NODE_ENV: 'test' })).toBe(10);
    for (const wrong of ['3', '11', '4.5', 'low', ''])
      expect(passwordHashCost({ NODE_ENV: 'test', TEST_PASSWORD_HASH_COST: wrong })).toBe(10);
  });

  it('reaches the plugin: a member signed up in a test server is hashed at the test cost, and logs in', async () => {
    const app = await boot({ limits: 'raised' });
    try {
      const member = await app.register('hashcost');
      const row = (await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id: member.id } })) as {
        password: string;
      };
      expect(row.password).toMatch(/^\$2[aby]\$04\$/);
      expect((await app.login(member.email, member.password)).status).toBe(200);
    } finally {
      await app.stop();
    }
  });
});
