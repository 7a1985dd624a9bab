import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local stand-in of an OpenAI-compatible chat-completions server, for tests of the AI adapter
 * and of the features that use it (our machines cannot reach a real one).
 */

export type Recorded = { method: string; url: string; headers: IncomingHttpHeaders; body: ChatRequest };
export type ChatRequest = {
  model: string;
  messages: { role: string; content: string }[];
  response_format: { type: string; json_schema: { name: string; strict: boolean; schema: unknown } };
};
export type Reply = { status?: number; json?: unknown; raw?: string; hang?: boolean };

/**
 * A local stand-in of an OpenAI-compatible server: POST /v1/chat/completions on 127.0.0.1,
 * answering whatever `reply` says, and keeping every request it receives.
 */
export async function startStandIn(reply: (request: Recorded) => Reply) {
  const requests: Recorded[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const recorded = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: JSON.parse(text || '{}'),
    };
    requests.push(recorded);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Not found', type: 'invalid_request_error' } }));
      return;
    }
    const answer = reply(recorded);
    if (answer.hang) return; // never answers: the client's timeout must end the wait
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
    res.end(answer.raw ?? JSON.stringify(answer.json));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A chat-completions answer in the wire format. */
export function completion(content: string | null, { finishReason = 'stop', refusal = null as string | null } = {}) {
  return {
    json: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'stand-in-model',
      choices: [
        { index: 0, message: { role: 'assistant', content, refusal }, logprobs: null, finish_reason: finishReason },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    },
  };
}
