/**
 * How strapi.log (winston) writes its lines (config/logger.ts): LOG_FORMAT=json writes one JSON
 * object per line (time, level, message, requestId during a request, then the line's own fields);
 * LOG_FORMAT=pretty a readable line for development. Without LOG_FORMAT: json when
 * NODE_ENV=production, else pretty.
 *
 * Plain winston formats (an object with `transform`), so the server needs no direct winston dependency.
 */

// logform's key for the rendered line, which the transports write.
export const MESSAGE = Symbol.for('message');

/** A line as winston hands it to a format: its level and message, any fields, or an Error logged as is. */
export type LogInfo = { level: string; message?: unknown; stack?: unknown; requestId?: unknown; [MESSAGE]?: string };
export interface LogFormat {
  transform(info: LogInfo): LogInfo;
}

export type LogFormatName = 'json' | 'pretty';

// eslint-disable-next-line no-control-regex -- colour codes are control characters by definition
const ANSI_COLOURS = /[\u001b\u009b][[()#;?]*(?:[0-9]{1,4}(?:;[0-9]{0,4})*)?[0-9A-ORZcf-nqry=><]/g;

const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : String(value));

/** The format LOG_FORMAT names; a value other than json or pretty stops the server with a clear error. */
export function logFormatName(env: NodeJS.ProcessEnv): LogFormatName {
  const given = (env.LOG_FORMAT ?? '').trim().toLowerCase();
  if (given === '') return env.NODE_ENV === 'production' ? 'json' : 'pretty';
  if (given === 'json' || given === 'pretty') return given;
  throw new Error(`LOG_FORMAT must be "json" or "pretty", not "${env.LOG_FORMAT}"`);
}

// Written first, or not at all (winston's own timestamp, if a transport adds one).
const HEAD_FIELDS = new Set(['level', 'message', 'stack', 'requestId', 'timestamp']);

/** The line's own fields (e.g. the request line's method, path, status). An Error's message and stack are not enumerable. */
const ownFields = (info: LogInfo): Record<string, unknown> =>
  Object.fromEntries(Object.entries(info).filter(([key]) => !HEAD_FIELDS.has(key)));

export const jsonLogFormat: LogFormat = {
  transform(info) {
    const requestId = typeof info.requestId === 'string' ? info.requestId : undefined;
    const stack = typeof info.stack === 'string' ? info.stack : undefined;
    const head = { time: new Date().toISOString(), level: info.level, message: text(info.message).replace(ANSI_COLOURS, '') };
    let line: string;
    try {
      line = JSON.stringify({ ...head, ...(requestId ? { requestId } : {}), ...ownFields(info), ...(stack ? { stack } : {}) });
    } catch {
      // A field that JSON cannot hold (a cycle, a BigInt): the line still goes out, without its fields.
      line = JSON.stringify({ ...head, ...(requestId ? { requestId } : {}), ...(stack ? { stack } : {}) });
    }
    info[MESSAGE] = line;
    return info;
  },
};

const LEVEL_COLOURS: Record<string, number> = { error: 31, warn: 33, info: 32, http: 35, verbose: 36, debug: 34, silly: 90 };

export function prettyLogFormat(colours: boolean): LogFormat {
  return {
    transform(info) {
      const time = new Date().toISOString().replace('T', ' ').replace('Z', '');
      const level = colours && LEVEL_COLOURS[info.level] ? `\u001b[${LEVEL_COLOURS[info.level]}m${info.level}\u001b[39m` : info.level;
      const requestId = typeof info.requestId === 'string' ? ` [${info.requestId}]` : '';
      const stack = typeof info.stack === 'string' && !text(info.message).includes(info.stack) ? `\n${info.stack}` : '';
      info[MESSAGE] = `[${time}] ${level}: ${text(info.message)}${requestId}${stack}`;
      return info;
    },
  };
}

export const logFormat = (env: NodeJS.ProcessEnv): LogFormat =>
  logFormatName(env) === 'json' ? jsonLogFormat : prettyLogFormat(Boolean(process.stdout.isTTY));
