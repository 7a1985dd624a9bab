import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { AdminPermissions, UserRole } from '#common/contracts/accounts.ts';
import type { Db } from '#server/db/client.ts';
import { users } from '#server/features/accounts/accounts.tables.ts';
import type { TestApp } from './test-app.ts';
import { testClient } from './test-client.ts';

let counter = 0;

/**
 * A browser signed in to a new account with the given role and admin permissions (registered
 * through the API, then given the role in the database), from its own client address.
 */
export async function signedInAs(
  app: TestApp,
  db: Db,
  role: UserRole = 'user',
  permissions: AdminPermissions = {},
  name = `${Date.now().toString(36)}${(++counter).toString(36)}`,
) {
  counter += 1;
  const browser = testClient(app, { remoteAddress: `10.73.${Math.floor(counter / 200) % 250}.${counter % 200}` });
  const account = { username: `calm_${name}`, email: `calm.${name}@example.com`, password: 'Quiet-Water-42' };
  const response = await browser.post('/api/auth/register', account);
  expect(response.statusCode).toBe(201);
  const id = response.json().user.id as string;
  await db.update(users).set({ role, adminPermissions: permissions }).where(eq(users.id, id));
  return { browser, id, account };
}
