import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { z } from 'zod';
import type { AiProvider, AiTask } from './ai-provider.ts';

export type OpenAiCompatibleOptions = {
  /** The server's API root, e.g. https://api.openai.com/v1 or http://localhost:11434/v1 (Ollama). */
  baseUrl: string;
  /** Null or unset for local servers, which need no key. */
  apiKey?: string | null;
  model: string;
  /** How long one attempt may take; one retry follows a timeout or a server error. Default 30 s. */
  timeoutMs?: number;
  /** One line per failure: the task, the model and why (never the key nor the prompt). */
  log: (line: string) => void;
};

const DEFAULT_TIMEOUT_MS = 30_000;
/** The answers of a server that will not take a request's pictures (a key refused or a rate limit would fail again without them). */
const PICTURES_REFUSED = new Set([400, 413, 415, 422]);
/** What the log keeps of a server's or a model's own words. */
const DETAIL_MAX = 200;

/**
 * A model behind any OpenAI-compatible chat-completions server (OpenAI, Ollama, llama.cpp, vLLM,
 * LM Studio), asked for structured output: the task's instructions are the system message, its
 * prompt the user message (with the task's https pictures as image parts, when it has any), and
 * `response_format` carries the task's schema as a strict JSON schema. The answer is parsed and checked with the task's zod schema on our side too (some
 * servers accept a schema without enforcing it). Any failure (unreachable, timed out, an HTTP
 * error, a refusal, an answer cut off, not JSON, off-schema) is logged in one line and the task's
 * built-in answer is returned. The only file that imports the `openai` package.
 */
export function createOpenAiCompatibleAi({
  baseUrl,
  apiKey,
  model,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  log,
}: OpenAiCompatibleOptions): AiProvider {
  const client = new OpenAI({
    baseURL: baseUrl,
    // The SDK insists on a key (and would read OPENAI_API_KEY without one); local servers ignore it.
    apiKey: apiKey || 'no-key',
    // Set explicitly, so that no key, organisation or project comes from OPENAI_* variables.
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    timeout: timeoutMs,
    maxRetries: 1,
    // Failures are reported by our one log line.
    logLevel: 'off',
  });
  const redact = (text: string) => (apiKey ? text.replaceAll(apiKey, '[key]') : text);

  return {
    name: 'openai-compatible',
    async run(task, input) {
      const started = Date.now();
      try {
        return await ask(task, input);
      } catch (error) {
        // The key is masked before the reason is cut short, so no part of it can remain.
        const reason = shorten(redact(describeFailure(error, limitOf(task))).replace(/\s+/g, ' '));
        log(
          `AI task ${task.name} (model ${model}) failed after ${Date.now() - started} ms: ${reason}; the built-in answer is used`,
        );
        return task.builtIn(input);
      }
    },
  };

  /** The time one attempt of the task may take. */
  function limitOf(task: AiTask<unknown, unknown>) {
    return Math.min(timeoutMs, task.timeoutMs ?? timeoutMs);
  }

  async function ask<Input, Output>(task: AiTask<Input, Output>, input: Input): Promise<Output> {
    const prompt = task.prompt(input);
    const images = task.images?.(input).filter((url) => url.startsWith('https://')) ?? [];
    if (images.length === 0) return answer(task, prompt, []);
    try {
      return await answer(task, prompt, images);
    } catch (error) {
      // A model that cannot see (or a server that will not fetch the pictures) refuses the request: ask without them.
      if (!(error instanceof APIError) || !PICTURES_REFUSED.has(error.status ?? 0)) throw error;
      log(
        `AI task ${task.name} (model ${model}): the pictures were refused (HTTP ${error.status}); asked without them`,
      );
      return answer(task, prompt, []);
    }
  }

  async function answer<Input, Output>(
    task: AiTask<Input, Output>,
    prompt: string,
    images: readonly string[],
  ): Promise<Output> {
    const completion = await client.chat.completions.create(
      {
        model,
        messages: [
          { role: 'system', content: task.instructions },
          {
            role: 'user',
            content:
              images.length === 0
                ? prompt
                : [
                    { type: 'text', text: prompt },
                    ...images.map((url) => ({ type: 'image_url' as const, image_url: { url } })),
                  ],
          },
        ],
        response_format: {
          type: 'json_schema',
          json_schema: { name: schemaName(task.name), strict: true, schema: strictJsonSchema(task.schema) },
        },
      },
      { timeout: limitOf(task as AiTask<unknown, unknown>) },
    );
    const choice = completion.choices?.[0];
    if (!choice) throw new AnswerError('the answer has no choices');
    // The refusal's own words may quote the review: the log only says that it refused.
    if (choice.message.refusal) throw new AnswerError('the model refused');
    if (choice.finish_reason === 'length') throw new AnswerError('the answer was cut off at the token limit');
    if (choice.finish_reason === 'content_filter') throw new AnswerError("the server's content filter stopped it");
    const content = choice.message.content;
    if (!content?.trim()) throw new AnswerError('the answer is empty');
    let json: unknown;
    try {
      json = JSON.parse(withoutCodeFence(content));
    } catch {
      throw new AnswerError('the answer is not JSON');
    }
    const parsed = task.schema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
      throw new AnswerError(`the answer does not fit the schema (${issues.join('; ')})`);
    }
    return parsed.data;
  }
}

/** A failure of the answer itself (as opposed to the SDK's transport and HTTP errors). */
class AnswerError extends Error {}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof APIConnectionTimeoutError) return `timed out after ${timeoutMs} ms`;
  if (error instanceof APIConnectionError) {
    const cause = error.cause as (Error & { code?: string; cause?: { code?: string } }) | undefined;
    const code = cause?.code ?? cause?.cause?.code;
    return `the server is unreachable${code ? ` (${code})` : ''}`;
  }
  if (error instanceof APIError) return `HTTP ${error.status ?? '?'}: ${error.message}`;
  if (error instanceof AnswerError) return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** A server's or a model's own words are kept short in the log. */
function shorten(text: string): string {
  return text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX)}…` : text;
}

/** Structured output's schema name allows `a-z A-Z 0-9 _ -`, up to 64 characters: 'reviews.moderation' → 'reviews_moderation'. */
export function schemaName(taskName: string): string {
  return taskName.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'answer';
}

/**
 * The task's schema as strict structured output accepts it: draft-07 (as the `openai` package's
 * own zod helper sends it), objects closed and every property required (zod's output for an
 * object whose fields are all required), and without string lengths, which OpenAI's strict mode
 * has refused. The zod schema still checks everything, lengths included, when the answer comes back.
 */
export function strictJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, {
    target: 'draft-7',
    override: ({ jsonSchema }) => {
      delete jsonSchema.minLength;
      delete jsonSchema.maxLength;
    },
  }) as Record<string, unknown>;
}

/** Some models wrap JSON in a Markdown code fence even when asked for JSON. */
function withoutCodeFence(content: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/i.exec(content);
  return fenced?.[1] ?? content;
}
