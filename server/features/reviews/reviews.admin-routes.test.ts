import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { AdminPermissions, UserRole } from '#common/contracts/accounts.ts';
import type { AdminReview } from '#common/contracts/admin/reviews.ts';
import { newId } from '#server/db/ids.ts';
import { users } from '#server/features/accounts/accounts.tables.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { storedEventsAbout } from '#server/features/events/stored-events.testing.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { productRatings, reviewAnalyses, reviews } from './reviews.tables.ts';

const { app, database, jobsDone } = await buildTestApp();
const { db } = database;
let counter = 0;

/**
 * A browser signed in with a role, from its own address (the admin limit counts per address),
 * with a PATCH that carries the session and a fresh CSRF token as the admin app's client does.
 */
async function signedIn(role: UserRole = 'admin', permissions: AdminPermissions = {}) {
  counter += 1;
  const remoteAddress = `10.76.${Math.floor(counter / 200)}.${counter % 200}`;
  const browser = testClient(app, { remoteAddress });
  const name = `${Date.now().toString(36)}${counter.toString(36)}`;
  const registered = await browser.post('/api/auth/register', {
    username: `moderator_${name}`,
    email: `moderator.${name}@example.com`,
    password: 'Quiet-Water-42',
  });
  expect(registered.statusCode).toBe(201);
  const id = registered.json().user.id as string;
  await db.update(users).set({ role, adminPermissions: permissions }).where(eq(users.id, id));
  async function patch(url: string, payload?: unknown, { csrf = true } = {}) {
    const token = (await browser.get('/api/auth/csrf-token')).json().token as string;
    const cookie = `sw_session=${browser.cookie('sw_session')}; sw_csrf=${browser.cookie('sw_csrf')}`;
    return app.inject({
      method: 'PATCH',
      url,
      remoteAddress,
      headers: { cookie, ...(csrf ? { 'x-csrf-token': token } : {}) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }
  return { browser, patch, id };
}

/** A product of the demo shop and a few reviews of it written straight to the table. */
async function productWithReviews(
  list: { rating: number; status: 'pending' | 'approved' | 'rejected' | 'flagged'; content?: string }[],
) {
  const [product] = await db.select({ id: products.id, slug: products.slug, title: products.title }).from(products);
  if (!product) throw new Error('the demo shop has no products');
  const rows = await db
    .insert(reviews)
    .values(
      list.map(({ rating, status, content }, index) => ({
        id: newId(),
        productId: product.id,
        customerName: `Moderated ${counter}-${index}`,
        rating,
        title: `Review ${index}`,
        content: content ?? `Text of review ${index}.`,
        moderationStatus: status,
      })),
    )
    .returning();
  return { product, ids: rows.map((row) => row.id) };
}

const ratingsOf = async (productId: string) => {
  const [row] = await db.select().from(productRatings).where(eq(productRatings.productId, productId));
  return { count: row?.reviewCount ?? 0, sum: row?.ratingSum ?? 0 };
};
const statusesOf = async (ids: string[]) => {
  const rows = await db
    .select({ id: reviews.id, status: reviews.moderationStatus, reason: reviews.denialReason })
    .from(reviews)
    .where(inArray(reviews.id, ids));
  return ids.map((id) => rows.find((row) => row.id === id));
};
const auditOf = (id: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'review'), eq(auditLog.entityId, id)));

describe('GET /api/admin/reviews', () => {
  test('every admin reads the moderation fields; filters, search and sorts', async () => {
    const { browser } = await signedIn('admin');
    const marker = `lavender${Date.now().toString(36)}`;
    const { product, ids } = await productWithReviews([
      { rating: 4.4, status: 'pending', content: `${marker} one` },
      { rating: 3.5, status: 'approved', content: `${marker} two` },
      { rating: 2, status: 'rejected', content: `${marker} three` },
      { rating: 5, status: 'flagged', content: `${marker} 100% four` },
    ]);
    await db
      .update(reviews)
      .set({ aiModerationResult: { flagged: true, reasons: ['spam'] }, denialReason: 'Advertising', helpfulCount: 3 })
      .where(eq(reviews.id, ids[3] ?? ''));

    const all = await browser.get(`/api/admin/reviews?search=${marker}&sortBy=rating&sortOrder=asc`);
    expect(all.statusCode).toBe(200);
    expect(all.json().pagination).toEqual({ page: 1, pages: 1, total: 4, limit: 10 });
    const listed = all.json().reviews as AdminReview[];
    expect(listed.map((review) => review.rating)).toEqual([2, 3.5, 4.4, 5]);
    expect(listed[3]).toEqual({
      id: ids[3],
      productId: product.id,
      productTitle: product.title,
      user: null,
      customerName: expect.any(String),
      rating: 5,
      title: 'Review 3',
      content: `${marker} 100% four`,
      approved: false,
      denied: true,
      moderationStatus: 'flagged',
      denialReason: 'Advertising',
      aiModerationResult: { flagged: true, reasons: ['spam'] },
      helpfulCount: 3,
      createdAt: expect.any(String),
    });
    expect(listed.map((review) => [review.approved, review.denied])).toEqual([
      [false, true],
      [true, false],
      [false, false],
      [false, true],
    ]);

    const ids$ = async (query: string, search = marker) =>
      (
        (await browser.get(`/api/admin/reviews?search=${encodeURIComponent(search)}&${query}`)).json()
          .reviews as AdminReview[]
      ).map((review) => review.id);
    // flagged holds every denied review; a star holds the ratings that round to it.
    expect(await ids$('statusFilter=flagged&sortBy=rating&sortOrder=asc')).toEqual([ids[2], ids[3]]);
    expect(await ids$('statusFilter=pending')).toEqual([ids[0]]);
    expect(await ids$('statusFilter=approved')).toEqual([ids[1]]);
    expect(await ids$('ratingFilter=4&sortBy=rating')).toEqual([ids[0], ids[1]]);
    expect(await ids$('sortBy=helpfulCount&limit=1')).toEqual([ids[3]]);
    // The search is literal: % is a percent sign, not a wildcard.
    expect(await ids$('', `${marker} 100%`)).toEqual([ids[3]]);
    expect(await ids$('', `${marker} 1_0%`)).toEqual([]);
    expect(
      (await browser.get(`/api/admin/reviews?search=${encodeURIComponent(product.title)}`)).json().pagination.total,
    ).toBeGreaterThanOrEqual(4);
  });

  test('bad queries are refused, naming the field', async () => {
    const { browser } = await signedIn('admin');
    for (const [query, field] of [
      ['ratingFilter=6', 'ratingFilter'],
      ['ratingFilter=0', 'ratingFilter'],
      ['ratingFilter=4.5', 'ratingFilter'],
      ['statusFilter=rejected', 'statusFilter'],
      ['sortBy=title', 'sortBy'],
      ['sortOrder=up', 'sortOrder'],
      ['page=0', 'page'],
      ['limit=101', 'limit'],
      [`search=${'x'.repeat(101)}`, 'search'],
    ]) {
      const response = await browser.get(`/api/admin/reviews?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().field, query).toBe(field);
    }
  });
});

describe('moderation', () => {
  test('approve: a pending review becomes public; ratings, overview, event and audit follow; refused twice', async () => {
    const { patch, id: adminId } = await signedIn('admin');
    const { product, ids } = await productWithReviews([{ rating: 5, status: 'pending' }]);
    const id = ids[0] ?? '';
    const before = await ratingsOf(product.id);
    // A cached public rating summary is dropped by the change.
    const cached = (await testClient(app).get(`/api/reviews/rating/${product.slug}`)).json().totalReviews;

    const response = await patch(`/api/admin/reviews/${id}/approve`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Review approved',
      review: { id, approved: true, denied: false, moderationStatus: 'approved' },
    });
    expect(await ratingsOf(product.id)).toEqual({ count: before.count + 1, sum: before.sum + 5 });
    expect((await testClient(app).get(`/api/reviews/rating/${product.slug}`)).json().totalReviews).toBe(cached + 1);
    await jobsDone();
    const [analysis] = await db.select().from(reviewAnalyses).where(eq(reviewAnalyses.productId, product.id));
    expect(analysis?.reviewCount).toBe(before.count + 1);

    const [event] = await storedEventsAbout<{ productId: string; review: AdminReview }>(db, id, 1);
    expect(event).toMatchObject({
      type: 'review_updated',
      collection: 'reviews',
      data: { collection: 'reviews', id, productId: product.id, review: { moderationStatus: 'approved' } },
    });
    const audited = await auditOf(id);
    expect(audited.map((row) => [row.action, row.actorUserId, row.details])).toEqual([
      [
        'review.approved',
        adminId,
        {
          productId: product.id,
          before: { moderationStatus: 'pending', denialReason: null },
          after: { moderationStatus: 'approved', denialReason: null },
        },
      ],
    ]);

    const again = await patch(`/api/admin/reviews/${id}/approve`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'This review is already approved', code: 'not_pending' });
    expect(await auditOf(id)).toHaveLength(1);
  });

  test('flag: a reason is required (trimmed, bounded, no NUL); the review leaves the ratings; refused once denied', async () => {
    const { patch } = await signedIn('admin');
    const { product, ids } = await productWithReviews([{ rating: 4, status: 'approved' }]);
    const id = ids[0] ?? '';
    const before = await ratingsOf(product.id);
    for (const [body, field] of [
      [{}, 'reason'],
      [{ reason: '' }, 'reason'],
      [{ reason: '   ' }, 'reason'],
      [{ reason: 7 }, 'reason'],
      [{ reason: 'x'.repeat(501) }, 'reason'],
      [{ reason: 'spam\u0000' }, 'reason'],
    ] as const) {
      const response = await patch(`/api/admin/reviews/${id}/flag`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().field).toBe(field);
    }
    expect((await patch(`/api/admin/reviews/${id}/flag`, { reason: '' })).json().error).toContain(
      'Please give a reason for flagging this review',
    );
    expect(await statusesOf([id])).toEqual([{ id, status: 'approved', reason: null }]);
    expect(await auditOf(id)).toHaveLength(0);

    const response = await patch(`/api/admin/reviews/${id}/flag`, { reason: '  Off topic  ' });
    expect(response.statusCode).toBe(200);
    expect(response.json().review).toMatchObject({ approved: false, denied: true, denialReason: 'Off topic' });
    expect(await ratingsOf(product.id)).toEqual({ count: before.count - 1, sum: before.sum - 4 });
    expect((await auditOf(id))[0]?.details).toMatchObject({
      before: { moderationStatus: 'approved', denialReason: null },
      after: { moderationStatus: 'flagged', denialReason: 'Off topic' },
    });
    expect((await storedEventsAbout(db, id, 1))[0]?.type).toBe('review_updated');

    expect((await patch(`/api/admin/reviews/${id}/flag`, { reason: 'Again' })).statusCode).toBe(409);
    const approve = await patch(`/api/admin/reviews/${id}/approve`);
    expect(approve.statusCode).toBe(409);
    expect(approve.json().code).toBe('not_pending');
    expect(await statusesOf([id])).toEqual([{ id, status: 'flagged', reason: 'Off topic' }]);
  });

  test('two moderators approve at once: the row lock lets one through, the other gets 409', async () => {
    const first = await signedIn('admin');
    const second = await signedIn('admin');
    const { product, ids } = await productWithReviews([{ rating: 3, status: 'pending' }]);
    const id = ids[0] ?? '';
    const before = await ratingsOf(product.id);
    const answers = await Promise.all([
      first.patch(`/api/admin/reviews/${id}/approve`),
      second.patch(`/api/admin/reviews/${id}/approve`),
    ]);
    expect(answers.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(await ratingsOf(product.id)).toEqual({ count: before.count + 1, sum: before.sum + 3 });
    expect(await auditOf(id)).toHaveLength(1);
    await jobsDone();
  });

  test('bad and unknown ids: 400 or 404 naming them, nothing changed', async () => {
    const { patch, browser } = await signedIn('admin');
    const unknown = newId();
    for (const path of ['not-an-id/approve', 'ABCDEF0123456789/approve', '%00/approve', `${unknown}0/flag`]) {
      const response = await patch(`/api/admin/reviews/${path}`, { reason: 'x' });
      expect(response.statusCode, path).toBe(400);
      expect(response.json().field, path).toBe('id');
    }
    const missing = await patch(`/api/admin/reviews/${unknown}/approve`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: `Review not found: ${unknown}`, code: 'not_found' });
    expect((await patch(`/api/admin/reviews/${unknown}/flag`, { reason: 'Spam' })).statusCode).toBe(404);
    expect((await browser.delete(`/api/admin/reviews/${unknown}`)).statusCode).toBe(404);
    expect((await browser.delete('/api/admin/reviews/nope')).statusCode).toBe(400);
  });

  test('bulk: all or nothing; bad input refused, unknown ids named', async () => {
    const { patch, id: adminId } = await signedIn('admin');
    const { product, ids } = await productWithReviews([
      { rating: 5, status: 'pending' },
      { rating: 1, status: 'pending' },
      { rating: 3, status: 'flagged' },
    ]);
    await db
      .update(reviews)
      .set({ denialReason: 'Rude' })
      .where(eq(reviews.id, ids[2] ?? ''));
    const before = await ratingsOf(product.id);
    const first = ids[0] ?? '';
    const unknown = [newId(), newId()];
    const refused: [unknown, number, string][] = [
      [{ reviewIds: [], status: 'approved' }, 400, 'must name at least one review'],
      [{ reviewIds: Array.from({ length: 101 }, () => newId()), status: 'approved' }, 400, 'at most 100'],
      [{ reviewIds: [first, first], status: 'approved' }, 400, 'must not name a review twice'],
      [{ reviewIds: [first], status: 'rejected' }, 400, 'status'],
      [{ reviewIds: [first], status: 'deleted' }, 400, 'status'],
      [{ reviewIds: [first, 'nope'], status: 'approved' }, 400, 'reviewIds.1'],
      [{ reviewIds: `${first}`, status: 'approved' }, 400, 'reviewIds'],
      [{ reviewIds: [first, '\u0000'], status: 'approved' }, 400, 'NUL'],
      [{ reviewIds: [first, unknown[0]], status: 'approved' }, 404, `Review not found: ${unknown[0]}`],
      [{ reviewIds: [...unknown, ...ids], status: 'approved' }, 404, `Reviews not found: ${unknown.join(', ')}`],
    ];
    for (const [body, status, named] of refused) {
      const response = await patch('/api/admin/reviews/status', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(JSON.stringify(response.json()), JSON.stringify(body)).toContain(named);
    }
    expect(await statusesOf(ids)).toEqual([
      { id: ids[0], status: 'pending', reason: null },
      { id: ids[1], status: 'pending', reason: null },
      { id: ids[2], status: 'flagged', reason: 'Rude' },
    ]);
    expect(await ratingsOf(product.id)).toEqual(before);
    for (const id of ids) expect(await auditOf(id)).toHaveLength(0);

    const approved = await patch('/api/admin/reviews/status', { reviewIds: ids, status: 'approved' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().message).toBe('3 reviews set to approved');
    expect((approved.json().reviews as AdminReview[]).map((review) => [review.id, review.approved])).toEqual(
      ids.map((id) => [id, true]),
    );
    expect(await ratingsOf(product.id)).toEqual({ count: before.count + 3, sum: before.sum + 9 });
    expect(await statusesOf([ids[2] ?? ''])).toEqual([{ id: ids[2], status: 'approved', reason: null }]);
    for (const id of ids) {
      expect((await auditOf(id)).map((row) => [row.action, row.actorUserId])).toEqual([
        ['review.status_changed', adminId],
      ]);
      expect((await storedEventsAbout(db, id, 1))[0]).toMatchObject({ type: 'review_updated', collection: 'reviews' });
    }

    const flagged = await patch('/api/admin/reviews/status', { reviewIds: [ids[0], ids[1]], status: 'flagged' });
    expect(flagged.json().reviews.map((review: AdminReview) => review.denied)).toEqual([true, true]);
    expect(await ratingsOf(product.id)).toEqual({ count: before.count + 1, sum: before.sum + 3 });
    const pending = await patch('/api/admin/reviews/status', { reviewIds: [ids[0]], status: 'pending' });
    expect(pending.json().message).toBe('1 review set to pending');
    expect(await statusesOf([ids[0] ?? ''])).toEqual([{ id: ids[0], status: 'pending', reason: null }]);
  });

  test('delete: the review goes, the ratings follow, audited with its text and published', async () => {
    const { browser, id: adminId } = await signedIn('admin');
    const { product, ids } = await productWithReviews([{ rating: 2, status: 'approved' }]);
    const id = ids[0] ?? '';
    const before = await ratingsOf(product.id);
    const response = await browser.delete(`/api/admin/reviews/${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Review deleted' });
    expect(await statusesOf([id])).toEqual([undefined]);
    expect(await ratingsOf(product.id)).toEqual({ count: before.count - 1, sum: before.sum - 2 });
    const [audited] = await auditOf(id);
    expect(audited).toMatchObject({
      action: 'review.deleted',
      actorUserId: adminId,
      details: { productId: product.id, before: { rating: 2, moderationStatus: 'approved' }, after: null },
    });
    const [event] = await storedEventsAbout(db, id, 1);
    expect(event).toEqual({
      type: 'review_deleted',
      collection: 'reviews',
      data: { collection: 'reviews', id, productId: product.id },
    });
    expect((await browser.delete(`/api/admin/reviews/${id}`)).statusCode).toBe(404);
    await jobsDone();
  });
});

describe("the spec's paths without /api", () => {
  test('approve, flag, bulk and delete answer there with the same guard and CSRF check', async () => {
    const { patch, browser } = await signedIn('admin');
    const { ids } = await productWithReviews([
      { rating: 4, status: 'pending' },
      { rating: 4, status: 'pending' },
      { rating: 4, status: 'pending' },
    ]);
    const [a = '', b = '', c = ''] = ids;
    const shopper = await signedIn('user');
    const forbidden = await shopper.patch(`/admin/reviews/${a}/approve`);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe('Admin access required');
    const visitor = await app.inject({ method: 'PATCH', url: `/admin/reviews/${a}/approve` });
    expect([401, 403]).toContain(visitor.statusCode);
    expect((await patch(`/admin/reviews/${a}/approve`, undefined, { csrf: false })).statusCode).toBe(403);
    expect(await statusesOf([a])).toEqual([{ id: a, status: 'pending', reason: null }]);

    expect((await patch(`/admin/reviews/${a}/approve`)).json().review.moderationStatus).toBe('approved');
    expect((await patch(`/admin/reviews/${b}/flag`, { reason: '' })).statusCode).toBe(400);
    expect((await patch(`/admin/reviews/${b}/flag`, { reason: 'Spam' })).json().review.denialReason).toBe('Spam');
    expect((await patch('/admin/reviews/status', { reviewIds: [c], status: 'flagged' })).statusCode).toBe(200);
    expect(await statusesOf(ids)).toEqual([
      { id: a, status: 'approved', reason: null },
      { id: b, status: 'flagged', reason: 'Spam' },
      { id: c, status: 'flagged', reason: null },
    ]);
    expect((await browser.delete(`/admin/reviews/${c}`)).statusCode).toBe(200);
    expect(await statusesOf([c])).toEqual([undefined]);
  });
});
