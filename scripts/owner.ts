/**
 * `npm run owner -- --email owner@example.com [--password '...']`: sets the shop owner's sign-in.
 * The account with that email becomes the owner (created when missing) with the password, or
 * a generated one that is printed once. Uses the same configuration as `npm start`.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { migrateDatabase } from '../server/db/migrate.ts';
import { setOwner } from '../server/features/accounts/owner.ts';
import { AppError } from '../server/http/errors.ts';

const { values } = parseArgs({
  options: { email: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean' } },
  strict: true,
});

if (values.help || !values.email) {
  process.stdout.write("Usage: npm run owner -- --email owner@example.com [--password 'at least 8 characters']\n");
  process.exit(values.help ? 0 : 1);
}
if (values.password !== undefined && [...values.password].length < 8) {
  process.stderr.write('The password must be at least 8 characters long.\n');
  process.exit(1);
}

try {
  const config = loadConfig();
  const database = await openDatabase(config.database);
  try {
    await migrateDatabase(database);
    const owner = await setOwner(database.db, { email: values.email, password: values.password ?? null });
    process.stdout.write(`The owner is now ${owner.email}.\n`);
    if (owner.generated) process.stdout.write(`Password: ${owner.password}\nKeep it: it is not shown again.\n`);
  } finally {
    await database.close();
  }
} catch (error) {
  if (error instanceof ConfigError || error instanceof AppError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
