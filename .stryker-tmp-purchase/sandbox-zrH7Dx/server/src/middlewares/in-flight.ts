// @ts-nocheck
import { countInFlight } from '../operations/shutdown';

// Counts requests in flight, so a stop signal lets them finish (src/operations/shutdown.ts).
export default () => countInFlight();
