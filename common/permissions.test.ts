import { describe, expect, test } from 'vitest';
import { adminPermissionNames } from './contracts/accounts.ts';
import {
  adminTabs,
  deniedMessages,
  hasAccess,
  permissionLabels,
  permissionNames,
  RESERVED_PERMISSION,
  tabAccess,
  visibleTabs,
} from './permissions.ts';

const owner = { role: 'owner', isAdmin: true, adminPermissions: {} } as const;
const admin = (permissions: Partial<Record<(typeof adminPermissionNames)[number], boolean>> = {}) =>
  ({ role: 'admin', isAdmin: true, adminPermissions: permissions }) as const;
const shopper = { role: 'user', isAdmin: false, adminPermissions: {} } as const;

describe('the permission table (back-office spec 6)', () => {
  test('the owner sees every tab, in the spec order', () => {
    expect(visibleTabs(owner)).toEqual([...adminTabs]);
  });

  test('visitors and shoppers see none, whatever permissions a record claims', () => {
    expect(visibleTabs(null)).toEqual([]);
    expect(visibleTabs(shopper)).toEqual([]);
    expect(visibleTabs({ role: 'user', isAdmin: false, adminPermissions: { manageUsers: true } })).toEqual([]);
  });

  test('an admin without permissions sees the dashboard and reviews', () => {
    expect(visibleTabs(admin())).toEqual(['dashboard', 'reviews']);
  });

  test.each([
    ['manageUsers', ['users']],
    ['downloadXlsx', ['orders']],
    ['uploadProducts', ['products', 'sales', 'tiktok-shop']],
    ['manageNewsletters', ['newsletter']],
  ] as const)('%s opens exactly its tabs', (permission, tabs) => {
    expect(visibleTabs(admin({ [permission]: true }))).toEqual(
      adminTabs.filter((tab) => ['dashboard', 'reviews', ...tabs].includes(tab)),
    );
    expect(visibleTabs(admin({ [permission]: false }))).toEqual(['dashboard', 'reviews']);
  });

  test('admin management and settings are the owner’s alone, even for an admin with every permission', () => {
    const everything = admin(Object.fromEntries(adminPermissionNames.map((name) => [name, true])));
    expect(hasAccess(everything, 'owner')).toBe(false);
    expect(visibleTabs(everything)).not.toContain('admin-management');
    expect(visibleTabs(everything)).not.toContain('settings');
    expect(hasAccess(owner, tabAccess['admin-management'])).toBe(true);
  });

  test('every permission has the spec’s label, and owner is no grantable permission', () => {
    expect(permissionLabels).toEqual({
      uploadProducts: 'Manage Products & Sales',
      downloadXlsx: 'Download XLSX Data',
      manageUsers: 'Manage User Accounts',
      manageNewsletters: 'Manage Newsletters & Subscribers',
    });
    expect(adminPermissionNames).not.toContain(RESERVED_PERMISSION);
  });

  test('the denied sentences are the spec’s where it gives one', () => {
    expect(deniedMessages.owner).toBe('Only the owner can access admin management features.');
    expect(deniedMessages.uploadProducts).toBe("You don't have permission to manage products.");
    expect(deniedMessages.downloadXlsx).toBe("You don't have permission to export data.");
  });
});

describe('permissionNames', () => {
  test('the four permissions of the contract, in its order', () => {
    expect(permissionNames).toEqual([...adminPermissionNames]);
  });
});
