import { test as base } from '@playwright/test';
import { AdminClient } from '../support/admin-client.ts';
import { FLEET_TRAVEL_API_ORIGIN, STACK } from '../support/stack.ts';

/** The fleet journeys' test: the travel API's admin client of the fleet, one per worker. */
export const test = base.extend<object, { admin: AdminClient }>({
  admin: [
    async ({ playwright }, use) => {
      const request = await playwright.request.newContext({
        baseURL: `${FLEET_TRAVEL_API_ORIGIN}/admin/`,
        extraHTTPHeaders: { Authorization: `Bearer ${STACK.adminToken}` },
        ignoreHTTPSErrors: true,
      });
      await use(new AdminClient(request));
      await request.dispose();
    },
    { scope: 'worker' },
  ],
});
