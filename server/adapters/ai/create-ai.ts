import type { Config } from '#server/config.ts';
import type { AiProvider } from './ai-provider.ts';
import { createBuiltInAi } from './built-in-ai.ts';
import { createOpenAiCompatibleAi } from './openai-compatible-ai.ts';

/** An OpenAI-compatible server when AI_BASE_URL is set (with AI_MODEL), otherwise the built-in answers. */
export function createAi(config: Config, { log }: { log: (line: string) => void }): AiProvider {
  if (config.ai) return createOpenAiCompatibleAi({ ...config.ai, log });
  return createBuiltInAi();
}
