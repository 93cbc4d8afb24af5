import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { missingServices, startCluster, type Cluster } from '../helpers/instances';
import { ACCOUNT_BUDGET, BURST, LOCKED_CODES, LOCKED_LOG_IN, TICKET_BUDGET, bursts, clusterTarget } from '../helpers/guess-bursts';

/**
 * Count first, then check (docs/security.md#rate-limits), on two server processes sharing one
 * PostgreSQL schema and one Redis: 60 concurrent wrong guesses, spread over both instances, get no
 * more checks than the one budget of the account (or of the ticket). A guess was checked when its
 * answer says "wrong"; every other answer must be the lock's 429 (or, on a spent ticket, 401). Then the
 * right secret is refused on both, and the victim's rows are re-read unchanged.
 */

const missing = await missingServices();
if (missing) console.warn(`[guess-budget-cluster.test] skipped: ${missing}`);

let cluster: Cluster;
let scenarios: ReturnType<typeof bursts>;

describe.skipIf(missing !== null)(`${BURST} concurrent wrong guesses over two instances (PostgreSQL, Redis)`, () => {
  beforeAll(async () => {
    cluster = await startCluster(2);
    scenarios = bursts(clusterTarget(cluster));
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('password log-in: at most the budget is checked, an unknown identifier is answered alike, the right password is refused', async () => {
    const result = await scenarios.logIn();
    console.log(`[guess-budget-cluster] log-in: ${result.known.checked} answered wrong, ${result.known.refused} locked`);
    expect(result.known).toEqual({ checked: ACCOUNT_BUDGET, refused: BURST - ACCOUNT_BUDGET, other: [] });
    expect(result.unknown).toEqual(result.known);
    expect(result.right.status).toBe(429);
    expect(result.right.body.error?.message).toMatch(LOCKED_LOG_IN);
    expect(result.right.body.jwt).toBeUndefined();
    expect(result.sessionsAfter).toBe(result.sessionsBefore);
  });

  it('change-password: the current password is counted before it is checked; the password is unchanged', async () => {
    const result = await scenarios.changePassword();
    console.log(`[guess-budget-cluster] change-password: ${result.checked} answered wrong, ${result.refused} locked`);
    expect(result).toMatchObject({ checked: ACCOUNT_BUDGET, refused: BURST - ACCOUNT_BUDGET, other: [] });
    expect(result.right.status).toBe(429);
    expect(result.after).toEqual(result.before);
  });

  it('e-mail change: the current password is counted before it is checked; nothing is pending, the address is unchanged', async () => {
    const result = await scenarios.emailChange();
    console.log(`[guess-budget-cluster] e-mail change: ${result.checked} answered wrong, ${result.refused} locked`);
    expect(result).toMatchObject({ checked: ACCOUNT_BUDGET, refused: BURST - ACCOUNT_BUDGET, other: [] });
    expect(result.right.status).toBe(429);
    expect(result.after).toEqual(result.before);
    expect(result.after!.pending_email).toBeNull();
  });

  it('two-factor disable: the password is counted before it is checked; two-factor stays on', async () => {
    const result = await scenarios.disable();
    console.log(`[guess-budget-cluster] two-factor disable: ${result.checked} answered wrong, ${result.refused} locked`);
    expect(result).toMatchObject({ checked: ACCOUNT_BUDGET, refused: BURST - ACCOUNT_BUDGET, other: [] });
    expect(result.right.status).toBe(429);
    expect(result.right.body.error?.message).toMatch(LOCKED_LOG_IN);
    expect(result.after).toEqual(result.before);
    expect(result.after!.enabled_at).not.toBeNull();
    expect(result.recoveryCodes).toBe(10);
  });

  it('two-factor codes over twelve tickets: at most the account budget is checked; the right code is refused, no session', async () => {
    const result = await scenarios.codesPerAccount();
    console.log(`[guess-budget-cluster] codes per account: ${result.checked} answered wrong, ${result.refused} locked`);
    expect(result).toMatchObject({ checked: ACCOUNT_BUDGET, refused: BURST - ACCOUNT_BUDGET, other: [] });
    expect(result.right.status).toBe(429);
    expect(result.right.body.error?.message).toMatch(LOCKED_CODES);
    expect(result.right.body.jwt).toBeUndefined();
    expect(result.sessionsAfter).toBe(result.sessionsBefore);
    expect(result.recoveryCodes).toBe(10);
  });

  it('two-factor codes on one ticket: at most the ticket budget is checked; the ticket is void for the right code', async () => {
    const result = await scenarios.codesPerTicket();
    console.log(`[guess-budget-cluster] codes per ticket: ${result.checked} answered wrong, ${result.voided} void`);
    expect(result.checked).toBe(TICKET_BUDGET);
    expect(result.voided).toBe(BURST - TICKET_BUDGET);
    expect(result.right.status).toBe(401);
    expect(result.right.body.jwt).toBeUndefined();
    expect(result.sessionsAfter).toBe(result.sessionsBefore);
  });
});
