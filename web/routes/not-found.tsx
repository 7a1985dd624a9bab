import { data, Link } from 'react-router';
import type { Route } from './+types/not-found.ts';

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => [
  { title: 'Page not found · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

export default function NotFound() {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <p className="text-sm font-semibold tracking-widest text-sage-600 uppercase">404</p>
      <h1 className="mt-2 font-serif text-4xl text-sage-900">Page not found</h1>
      <p className="mt-4 text-stone-600">The page you were looking for has moved or never existed.</p>
      <div className="mt-8 flex justify-center gap-3">
        <Link to="/" className="rounded-full bg-sage-700 px-6 py-3 text-white hover:bg-sage-800">
          Return to Home
        </Link>
        <Link to="/products" className="rounded-full border border-sage-300 px-6 py-3 text-sage-800 hover:bg-sage-50">
          Browse products
        </Link>
      </div>
    </div>
  );
}
