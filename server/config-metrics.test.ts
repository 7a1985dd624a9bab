import { describe, expect, test } from 'vitest';
import { configProblem as problem } from '#server/testing/config-problem.ts';
import { loadConfig } from './config.ts';

describe('the metrics configuration', () => {
  test('nothing set: no metrics server', () => {
    expect(loadConfig({}).metrics).toBeNull();
  });

  test('METRICS_PORT alone serves them on the loopback address', () => {
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ host: '127.0.0.1', port: 9464 });
  });

  test('METRICS_HOST chooses the address (a private network, say)', () => {
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({
      host: '10.0.0.5',
      port: 9464,
    });
  });

  test('a port outside 1-65535 or not a number is refused', () => {
    expect(problem({ METRICS_PORT: '0' })).toContain('METRICS_PORT');
    expect(problem({ METRICS_PORT: '65536' })).toContain('METRICS_PORT');
    expect(problem({ METRICS_PORT: 'nine' })).toContain('METRICS_PORT');
  });

  test("the shop's own port is refused, the default 3000 included", () => {
    expect(problem({ PORT: '8080', METRICS_PORT: '8080' })).toContain('METRICS_PORT: must differ from PORT (8080)');
    expect(problem({ METRICS_PORT: '3000' })).toContain('METRICS_PORT: must differ from PORT (3000)');
  });

  test('METRICS_HOST without METRICS_PORT is half a configuration', () => {
    expect(problem({ METRICS_HOST: '127.0.0.1' })).toContain('METRICS_PORT: must be set when METRICS_HOST is');
    expect(problem({ METRICS_PORT: '9464', METRICS_HOST: ' ' })).toContain('METRICS_HOST');
  });
});
