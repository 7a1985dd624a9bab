import { redirect } from 'react-router';
import type { Route } from './+types/category-shortcut.ts';

/**
 * /new-releases, /wellness and /browse: link targets the spec names without a screen of their
 * own. Each answers a redirect (302) to the matching listing. The module serves three routes, so
 * the loader tells them apart by the path (a client navigation asks for `/wellness.data`).
 */
const shortcutTargets: Record<string, string> = {
  'new-releases': '/products?category=new-releases',
  wellness: '/products?category=wellness',
  browse: '/products',
};

function shortcutTarget(pathname: string): string {
  const name =
    pathname
      .replace(/\.data$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .pop() ?? '';
  return shortcutTargets[name] ?? '/products';
}

export function loader({ request }: Route.LoaderArgs) {
  return redirect(shortcutTarget(new URL(request.url).pathname), 302);
}

export default function CategoryShortcut() {
  return null;
}
