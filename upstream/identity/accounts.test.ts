import { describe, expect, it } from 'vitest';
import { authenticate, findAccountBySub, testAccount, TEST_TRAVELER_MAX } from './accounts.ts';

describe('accounts', () => {
  it('has a test traveler for every number, found by email and password and by sub, without registering', () => {
    for (const number of [1, 8, 42, 1_000_007, TEST_TRAVELER_MAX]) {
      const account = authenticate(`traveler${number}@wayfare.test`, 'test-pass');
      expect(account).toMatchObject({
        email: `traveler${number}@wayfare.test`,
        name: `Test Traveler ${number}`,
      });
      expect(account?.sub).toMatch(/^5f1c2a7e-0b1d-4c5e-9a01-1\d{11}$/);
      expect(findAccountBySub(account!.sub)).toEqual(account);
      expect(testAccount(number)).toEqual(account);
    }
    // The first ones keep the subs they always had.
    expect(testAccount(1)?.sub).toBe('5f1c2a7e-0b1d-4c5e-9a01-100000000001');
    expect(testAccount(8)?.sub).toBe('5f1c2a7e-0b1d-4c5e-9a01-100000000008');
    expect(testAccount(123)?.sub).toBe('5f1c2a7e-0b1d-4c5e-9a01-100000000123');
  });

  it('refuses a wrong password, and numbers outside 1..the eleven-digit maximum', () => {
    expect(authenticate('traveler5@wayfare.test', 'wrong')).toBeUndefined();
    for (const email of [
      'traveler0@wayfare.test',
      'traveler07@wayfare.test',
      `traveler${TEST_TRAVELER_MAX + 1}@wayfare.test`,
      'traveler-1@wayfare.test',
      'traveler1@wayfare.test.example',
    ]) {
      expect(authenticate(email, 'test-pass'), email).toBeUndefined();
    }
    expect(findAccountBySub('5f1c2a7e-0b1d-4c5e-9a01-100000000000')).toBeUndefined();
    expect(testAccount(0)).toBeUndefined();
    expect(testAccount(1.5)).toBeUndefined();
  });

  it('keeps the demo travelers', () => {
    expect(authenticate(' Alex@Wayfare.example ', 'alex-demo')?.sub).toBe(
      '5f1c2a7e-0b1d-4c5e-9a01-000000000001',
    );
    expect(findAccountBySub('5f1c2a7e-0b1d-4c5e-9a01-000000000003')?.name).toBe('Jordan Lee');
  });
});
