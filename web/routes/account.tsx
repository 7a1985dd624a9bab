import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useRevalidator, useSearchParams } from 'react-router';
import { validateEmail, validatePasswordChange, validateUsername } from '#common/account-rules.ts';
import type { changePassword, logout, SessionUser, updateProfile } from '#common/contracts/accounts.ts';
import { listMyOrders } from '#common/contracts/orders.ts';
import { listMyReviews } from '#common/contracts/reviews.ts';
import { formatCents } from '#common/money.ts';
import { ApiRequestError, errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { Notice, PasswordField, TextField } from '#web/common/form-fields.tsx';
import { requireSignedIn } from '#web/common/guards.ts';
import { apiContext } from '#web/context.ts';
import { cacheUser } from '#web/storefront/account/user-cache.ts';
import { OwnReview } from '#web/storefront/reviews/own-review.tsx';
import type { Route } from './+types/account.ts';

const tabs = [
  { id: 'profile', label: 'Profile' },
  { id: 'reviews', label: 'My Reviews' },
  { id: 'orders', label: 'Order History' },
  { id: 'security', label: 'Security' },
] as const;
type Tab = (typeof tabs)[number]['id'];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireSignedIn(request, context);
  const api = context.get(apiContext);
  const [reviews, orders] = await Promise.all([
    api.call(listMyReviews).then((r) => r.reviews),
    api.call(listMyOrders).then((r) => r.orders),
  ]);
  const wanted = new URL(request.url).searchParams.get('tab');
  const tab: Tab = tabs.some((t) => t.id === wanted) ? (wanted as Tab) : 'profile';
  return { user, reviews, orders, tab };
}

export const meta: Route.MetaFunction = () => [
  { title: 'My account · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

const dateFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const button = 'rounded-full px-5 py-2 text-sm font-medium';

export default function Account({ loaderData }: Route.ComponentProps) {
  const { user, reviews, orders, tab } = loaderData;
  const [, setParams] = useSearchParams();
  const navigate = useNavigate();
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl text-sage-900">My account</h1>
          <p className="mt-1 text-stone-600">Signed in as {user.username}</p>
        </div>
        <button
          type="button"
          onClick={async () => {
            await api.call<typeof logout>({ method: 'POST', path: '/api/auth/logout' }).catch(() => undefined);
            cacheUser(null);
            await navigate('/logout');
          }}
          className={`${button} border border-sage-300 text-sage-800 hover:bg-sage-50`}
        >
          Sign out
        </button>
      </div>
      <div role="tablist" aria-label="Account" className="mt-8 flex flex-wrap gap-1 border-b border-sage-100">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            onClick={() =>
              setParams(t.id === 'profile' ? {} : { tab: t.id }, { preventScrollReset: true, replace: true })
            }
            className={`-mb-px border-b-2 px-4 py-2.5 text-sm font-medium ${
              tab === t.id ? 'border-sage-700 text-sage-900' : 'border-transparent text-stone-600 hover:text-stone-900'
            }`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="pt-8">
        {tab === 'profile' ? <ProfilePanel user={user} /> : null}
        {tab === 'reviews' ? <ReviewsPanel reviews={reviews} /> : null}
        {tab === 'orders' ? <OrdersPanel orders={orders} /> : null}
        {tab === 'security' ? <SecurityPanel /> : null}
      </div>
    </div>
  );
}

type ProfileField = 'username' | 'email' | 'currentPassword';

function ProfilePanel({ user }: { user: SessionUser }) {
  const revalidator = useRevalidator();
  const form = useRef<HTMLFormElement>(null);
  const [editing, setEditing] = useState(false);
  const [username, setUsername] = useState(user.username);
  const [email, setEmail] = useState(user.email);
  const [currentPassword, setCurrentPassword] = useState('');
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  // The server's answer about one field, shown under it (e.g. a wrong current password).
  const [fieldError, setFieldError] = useState<{ field: ProfileField; text: string } | null>(null);
  // The new address waiting for its confirmation link (the account keeps the old one until then).
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // A field the server refused gets the focus, so its error (aria-describedby) is read out.
  useEffect(() => {
    if (fieldError) form.current?.querySelector<HTMLInputElement>('input[aria-invalid="true"]')?.focus();
  }, [fieldError]);

  if (!editing) {
    const waiting = pendingEmail && pendingEmail.toLowerCase() !== user.email.toLowerCase() ? pendingEmail : null;
    return (
      <section aria-label="Profile" className="space-y-4">
        {message ? <Notice kind={message.kind}>{message.text}</Notice> : null}
        <dl className="grid gap-4 sm:grid-cols-2">
          <div>
            <dt className="text-sm text-stone-600">Username</dt>
            <dd className="text-lg text-stone-900">{user.username}</dd>
          </div>
          <div>
            <dt className="text-sm text-stone-600">Email</dt>
            <dd className="text-lg text-stone-900">{user.email}</dd>
            {waiting ? <dd className="mt-1 text-sm text-stone-600">Waiting for confirmation: {waiting}</dd> : null}
          </div>
        </dl>
        <button
          type="button"
          onClick={() => {
            setUsername(user.username);
            setEmail(user.email);
            setCurrentPassword('');
            setFieldError(null);
            setMessage(null);
            setEditing(true);
          }}
          className={`${button} bg-sage-700 text-white hover:bg-sage-800`}
        >
          Edit profile
        </button>
      </section>
    );
  }
  const usernameError = validateUsername(username);
  const emailError = validateEmail(email);
  // A new address needs the current password and a confirmation from that address.
  const emailChanged = email.trim().toLowerCase() !== user.email.trim().toLowerCase();
  const serverError = (field: ProfileField) => (fieldError?.field === field ? fieldError.text : null);
  const edit = (field: ProfileField, set: (value: string) => void) => (value: string) => {
    set(value);
    if (fieldError?.field === field) setFieldError(null);
  };
  return (
    <form
      ref={form}
      aria-label="Edit profile"
      className="max-w-md space-y-4"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        if (usernameError || emailError) return;
        setBusy(true);
        setMessage(null);
        setFieldError(null);
        try {
          const result = await api.call<typeof updateProfile>(
            { method: 'PUT', path: '/api/auth/profile' },
            {
              body: {
                username: username.trim(),
                email: email.trim(),
                ...(emailChanged && currentPassword ? { currentPassword } : {}),
              },
            },
          );
          cacheUser(result.user);
          if (emailChanged) setPendingEmail(result.pendingEmail ?? null);
          setMessage({ kind: 'success', text: result.message });
          setUsername(result.user.username);
          setEmail(result.user.email);
          setCurrentPassword('');
          setEditing(false);
          void revalidator.revalidate();
        } catch (error) {
          const text = errorMessage(error, 'Profile update failed');
          const field = error instanceof ApiRequestError ? error.field : undefined;
          if (field === 'username' || field === 'email' || (field === 'currentPassword' && emailChanged)) {
            setFieldError({ field, text });
          } else {
            setMessage({ kind: 'error', text });
          }
        } finally {
          setBusy(false);
        }
      }}
    >
      {message?.kind === 'error' ? <Notice kind="error">{message.text}</Notice> : null}
      <TextField
        label="Username"
        value={username}
        onChange={edit('username', setUsername)}
        error={usernameError ?? serverError('username')}
        autoComplete="username"
      />
      <TextField
        label="Email"
        type="email"
        value={email}
        onChange={edit('email', setEmail)}
        error={emailError ?? serverError('email')}
        autoComplete="email"
        hint={
          emailChanged
            ? 'Enter your current password below. Your email changes once you open the link we send to the new address.'
            : undefined
        }
      />
      {emailChanged ? (
        <PasswordField
          label="Current password"
          value={currentPassword}
          onChange={edit('currentPassword', setCurrentPassword)}
          error={serverError('currentPassword')}
          autoComplete="current-password"
          name="currentPassword"
        />
      ) : null}
      <div className="flex gap-3">
        <button
          type="submit"
          disabled={busy || Boolean(usernameError || emailError)}
          className={`${button} bg-sage-700 text-white hover:bg-sage-800 disabled:bg-stone-300`}
        >
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button
          type="button"
          onClick={() => {
            setEditing(false);
            setUsername(user.username);
            setEmail(user.email);
            setCurrentPassword('');
            setFieldError(null);
            setMessage(null);
          }}
          className={`${button} border border-sage-300 text-sage-800 hover:bg-sage-50`}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}

function SecurityPanel() {
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof form) => (value: string) => setForm((current) => ({ ...current, [field]: value }));
  if (!editing) {
    return (
      <section aria-label="Security" className="space-y-4">
        {message ? <Notice kind={message.kind}>{message.text}</Notice> : null}
        <p className="text-stone-700">
          Your password is stored as a one-way hash. Changing it signs you out everywhere else.
        </p>
        <button
          type="button"
          onClick={() => setEditing(true)}
          className={`${button} bg-sage-700 text-white hover:bg-sage-800`}
        >
          Change password
        </button>
      </section>
    );
  }
  return (
    <form
      aria-label="Change password"
      className="max-w-md space-y-4"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const problem = validatePasswordChange(form);
        if (problem) {
          setMessage({ kind: 'error', text: problem });
          return;
        }
        setBusy(true);
        try {
          const result = await api.call<typeof changePassword>(
            { method: 'PUT', path: '/api/auth/change-password' },
            { body: { currentPassword: form.currentPassword, newPassword: form.newPassword } },
          );
          setMessage({ kind: 'success', text: result.message });
          setForm({ currentPassword: '', newPassword: '', confirmPassword: '' });
          setEditing(false);
        } catch (error) {
          setMessage({
            kind: 'error',
            text: errorMessage(error, 'Password change failed'),
          });
        } finally {
          setBusy(false);
        }
      }}
    >
      {message?.kind === 'error' ? <Notice kind="error">{message.text}</Notice> : null}
      <PasswordField label="Current password" value={form.currentPassword} onChange={set('currentPassword')} />
      <PasswordField
        label="New password"
        value={form.newPassword}
        onChange={set('newPassword')}
        autoComplete="new-password"
      />
      <PasswordField
        label="Confirm new password"
        value={form.confirmPassword}
        onChange={set('confirmPassword')}
        autoComplete="new-password"
      />
      <div className="flex gap-3">
        <button
          type="submit"
          disabled={busy}
          className={`${button} bg-sage-700 text-white hover:bg-sage-800 disabled:bg-stone-300`}
        >
          {busy ? 'Saving…' : 'Change password'}
        </button>
        <button
          type="button"
          onClick={() => {
            setEditing(false);
            setMessage(null);
          }}
          className={`${button} border border-sage-300 text-sage-800 hover:bg-sage-50`}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * My Reviews: the user's own reviews, each with edit and delete (spec section 2, Account). An
 * edit or a deletion shows at once; the list is then loaded again from the server.
 */
function ReviewsPanel({ reviews }: { reviews: Route.ComponentProps['loaderData']['reviews'] }) {
  const revalidator = useRevalidator();
  const [list, setList] = useState(reviews);
  useEffect(() => setList(reviews), [reviews]);
  const [deleted, setDeleted] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <section aria-labelledby="my-reviews-heading" className="space-y-4">
      <h2 id="my-reviews-heading" ref={heading} tabIndex={-1} className="font-serif text-2xl text-sage-900">
        My reviews
      </h2>
      {deleted ? <Notice kind="success">Review deleted</Notice> : null}
      {list.length === 0 ? (
        <p className="text-stone-600">
          You have not written a review yet. Find something you love in the{' '}
          <Link to="/products" className="text-sage-700 underline">
            shop
          </Link>
          .
        </p>
      ) : (
        <ul className="space-y-4">
          {list.map((review) => (
            <li key={review.id}>
              <OwnReview
                review={review}
                onChanged={(saved) => {
                  setDeleted(false);
                  setList((current) => current.map((r) => (r.id === saved.id ? saved : r)));
                  void revalidator.revalidate();
                }}
                onDeleted={(id) => {
                  setList((current) => current.filter((r) => r.id !== id));
                  setDeleted(true);
                  heading.current?.focus();
                  void revalidator.revalidate();
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function OrdersPanel({ orders }: { orders: Route.ComponentProps['loaderData']['orders'] }) {
  if (orders.length === 0) {
    return <p className="text-stone-600">No orders yet.</p>;
  }
  return (
    <ul className="space-y-4">
      {orders.map((order) => (
        <li key={order.id} className="rounded-2xl border border-sage-100 bg-white p-5">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <p className="font-medium text-stone-900">
              Order {order.orderNumber}{' '}
              <span className="text-sm font-normal text-stone-600">
                · {dateFormat.format(new Date(order.createdAt))}
              </span>
            </p>
            <span className="rounded-full bg-sage-50 px-2.5 py-0.5 text-xs font-medium text-sage-800 capitalize">
              {order.status}
            </span>
          </div>
          <ul className="mt-3 space-y-1 text-sm text-stone-700">
            {order.items.map((item) => (
              <li key={item.id} className="flex justify-between gap-4">
                <span>
                  {item.quantity} × {item.productName}
                  {item.variantName ? ` (${item.variantName})` : ''}
                </span>
                <span>{formatCents(item.price * item.quantity)}</span>
              </li>
            ))}
          </ul>
          <p className="mt-3 text-right font-semibold text-stone-900">Total {formatCents(order.total)}</p>
        </li>
      ))}
    </ul>
  );
}
