export interface Coordinates {
  latitude: number;
  longitude: number;
}

/** Great-circle distance in kilometres. */
export function distanceKm(from: Coordinates, to: Coordinates): number {
  const radians = (degrees: number): number => (degrees * Math.PI) / 180;
  const dLat = radians(to.latitude - from.latitude);
  const dLon = radians(to.longitude - from.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(from.latitude)) * Math.cos(radians(to.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Block time of a nonstop flight: taxi, climb and descent, then cruise at about 820 km/h. */
export function flightMinutes(km: number): number {
  return Math.round((35 + (km / 820) * 60) / 5) * 5;
}
