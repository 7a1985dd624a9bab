import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { logout, SessionUser } from '#common/contracts/accounts.ts';
import type { Category } from '#common/contracts/catalog.ts';
import { api } from '#web/common/browser-api.ts';
import { CartIcon, UserIcon } from '#web/common/icons.tsx';
import { cacheUser } from '#web/storefront/account/user-cache.ts';
import { useCartCount } from '#web/storefront/cart/cart-storage.ts';
import { LogoMark } from './logo.tsx';
import { SearchBox } from './search-box.tsx';

export function Header({ user, categories }: { user: SessionUser | null; categories: Category[] }) {
  const count = useCartCount();
  return (
    <header className="border-b border-sage-100 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-3 px-4 py-3 sm:px-6">
        <Link to="/" className="flex items-center gap-2 text-sage-900" aria-label="Stillwater home">
          <LogoMark />
          <span className="font-serif text-2xl tracking-tight">Stillwater</span>
        </Link>
        <div className="order-last w-full sm:order-none sm:flex-1">
          <SearchBox />
        </div>
        <div className="ml-auto flex items-center gap-2 sm:ml-0">
          {user ? (
            <UserMenu user={user} />
          ) : (
            <Link to="/login" className="rounded-full p-2 text-sage-800 hover:bg-sage-100" aria-label="Sign in">
              <UserIcon />
            </Link>
          )}
          <Link
            to="/cart"
            className="relative rounded-full p-2 text-sage-800 hover:bg-sage-100"
            aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}`}
          >
            <CartIcon />
            {count > 0 ? (
              <span
                data-testid="cart-count"
                className="absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-sage-700 px-1 text-xs font-semibold text-white"
              >
                {count}
              </span>
            ) : null}
          </Link>
        </div>
      </div>
      <CategoryNav categories={categories} />
    </header>
  );
}

function UserMenu({ user }: { user: SessionUser }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);
  return (
    <div className="relative" ref={ref}>
      <button
        type="button"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        aria-haspopup="menu"
        className="flex items-center gap-2 rounded-full px-3 py-2 text-sm text-sage-800 hover:bg-sage-100"
      >
        <UserIcon className="h-5 w-5" />
        <span className="hidden max-w-32 truncate md:inline">{user.username}</span>
      </button>
      {open ? (
        <div
          role="menu"
          className="absolute right-0 z-20 mt-2 w-44 rounded-lg border border-sage-100 bg-white py-1 shadow-lg"
        >
          <Link
            role="menuitem"
            to="/account"
            onClick={() => setOpen(false)}
            className="block px-4 py-2 text-sm hover:bg-sage-50"
          >
            My Account
          </Link>
          <button
            role="menuitem"
            type="button"
            className="block w-full px-4 py-2 text-left text-sm hover:bg-sage-50"
            onClick={async () => {
              setOpen(false);
              await api.call<typeof logout>({ method: 'POST', path: '/api/auth/logout' });
              cacheUser(null);
              navigate('/logout');
            }}
          >
            Sign Out
          </button>
        </div>
      ) : null}
    </div>
  );
}

function CategoryNav({ categories }: { categories: Category[] }) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  // On the listing (without a search), the link of the shown category is the current one.
  const shown = location.pathname === '/products' && !params.get('search') ? (params.get('category') ?? '') : null;
  const links = [
    { to: '/', label: 'Home', current: location.pathname === '/' },
    { to: '/products', label: 'All Products', current: shown === '' },
    ...categories.map((category) => ({
      to: `/products?category=${category.slug}`,
      label: category.name,
      current: shown === category.slug,
    })),
  ];
  return (
    <nav aria-label="Categories" className="border-t border-sage-100">
      <ul className="mx-auto flex max-w-7xl gap-1 overflow-x-auto px-4 py-2 sm:px-6">
        {links.map((link) => (
          <li key={link.to}>
            <Link
              to={link.to}
              aria-current={link.current ? 'page' : undefined}
              className={`block whitespace-nowrap rounded-full px-3 py-1.5 text-sm transition-colors ${
                link.current ? 'bg-sage-700 text-white' : 'text-sage-800 hover:bg-sage-100'
              }`}
            >
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
