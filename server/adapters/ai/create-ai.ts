import type { Config } from '#server/config.ts';
import type { AiProvider } from './ai-provider.ts';
import { createBuiltInAi } from './built-in-ai.ts';
import type { OpenAiCompatibleOptions } from './openai-compatible-ai.ts';

/** Where a key saved in the settings goes when AI_BASE_URL is not set: OpenAI's own API. */
export const OPENAI_DEFAULTS = { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' } as const;

/**
 * The AI, chosen at each call: the OpenAI-compatible server of AI_BASE_URL (with AI_MODEL) when
 * set, else OpenAI itself when the owner saved an AI key, else the built-in answers. The key is
 * the one saved in the settings when there is one (read at each call, so a new key applies at
 * once), else AI_API_KEY.
 */
export function createAi(
  config: Config,
  { log, savedApiKey = () => null }: { log: (line: string) => void; savedApiKey?: () => string | null },
): AiProvider {
  const builtIn = createBuiltInAi();
  // One client per server and key; a new key makes a new one.
  let client: { id: string; ai: AiProvider } | null = null;

  function pick(): AiProvider {
    const saved = savedApiKey();
    const server = config.ai ?? (saved ? OPENAI_DEFAULTS : null);
    if (!server) return builtIn;
    const apiKey = saved ?? config.ai?.apiKey ?? null;
    const id = `${server.baseUrl}\n${server.model}\n${apiKey ?? ''}`;
    if (client?.id !== id) {
      client = { id, ai: lazyOpenAiCompatibleAi({ baseUrl: server.baseUrl, model: server.model, apiKey, log }) };
    }
    return client.ai;
  }

  return {
    get name() {
      return pick().name;
    },
    run: (task, input) => pick().run(task, input),
  };
}

/**
 * The OpenAI-compatible client, its module (and the `openai` package, ~240 modules) loaded at the
 * first task rather than at start: the first page does not wait for it.
 */
function lazyOpenAiCompatibleAi(options: OpenAiCompatibleOptions): AiProvider {
  let loaded: Promise<AiProvider> | null = null;
  return {
    name: 'openai-compatible',
    async run(task, input) {
      loaded ??= import('./openai-compatible-ai.ts').then((module) => module.createOpenAiCompatibleAi(options));
      return (await loaded).run(task, input);
    },
  };
}
