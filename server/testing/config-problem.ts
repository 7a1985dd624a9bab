import { expect } from 'vitest';
import { ConfigError, loadConfig } from '#server/config.ts';

/** The message of the configuration error that `env` gives (the test fails when it loads). */
export function configProblem(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a configuration error');
}
