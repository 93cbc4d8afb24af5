import path from 'path';
import type { Core } from '@strapi/strapi';

// server/ root, whether this runs from config/ or the compiled dist/config/.
const configParent = path.resolve(__dirname, '..');
const appRoot = path.basename(configParent) === 'dist' ? path.dirname(configParent) : configParent;

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Database => {
  const client = env('DATABASE_CLIENT', 'sqlite');

  if (client === 'postgres') {
    return {
      connection: {
        client: 'postgres',
        connection: {
          connectionString: env('DATABASE_URL'),
          host: env('DATABASE_HOST', 'localhost'),
          port: env.int('DATABASE_PORT', 5432),
          database: env('DATABASE_NAME', 'strapi'),
          user: env('DATABASE_USERNAME', 'strapi'),
          password: env('DATABASE_PASSWORD', 'strapi'),
          ssl: env.bool('DATABASE_SSL', false) && {
            key: env('DATABASE_SSL_KEY', undefined),
            cert: env('DATABASE_SSL_CERT', undefined),
            ca: env('DATABASE_SSL_CA', undefined),
            capath: env('DATABASE_SSL_CAPATH', undefined),
            cipher: env('DATABASE_SSL_CIPHER', undefined),
            rejectUnauthorized: env.bool('DATABASE_SSL_REJECT_UNAUTHORIZED', true),
          },
          schema: env('DATABASE_SCHEMA', 'public'),
          // Short, so a database that does not answer gets a 503 (src/middlewares/database-unavailable.ts), not a hang.
          connectionTimeoutMillis: env.int('DATABASE_CONNECT_TIMEOUT_MS', 5000),
          // TCP keep-alive notices a database host that vanished under an idle pooled connection.
          keepAlive: true,
        },
        // knex drops a connection whose socket failed and opens a new one, so the pool recovers by itself.
        pool: { min: env.int('DATABASE_POOL_MIN', 2), max: env.int('DATABASE_POOL_MAX', 10) },
        acquireConnectionTimeout: env.int('DATABASE_CONNECTION_TIMEOUT', 10000),
      },
    };
  }

  if (client !== 'sqlite') {
    throw new Error(`Unsupported DATABASE_CLIENT: ${client}. Use "sqlite" (default) or "postgres".`);
  }

  return {
    connection: {
      client: 'sqlite',
      connection: {
        // Absolute paths are kept; relative ones are resolved against server/.
        filename: path.resolve(appRoot, env('DATABASE_FILENAME', '.tmp/data.db')),
      },
      useNullAsDefault: true,
      pool: {
        // Write-ahead logging: a commit appends to the log and syncs once, instead of writing and
        // deleting a rollback journal with several syncs; readers no longer wait for a writer. FULL
        // keeps every commit on disk before it answers (the mail queue's promise).
        afterCreate(connection: unknown, done: (error?: Error, connection?: unknown) => void) {
          const sqlite = connection as { pragma(source: string): unknown };
          sqlite.pragma('journal_mode = WAL');
          sqlite.pragma('synchronous = FULL');
          done(undefined, connection);
        },
      },
      acquireConnectionTimeout: env.int('DATABASE_CONNECTION_TIMEOUT', 60000),
    },
  };
};

export default config;
