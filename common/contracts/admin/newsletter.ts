import * as z from 'zod/mini';
import { NEWSLETTER_CONTENT_MAX, NEWSLETTER_SUBJECT_MAX, SEND_FIELDS_REQUIRED } from '../../newsletter-rules.ts';
import { Pagination } from '../pagination.ts';
import { AdminListQuery } from './users.ts';

/** Spec 9: the newsletter tab sorts by date or email (starting desc, the list query's default). */
export const adminSubscriberSortFields = ['createdAt', 'email'] as const;
/** Active, inactive, and pending: signed up but not confirmed yet (double opt-in). */
export const subscriberStatuses = ['active', 'inactive', 'pending'] as const;
export type SubscriberStatus = (typeof subscriberStatuses)[number];

/** A subscriber's id: 16 hex characters (the ids the server makes); anything else names none. */
export const SubscriberId = z.string().check(z.regex(/^[0-9a-f]{16}$/, 'must be a subscriber id (16 hex characters)'));
export const SubscriberIdParam = z.object({ id: SubscriberId });
export const IssueIdParam = z.object({
  id: z.string().check(z.regex(/^[0-9a-f]{16}$/, 'must be a send id (16 hex characters)')),
});

/** A subscriber as the tab lists them (spec 3, Newsletter subscriber), plus its status and source. */
export const AdminSubscriber = z.object({
  _id: z.string(),
  email: z.string(),
  isActive: z.boolean(),
  status: z.enum(subscriberStatuses),
  /** Where the address was given: 'checkout', 'footer' or 'admin'. */
  source: z.string(),
  createdAt: z.string(),
  lastEmailSent: z.nullable(z.string()),
});
export type AdminSubscriber = z.infer<typeof AdminSubscriber>;

/** The list's filters and order, shared by the list and the CSV export (the file holds what the list shows). */
export const AdminSubscriberFilters = z.object({
  search: AdminListQuery.shape.search,
  statusFilter: z.optional(z.enum(subscriberStatuses)),
  sortBy: z._default(z.enum(adminSubscriberSortFields), 'createdAt'),
  sortOrder: AdminListQuery.shape.sortOrder,
});
export type AdminSubscriberFilters = z.output<typeof AdminSubscriberFilters>;

export const listAdminSubscribers = {
  method: 'GET',
  path: '/api/admin/newsletter',
  query: z.extend(AdminListQuery, AdminSubscriberFilters.shape),
  response: z.object({ subscribers: z.array(AdminSubscriber), pagination: Pagination }),
} as const;

/** Activate or deactivate (spec 4). */
export const updateSubscriber = {
  method: 'PATCH',
  path: '/api/admin/newsletter/:id',
  params: SubscriberIdParam,
  body: z.object({ isActive: z.boolean() }),
  response: z.object({ message: z.string(), subscriber: AdminSubscriber }),
} as const;

export const deleteSubscriber = {
  method: 'DELETE',
  path: '/api/admin/newsletter/:id',
  params: SubscriberIdParam,
  response: z.object({ message: z.string() }),
} as const;

/** CSV (RFC 4180, UTF-8 with BOM) of the subscribers the list shows for the same filters, in its order. */
export const exportSubscribers = {
  method: 'GET',
  path: '/api/admin/newsletter/export',
  query: AdminSubscriberFilters,
} as const;

/** A trimmed text of at most `max` characters; missing or blank gets spec 7's sentence. */
const required = (max: number) =>
  z.prefault(
    z
      .string()
      .check(z.trim(), z.minLength(1, SEND_FIELDS_REQUIRED), z.maxLength(max, `must be at most ${max} characters`)),
    '',
  );

/** Subject and content of a newsletter (plain text; blank lines separate paragraphs). */
export const NewsletterDraft = z.object({
  subject: required(NEWSLETTER_SUBJECT_MAX),
  content: required(NEWSLETTER_CONTENT_MAX),
});
export type NewsletterDraft = z.output<typeof NewsletterDraft>;

export const newsletterSendStatuses = ['queued', 'sending', 'sent', 'cancelled'] as const;

/** A send's progress, for the tab to poll: sent of total, and failures. */
export const NewsletterSend = z.object({
  id: z.string(),
  subject: z.string(),
  status: z.enum(newsletterSendStatuses),
  total: z.int(),
  sent: z.int(),
  failed: z.int(),
  createdAt: z.string(),
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
});
export type NewsletterSend = z.infer<typeof NewsletterSend>;

/** Queues the newsletter for every active subscriber; 202 with the send to poll. */
export const sendNewsletter = {
  method: 'POST',
  path: '/api/admin/newsletter/send',
  body: NewsletterDraft,
  response: z.object({ message: z.string(), send: NewsletterSend }),
} as const;

/** The mail as a subscriber gets it (its unsubscribe link made for the preview). */
export const previewNewsletter = {
  method: 'POST',
  path: '/api/admin/newsletter/preview',
  body: NewsletterDraft,
  response: z.object({
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    headers: z.record(z.string(), z.string()),
  }),
} as const;

/** Sends the newsletter to the signed-in admin's own address only. */
export const testNewsletter = {
  method: 'POST',
  path: '/api/admin/newsletter/test',
  body: NewsletterDraft,
  response: z.object({ message: z.string(), to: z.string() }),
} as const;

/** The latest sends, newest first (the tab shows the running one's progress). */
export const listNewsletterSends = {
  method: 'GET',
  path: '/api/admin/newsletter/sends',
  response: z.object({ sends: z.array(NewsletterSend) }),
} as const;

export const getNewsletterSend = {
  method: 'GET',
  path: '/api/admin/newsletter/sends/:id',
  params: IssueIdParam,
  response: z.object({ send: NewsletterSend }),
} as const;
