/**
 * What the browser build imports as `react` (vite.config.ts): Preact's React compatibility layer,
 * plus the two things React Router's document needs from it that Preact does differently.
 */
import { type ComponentChildren, Fragment, options } from 'preact';
import { default as compat } from 'preact/compat';

// @ts-expect-error preact/compat's types declare `export =`; the module itself has named exports.
export * from 'preact/compat';

/**
 * Preact hydrates a document into its <html> element (it takes the document's element as the
 * root), while the root route's Layout renders <html> itself, as React's server render needs. In
 * the browser the <html> element stays as the server sent it: its children are the Layout's.
 */
const nextVnodeHook = options.vnode;
options.vnode = (vnode) => {
  if (vnode.type === 'html') {
    vnode.type = Fragment;
    vnode.props = { children: (vnode.props as { children?: ComponentChildren }).children };
  }
  nextVnodeHook?.(vnode);
};

/**
 * React Router applies optimistic state only with its `unstable_useTransitions` flag, which the
 * shop does not set; without pending optimistic updates, React's hook returns its argument.
 */
export function useOptimistic<State>(passthrough: State): [State, (update: unknown) => void] {
  return [passthrough, ignoreOptimisticUpdate];
}

function ignoreOptimisticUpdate() {
  throw new Error('Optimistic updates are not supported in the browser build (see web/browser/react-on-preact.ts).');
}

export default { ...compat, useOptimistic };
