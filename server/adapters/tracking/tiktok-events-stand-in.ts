import { once } from 'node:events';
import { createServer } from 'node:http';

/**
 * A local stand-in of TikTok's Events API for tests (the real one is unreachable from here): the
 * same path, header and body shape (integrations 4.2), the `{ code, message }` envelope, and
 * failures on demand (an HTTP status or an envelope code for the next calls).
 */
export async function startTikTokEventsStandIn({ accessToken, pixelId }: { accessToken: string; pixelId: string }) {
  const received: { headers: Record<string, string | string[] | undefined>; body: Record<string, unknown> }[] = [];
  const failures: ({ status: number } | { code: number; message: string })[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const answer = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ request_id: `req${received.length}`, ...body }));
    };
    if (request.method !== 'POST' || request.url !== '/open_api/v1.3/event/track/') return answer(404, { code: 40404 });
    if (request.headers['access-token'] !== accessToken) {
      return answer(200, { code: 40105, message: 'Access token is incorrect or has been revoked.' });
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return answer(200, { code: 40002, message: 'Invalid JSON' });
    }
    const data = body.data as { event?: unknown; event_id?: unknown; event_time?: unknown }[] | undefined;
    const valid =
      body.event_source === 'web' &&
      body.event_source_id === pixelId &&
      Array.isArray(data) &&
      data.every((d) => typeof d.event === 'string' && typeof d.event_time === 'number');
    if (!valid) return answer(200, { code: 40002, message: 'Invalid parameters' });
    received.push({ headers: request.headers, body });
    const failure = failures.shift();
    if (failure && 'status' in failure) return answer(failure.status, { code: 50000, message: 'Server error' });
    if (failure) return answer(200, failure);
    return answer(200, { code: 0, message: 'OK', data: {} });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    apiBase: `http://127.0.0.1:${port}`,
    received,
    /** The next calls answer these, in order. */
    failNext: (...next: typeof failures) => failures.push(...next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
