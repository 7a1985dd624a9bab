import { requireAdmin } from '#web/common/guards.ts';
import type { Route } from './+types/admin-layout.ts';
import { AdminApp } from './admin-app.tsx';
import './admin.css';

/**
 * /admin (back-office spec 2): a visitor goes to sign in with the path and query kept, a signed-in
 * non-admin to /account. The session is checked on the server before any admin code is sent.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireAdmin(request, context);
  return { user };
}

export const meta: Route.MetaFunction = () => [
  { title: 'Admin Dashboard · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return <AdminApp user={loaderData.user} />;
}
