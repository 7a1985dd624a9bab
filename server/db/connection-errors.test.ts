import { createServer, type Socket } from 'node:net';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { CONCURRENT_CHANGE_MESSAGE, DATABASE_UNAVAILABLE_MESSAGE, handleError } from '#server/http/errors.ts';
import { logSerializers } from '#server/http/logging.ts';
import { isDatabaseUnavailable } from './connection-errors.ts';

/** A server error as node-postgres raises it from the server's ErrorResponse. */
function serverError(code: string, message: string) {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  return error;
}

/** What Drizzle throws: the failed query, its parameters in the message, the driver's error as the cause. */
function failedQuery(cause: Error) {
  return new DrizzleQueryError('insert into "users" ("email") values ($1)', ['shopper@example.com'], cause);
}

/** A TCP server on a free port that does to each connection what `onConnection` says. */
async function tcpServer(onConnection: (socket: Socket) => void) {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return {
    port: address.port,
    // close() alone waits for the connections the server still holds.
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The error a one-connection pool gives for `select 1` against 127.0.0.1:port. */
async function poolError(port: number, connectionTimeoutMillis = 500): Promise<unknown> {
  const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'nobody', database: 'none', connectionTimeoutMillis });
  pool.on('error', () => {});
  try {
    await pool.query('select 1');
    throw new Error('the query did not fail');
  } catch (error) {
    return error;
  } finally {
    await pool.end().catch(() => {});
  }
}

describe('isDatabaseUnavailable', () => {
  const servers: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  test.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection because of crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['53300', 'sorry, too many clients already'],
    ['08006', 'connection failure'],
    ['08001', 'could not establish connection'],
    ['08P01', 'protocol violation'],
  ])('the server error %s (%s) is unavailability, alone and wrapped by Drizzle', (code, message) => {
    expect(isDatabaseUnavailable(serverError(code, message))).toBe(true);
    expect(isDatabaseUnavailable(failedQuery(serverError(code, message)))).toBe(true);
  });

  test.each([
    ['23505', 'duplicate key value violates unique constraint "users_email_key"'],
    ['23503', 'insert or update violates foreign key constraint'],
    ['42P01', 'relation "nothing" does not exist'],
    ['57014', 'canceling statement due to statement timeout'],
    ['22P02', 'invalid input syntax for type uuid'],
    ['40001', 'could not serialize access due to concurrent update'],
  ])('the server error %s (%s) is not', (code, message) => {
    expect(isDatabaseUnavailable(serverError(code, message))).toBe(false);
    expect(isDatabaseUnavailable(failedQuery(serverError(code, message)))).toBe(false);
  });

  test.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])(
    'the system error %s is unavailability',
    (code) => {
      const error = Object.assign(new Error(`connect ${code} 10.0.0.1:5432`), { code });
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(isDatabaseUnavailable(failedQuery(error))).toBe(true);
    },
  );

  test.each([
    'Connection terminated unexpectedly',
    'Connection terminated',
    'Connection terminated due to connection timeout',
    'timeout exceeded when trying to connect',
    'timeout expired',
    'Client has encountered a connection error and is not queryable',
    'Client was closed and is not queryable',
    'Query read timeout',
  ])('the driver message "%s" is unavailability', (message) => {
    expect(isDatabaseUnavailable(new Error(message))).toBe(true);
    expect(isDatabaseUnavailable(failedQuery(new Error(message)))).toBe(true);
  });

  test('an AggregateError of refused addresses (localhost on IPv4 and IPv6) is unavailability', () => {
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(new AggregateError([refused('::1:5432'), refused('127.0.0.1:5432')]))).toBe(true);
  });

  test('ordinary failures, look-alike messages and non-errors are not', () => {
    for (const value of [
      new Error('the account could not be stored'),
      new Error('Connection terminated unexpectedly, said the user in a review'),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      Object.assign(new Error('not found'), { code: 'ENOENT' }),
      Object.assign(new Error('bad'), { code: 8006 }),
      failedQuery(new Error('value too long for type character varying(100)')),
      null,
      undefined,
      'ECONNREFUSED',
      { code: '42P01' },
    ]) {
      expect(isDatabaseUnavailable(value)).toBe(false);
    }
  });

  test('a cause chain is followed a few levels, and a cycle does not loop', () => {
    const deep = new Error('outer', {
      cause: new Error('middle', { cause: failedQuery(new Error('Query read timeout')) }),
    });
    expect(isDatabaseUnavailable(deep)).toBe(true);
    const cyclic = new Error('a') as Error & { cause?: unknown };
    cyclic.cause = cyclic;
    expect(isDatabaseUnavailable(cyclic)).toBe(false);
  });

  test('what node-postgres really raises for a refused, a dropped and a silent server', async () => {
    const closed = await tcpServer(() => {});
    const refusedPort = closed.port;
    await closed.close();
    const refused = await poolError(refusedPort);
    expect(refused).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(refused)).toBe(true);

    const dropping = await tcpServer((socket) => socket.destroy());
    servers.push(dropping);
    const dropped = await poolError(dropping.port);
    expect(dropped).toMatchObject({ message: expect.stringMatching(/^Connection terminated/) });
    expect(isDatabaseUnavailable(dropped)).toBe(true);

    // Accepts the connection and never answers: only the connection timeout ends the wait.
    const silent = await tcpServer(() => {});
    servers.push(silent);
    const started = performance.now();
    const timedOut = await poolError(silent.port, 300);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(isDatabaseUnavailable(timedOut)).toBe(true);
  });
});

describe('handleError with an unreachable database', () => {
  test('answers 503 with Retry-After and the one error format, logs no query parameter, and a deadlock gets a 409', async () => {
    const lines: string[] = [];
    const app = Fastify({
      logger: { level: 'warn', serializers: logSerializers, stream: { write: (line: string) => lines.push(line) } },
    });
    app.setErrorHandler(handleError);
    app.get('/terminated', async () => {
      throw failedQuery(serverError('57P01', 'terminating connection due to administrator command'));
    });
    app.get('/deadlocked', async () => {
      throw failedQuery(serverError('40P01', 'deadlock detected'));
    });
    app.get('/fault', async () => {
      throw new Error('a real fault');
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/terminated' });
      expect(response.statusCode).toBe(503);
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(10);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.json()).toEqual({ error: DATABASE_UNAVAILABLE_MESSAGE, code: 'database_unavailable' });
      const warning = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'database unavailable');
      expect(warning).toMatchObject({ level: 40, err: { cause: { code: '57P01' } } });
      expect(JSON.stringify(warning)).not.toContain('shopper@example.com');

      // Two writers cut apart by a deadlock: the loser changed nothing and is told to try again.
      const deadlocked = await app.inject({ method: 'GET', url: '/deadlocked' });
      expect(deadlocked.statusCode).toBe(409);
      expect(deadlocked.json()).toEqual({ error: CONCURRENT_CHANGE_MESSAGE, code: 'concurrent_change' });

      // Everything else keeps its answer: a real fault is still a 500 without Retry-After.
      const fault = await app.inject({ method: 'GET', url: '/fault' });
      expect(fault.statusCode).toBe(500);
      expect(fault.headers['retry-after']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
