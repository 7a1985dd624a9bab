import { Link } from 'react-router';
import { COPYRIGHT_YEAR } from '#common/constants.ts';
import type { Category } from '#common/contracts/catalog.ts';
import type { PublicSettings } from '#common/contracts/settings.ts';
import { CookieSettingsButton } from '#web/storefront/tracking/cookie-banner.tsx';
import { LogoMark } from './logo.tsx';
import { NewsletterSignup } from './newsletter-signup.tsx';

export function Footer({ categories, settings }: { categories: Category[]; settings: PublicSettings }) {
  const heading = 'mb-3 text-xs font-semibold tracking-widest text-sage-300 uppercase';
  const link = 'text-sm text-sage-100 hover:text-white';
  return (
    <footer className="mt-16 bg-sage-900 text-sage-100">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 sm:px-6 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <Link to="/" className="flex items-center gap-2 text-white">
            <LogoMark />
            <span className="font-serif text-2xl">{settings.siteName}</span>
          </Link>
          <p className="mt-3 max-w-sm text-sm leading-6 text-sage-200">{settings.siteDescription}</p>
          <p className="mt-4 text-sm">
            Questions? Write to{' '}
            <a href={`mailto:${settings.supportEmail}`} className="text-white underline underline-offset-2">
              {settings.supportEmail}
            </a>
          </p>
          {/* The setting off hides the sign-up (issue 12); the server refuses it then too. */}
          {settings.enableNewsletter ? <NewsletterSignup heading={heading} /> : null}
        </div>
        <nav aria-label="Quick links">
          <h2 className={heading}>Quick links</h2>
          <ul className="space-y-2">
            <li>
              <Link to="/" className={link}>
                Home
              </Link>
            </li>
            <li>
              <Link to="/products" className={link}>
                All Products
              </Link>
            </li>
            <li>
              <Link to="/cart" className={link}>
                Cart
              </Link>
            </li>
            <li>
              <Link to="/account" className={link}>
                My Account
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Shop by category">
          <h2 className={heading}>Categories</h2>
          <ul className="space-y-2">
            {categories.map((category) => (
              <li key={category.slug}>
                <Link to={`/products?category=${category.slug}`} className={link}>
                  {category.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <nav aria-label="Legal">
            <h2 className={heading}>Legal</h2>
            <ul className="space-y-2">
              <li>
                <Link to="/privacy" className={link}>
                  Privacy Policy
                </Link>
              </li>
              <li>
                <Link to="/returns" className={link}>
                  Returns &amp; Exchanges
                </Link>
              </li>
              <li>
                <Link to="/terms-and-conditions" className={link}>
                  Terms &amp; Conditions
                </Link>
              </li>
              <li>
                <CookieSettingsButton className={`${link} text-left`} />
              </li>
            </ul>
          </nav>
          <h2 className={`${heading} mt-6`}>Follow us</h2>
          <a href={settings.socialUrl} className={link} rel="noopener noreferrer" target="_blank">
            Stillwater on TikTok
          </a>
        </div>
      </div>
      <div className="border-t border-sage-800">
        <p className="mx-auto max-w-7xl px-4 py-5 text-xs text-sage-300 sm:px-6">
          © {COPYRIGHT_YEAR} {settings.siteName}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
