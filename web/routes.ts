import { index, layout, type RouteConfig, route } from '@react-router/dev/routes';

export default [
  // Every page, the back office's included, inside the shop's frame (banner, header, footer).
  layout('routes/frame.tsx', { id: 'frame' }, [
    index('routes/home.tsx'),
    route('products', 'routes/products.tsx'),
    route('product', 'routes/product.tsx', { id: 'default-product' }),
    route('product/:slug', 'routes/product.tsx', { id: 'product' }),
    route('product/:slug/reviews', 'routes/product-reviews.tsx', { id: 'product-reviews' }),
    route('product/:slug/review/new', 'routes/review-new.tsx', { id: 'review-new' }),
    route('cart', 'routes/cart.tsx'),
    route('success', 'routes/success.tsx'),
    // Link targets the spec names without a screen of their own: the matching listing.
    route('new-releases', 'routes/category-shortcut.tsx', { id: 'new-releases' }),
    route('wellness', 'routes/category-shortcut.tsx', { id: 'wellness' }),
    route('browse', 'routes/category-shortcut.tsx', { id: 'browse' }),
    route('privacy', 'routes/privacy.tsx'),
    route('returns', 'routes/returns.tsx'),
    route('conditions', 'routes/terms.tsx', { id: 'conditions' }),
    route('terms-and-conditions', 'routes/terms.tsx', { id: 'terms-and-conditions' }),
    route('terms', 'routes/terms.tsx', { id: 'terms' }),
    route('logout', 'routes/logout.tsx'),
    route('login', 'routes/login.tsx'),
    route('register', 'routes/register.tsx'),
    route('request-password-reset', 'routes/request-password-reset.tsx'),
    route('reset-password', 'routes/reset-password.tsx'),
    route('verify-email', 'routes/verify-email.tsx'),
    route('newsletter/confirm', 'routes/newsletter-confirm.tsx'),
    route('newsletter/unsubscribe', 'routes/newsletter-unsubscribe.tsx'),
    route('account', 'routes/account.tsx'),
    // The back office: its own layout, client-rendered, its tabs loaded lazily (web/admin/).
    route('admin', 'admin/admin-layout.tsx'),
    route('*', 'routes/not-found.tsx'),
  ]),
] satisfies RouteConfig;
