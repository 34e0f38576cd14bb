import { describe, expect, it } from 'vitest';
import { StayDestinationsQuerySchema, parseStayDestinations } from './destinations.ts';

describe('stay destinations', () => {
  it('keeps city and property destinations and drops item types added later', () => {
    const items = parseStayDestinations({
      items: [
        { type: 'city', cityId: 'LIS', name: 'Lisbon', countryCode: 'PT', latitude: 38.7, longitude: -9.1 },
        {
          type: 'property',
          propertyId: 'LIS-H03',
          name: 'Casa do Rio',
          city: 'Lisbon',
          countryCode: 'PT',
          latitude: 38.71,
          longitude: -9.14,
        },
        { type: 'landmark', name: 'Belem Tower' },
      ],
    });
    expect(items.map((item) => item.type)).toEqual(['city', 'property']);
  });

  it('needs a query of at least two characters after trimming', () => {
    expect(StayDestinationsQuerySchema.safeParse({ query: ' l ' }).success).toBe(false);
    expect(StayDestinationsQuerySchema.parse({ query: ' li ' })).toEqual({ query: 'li', limit: 10 });
  });
});
