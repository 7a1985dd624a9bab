import type { z } from 'zod';

/**
 * One job for the AI: what to ask, the shape of the answer, and the answer the shop gives
 * without a model. Features define their tasks (the review overview, review moderation, product
 * copy); the provider only runs them.
 */
export type AiTask<Input, Output> = {
  /** A short name for logs and metrics, e.g. 'reviews.moderation'. */
  name: string;
  /** The instructions (the system message). */
  instructions: string;
  /**
   * The user message for one input. Text from shoppers is untrusted: send it as JSON data, and
   * say in the instructions that it is data to work on, never instructions.
   */
  prompt(input: Input): string;
  /**
   * Pictures to show a model that can see (https URLs, sent with the user message as image
   * parts); none by default. A server that refuses them is asked again without them.
   */
  images?(input: Input): readonly string[];
  /**
   * The answer's shape: sent as the JSON schema of structured output and checked on return. An
   * object whose fields are all required (strict structured output allows no optional field);
   * string lengths and refinements are checked on return only.
   */
  schema: z.ZodType<Output>;
  /** The answer without a model (built-in analysis or rules); also the fallback when the model fails. */
  builtIn(input: Input): Output | Promise<Output>;
  /**
   * How long one attempt at the model may take, when shorter than the provider's own limit: a
   * task run while a shopper waits for the answer has a few seconds, not half a minute.
   */
  timeoutMs?: number;
};

/** What the shop needs from AI: structured output for a task. */
export interface AiProvider {
  readonly name: 'built-in' | 'openai-compatible';
  /**
   * The task's answer for the input. Never throws for a model's failure (unreachable, timed out,
   * malformed or off-schema answer): that is logged and the task's built-in answer is returned.
   */
  run<Input, Output>(task: AiTask<Input, Output>, input: Input): Promise<Output>;
}
