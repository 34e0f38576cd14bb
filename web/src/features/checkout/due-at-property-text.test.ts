import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n.ts';
import { activateEnglishForTests, activateSpanishForTests } from '../../test-support/languages-for-tests.ts';
import { dueAtPropertyText } from './due-at-property-text.ts';

afterEach(activateEnglishForTests);

const t = (id: Parameters<typeof i18n._>[0], values?: Record<string, unknown>) => i18n._(id, values);

const cityTax = {
  amount: 9,
  currency: 'EUR',
  description: 'City tax for 2 adults and 2 nights, paid at the hotel',
  kind: 'city_tax',
  adults: 2,
  nights: 2,
};

describe('dueAtPropertyText', () => {
  it('writes a city tax from its adults and nights, in English and in Spanish', () => {
    expect(dueAtPropertyText(cityTax, t)).toEqual({
      text: 'City tax for 2 adults and 2 nights, paid at the hotel',
    });
    expect(dueAtPropertyText({ ...cityTax, adults: 1, nights: 1 }, t).text).toBe(
      'City tax for 1 adult and 1 night, paid at the hotel',
    );
    activateSpanishForTests();
    expect(dueAtPropertyText(cityTax, t)).toEqual({
      text: 'Tasa turística por 2 adultos y 2 noches, a pagar en el hotel',
    });
  });

  it('keeps a charge it cannot read as the travel API described it, marked as English', () => {
    activateSpanishForTests();
    expect(dueAtPropertyText({ amount: 20, currency: 'EUR', description: 'Resort fee' }, t)).toEqual({
      text: 'Resort fee',
      lang: 'en',
    });
  });
});
