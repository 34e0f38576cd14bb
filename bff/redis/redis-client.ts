import type { FastifyBaseLogger } from 'fastify';
import { Redis, type Command, type RedisOptions } from 'ioredis';
import { AppError } from '../errors.ts';
import { bffMetrics } from '../observability/bff-metrics.ts';
import type { RedisTarget, SentinelTarget } from './redis-target.ts';

export type RedisClientOptions = RedisTarget & {
  logger: FastifyBaseLogger;
  /** A command that has not answered within this many milliseconds fails (and the request gets 503). */
  commandTimeoutMs: number;
};

/** How long to wait between reconnection attempts: quick at first, then every two seconds. */
export function redisReconnectDelay(attempt: number): number {
  return Math.min(100 * 2 ** Math.min(attempt, 5), 2000);
}

/** A write refused by a replica: the connection reached a primary that was demoted since. */
function isReadOnlyError(error: Error): boolean {
  return error.message.startsWith('READONLY');
}

/**
 * ioredis's own Sentinel support: each (re)connection asks the Sentinels for the current primary, and
 * a Sentinel's `+switch-master` drops the connection to a demoted one at once.
 */
function sentinelOptions(target: SentinelTarget): RedisOptions {
  return {
    sentinels: target.sentinels,
    name: target.name,
    role: 'master',
    sentinelUsername: target.sentinelUsername,
    sentinelPassword: target.sentinelPassword,
    username: target.username,
    password: target.password,
    sentinelRetryStrategy: redisReconnectDelay,
    failoverDetector: true,
    ...(target.tls ? { tls: {}, sentinelTLS: {}, enableTLSForSentinelMode: true } : {}),
  };
}

/**
 * ioredis's command timeout, measured so that a stall of this process is not taken for Redis being away.
 * ioredis arms one timer per command; when the event loop was blocked or starved of CPU for longer than the
 * timeout (a second instance starting beside this one on a busy machine), Node runs the expired timer before
 * it reads the socket, where Redis's answer is already waiting, and the command failed with "Command timed
 * out" (a 503 to the traveler) although Redis had answered in time. Here an expired timer first lets one
 * round of I/O be read (setImmediate runs after the poll phase) and fails the command only if it is still
 * unanswered.
 */
export class PatientRedis extends Redis {
  /** 0 until createRedisClient sets it: no timeout for the commands of the connection handshake. */
  commandTimeoutMs = 0;
  readonly #armed = new WeakSet<Command>();

  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    const sent = super.sendCommand(command, stream);
    if (this.commandTimeoutMs > 0 && !command.isSettled && !this.#armed.has(command)) {
      this.#armed.add(command);
      const timer = setTimeout(() => {
        setImmediate(() => {
          if (!command.isSettled) command.reject(new Error('Command timed out'));
        });
      }, this.commandTimeoutMs);
      command.promise.then(
        () => clearTimeout(timer),
        () => clearTimeout(timer),
      );
    }
    return sent;
  }
}

/**
 * A connection through Sentinel that only its owner ends. ioredis's failover detector drops the
 * connection when a Sentinel announces `+switch-master`; when that announcement arrives while the
 * client is reconnecting (asking a Sentinel for the primary after the old one died), ioredis abandons the
 * attempt and ends the client for good (status `end`): every command then fails with "Connection is
 * closed" until the process restarts. This client connects again after an end that neither disconnect()
 * nor QUIT asked for, and its duplicates (the pub/sub connection) do the same.
 */
class SentinelRedis extends PatientRedis {
  readonly #logger: FastifyBaseLogger;
  #closed = false;

  constructor(options: RedisOptions, logger: FastifyBaseLogger) {
    super({ ...options, replyMapping: 'legacy' });
    this.#logger = logger;
    this.on('end', () => this.#connectAgain());
  }

  override disconnect(reconnect = false): void {
    if (!reconnect) this.#closed = true;
    super.disconnect(reconnect);
  }

  override sendCommand(...args: Parameters<Redis['sendCommand']>): unknown {
    if (args[0].name === 'quit') this.#closed = true;
    return super.sendCommand(...args);
  }

  override duplicate(override?: Partial<RedisOptions>): Redis {
    return new SentinelRedis({ ...this.options, ...override }, this.#logger);
  }

  #connectAgain(): void {
    if (this.#closed) return;
    this.#logger.warn(
      'redis connection ended by a failover announced while it reconnected: connecting again',
    );
    setTimeout(() => {
      if (!this.#closed && this.status === 'end') this.connect().catch(() => undefined);
    }, redisReconnectDelay(1));
  }
}

/**
 * The BFF's Redis connection. Commands fail fast while Redis is away (no offline queue, one retry,
 * a command timeout), so requests answer 503 RETRY_LATER instead of piling up; the client reconnects
 * by itself for as long as the process lives, through the Sentinels to whichever primary they name.
 * Connection errors are logged, once per outage.
 */
export function createRedisClient({ logger, commandTimeoutMs, ...target }: RedisClientOptions): Redis {
  const options: RedisOptions & { replyMapping?: 'legacy' } = {
    connectTimeout: Math.max(commandTimeoutMs, 1000),
    // The command timeout is PatientRedis's own (commandTimeoutMs below).
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: redisReconnectDelay,
    // A write that reached a demoted primary: reconnect, so the next command finds the new one.
    reconnectOnError: isReadOnlyError,
    connectionName: 'wayfare-bff',
  };
  const client =
    'url' in target
      ? new PatientRedis(target.url, options)
      : new SentinelRedis({ ...options, ...sentinelOptions(target.sentinel) }, logger);
  client.commandTimeoutMs = commandTimeoutMs;
  watchConnection(client, logger);
  return client;
}

/**
 * A second connection for pub/sub: subscriptions are queued while Redis is away and resubscribed on
 * reconnection, because a subscriber connection carries no request.
 */
export function createSubscriberClient(client: Redis, logger: FastifyBaseLogger): Redis {
  const subscriber = client.duplicate({
    enableOfflineQueue: true,
    commandTimeout: undefined,
    maxRetriesPerRequest: null,
    autoResubscribe: true,
    connectionName: 'wayfare-bff-subscriber',
  });
  watchConnection(subscriber, logger);
  return subscriber;
}

function watchConnection(client: Redis, logger: FastifyBaseLogger): void {
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.error(
      { err: { message: error.message, code: (error as { code?: string }).code } },
      'redis unreachable',
    );
  });
  client.on('ready', () => {
    if (down) logger.info('redis reachable again');
    down = false;
  });
}

/** Waits until the client is ready, or gives up after `timeoutMs` (it keeps reconnecting regardless). */
export async function waitForRedis(client: Redis, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(false), timeoutMs);
    const onReady = () => finish(true);
    function finish(ready: boolean) {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ready);
    }
    client.on('ready', onReady);
  });
}

const UNAVAILABLE_MESSAGES = [
  "Stream isn't writeable",
  'Command timed out',
  'Connection is closed',
  'Reached the max retries per request limit',
  'connect ECONNREFUSED',
  'All sentinels are unreachable',
  // A primary demoted by a failover, until the connection moves to the new one.
  'READONLY',
];

/** True for the errors ioredis raises while Redis cannot be reached (as opposed to a bad command). */
export function isRedisUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  return UNAVAILABLE_MESSAGES.some((message) => error.message.includes(message));
}

/** The envelope a request gets while shared state is unreachable: retry in a moment. */
export function redisUnavailableError(cause?: unknown): AppError {
  return new AppError('SERVICE_UNAVAILABLE', {
    status: 503,
    message: 'The service is briefly unavailable. Please try again in a moment.',
    recoveryAction: 'RETRY_LATER',
    retryAfterSeconds: 2,
    cause,
  });
}

/** Runs a Redis operation; an unreachable Redis becomes the 503 RETRY_LATER AppError. */
export async function withRedis<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!isRedisUnavailableError(error)) throw error;
    bffMetrics().redisFailures.add(1);
    throw redisUnavailableError(error);
  }
}
