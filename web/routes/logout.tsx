import { Link } from 'react-router';
import type { Route } from './+types/logout.ts';

export const meta: Route.MetaFunction = () => [
  { title: 'Signed out · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

export default function Logout() {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="font-serif text-4xl text-sage-900">You've been logged out</h1>
      <p className="mt-4 text-stone-600">Thank you for visiting. Come back whenever you need a calmer corner.</p>
      <nav className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className="rounded-full bg-sage-700 px-6 py-3 text-white hover:bg-sage-800">
          Go to the home page
        </Link>
        <Link to="/login" className="rounded-full border border-sage-300 px-6 py-3 text-sage-800 hover:bg-sage-50">
          Sign in again
        </Link>
        <Link to="/browse" className="rounded-full border border-sage-300 px-6 py-3 text-sage-800 hover:bg-sage-50">
          Browse the shop
        </Link>
      </nav>
    </div>
  );
}
