import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test, vi } from 'vitest';
import { createResolveShortcut, LARGE_MANIFEST_PACKAGES } from './module-resolution-cache.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the resolution shortcut', () => {
  test.each(LARGE_MANIFEST_PACKAGES)('%s, remembered by name, is installed once (package-lock.json)', (name) => {
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: object };
    const copies = Object.keys(lock.packages).filter((key) => key.endsWith(`node_modules/${name}`));
    expect(copies).toEqual([`node_modules/${name}`]);
  });

  test('a relative .js import inside an ESM package is the file beside its importer, as ESM, without asking Node', () => {
    const resolve = createResolveShortcut();
    const next = vi.fn();
    const parent = pathToFileURL(path.join(root, 'node_modules/drizzle-orm/pg-core/index.js')).href;
    const result = resolve(
      '../sql/sql.js',
      { parentURL: parent, conditions: ['node', 'import'], importAttributes: {} },
      next,
    );
    expect(result).toEqual({
      url: pathToFileURL(path.join(root, 'node_modules/drizzle-orm/sql/sql.js')).href,
      format: 'module',
      shortCircuit: true,
    });
    expect(next).not.toHaveBeenCalled();
  });

  test("the format is what Node would say: the nearest package.json's type, or the extension", () => {
    const resolve = createResolveShortcut();
    const next = vi.fn();
    const context = { conditions: ['node', 'import'], importAttributes: {} };
    // fastify: no "type" (CommonJS).
    const fastify = pathToFileURL(path.join(root, 'node_modules/fastify/fastify.js')).href;
    expect(resolve('./lib/route.js', { ...context, parentURL: fastify }, next)).toMatchObject({ format: 'commonjs' });
    expect(next).not.toHaveBeenCalled();
    for (const [specifier, format] of [
      ['./a.mjs', 'module'],
      ['./b.cjs', 'commonjs'],
    ] as const) {
      const dir = mkdtempSync(path.join(root, 'node_modules/.cache/resolution-test-'));
      writeFileSync(path.join(dir, specifier), '');
      const parentURL = pathToFileURL(path.join(dir, 'parent.js')).href;
      expect(resolve(specifier, { ...context, parentURL }, next)).toMatchObject({ format });
      rmSync(dir, { recursive: true });
    }
  });

  test('a file that is not there goes to Node, which reports it as usual', () => {
    const resolve = createResolveShortcut();
    const next = vi.fn(() => ({ url: 'file:///reported.js' }));
    const parent = pathToFileURL(path.join(root, 'node_modules/drizzle-orm/index.js')).href;
    resolve('./no-such-module.js', { parentURL: parent, conditions: [], importAttributes: {} }, next);
    expect(next).toHaveBeenCalledTimes(1);
  });

  test('an import by name is resolved by Node once, then remembered', () => {
    const resolve = createResolveShortcut();
    const next = vi.fn(() => ({ url: 'file:///x/node_modules/drizzle-orm/index.js', format: 'module' as const }));
    const context = { parentURL: 'file:///x/server/a.ts', conditions: ['node', 'import'], importAttributes: {} };
    const first = resolve('drizzle-orm', context, next);
    const again = resolve('drizzle-orm', { ...context, parentURL: 'file:///x/server/b.ts' }, next);
    expect(next).toHaveBeenCalledTimes(1);
    expect(again).toEqual(first);
    expect(first).toMatchObject({ url: 'file:///x/node_modules/drizzle-orm/index.js', shortCircuit: true });
    // Another set of conditions (require) is resolved on its own.
    resolve('drizzle-orm', { ...context, conditions: ['node', 'require'] }, next);
    expect(next).toHaveBeenCalledTimes(2);
  });

  test('our own modules and other packages by name go to Node as usual', () => {
    const resolve = createResolveShortcut();
    const next = vi.fn(() => ({ url: 'file:///elsewhere.js' }));
    const context = { parentURL: 'file:///x/server/a.ts', conditions: [], importAttributes: {} };
    resolve('./b.ts', context, next);
    resolve('./c.js', context, next);
    resolve('fastify', context, next);
    resolve('drizzle-orm-extra', context, next);
    expect(next).toHaveBeenCalledTimes(4);
  });
});
