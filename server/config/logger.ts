import { logFormat } from '../src/operations/log-format';

// One JSON object per line in production, readable lines in development (LOG_FORMAT, src/operations/log-format.ts).
// Strapi's level and Console transport stay; the request id is added by src/index.ts (register).
export default { format: logFormat(process.env) };
