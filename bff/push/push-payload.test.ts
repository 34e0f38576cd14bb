import { describe, expect, it } from 'vitest';
import { PUSH_PAYLOAD_MAX_BYTES } from '#shared/api/push-payload.ts';
import { DELAYED_FLIGHT, LONDON } from '#shared/test-support/delayed-flight.ts';
import { notificationFixture } from '../test-support/scripted-travel-api.ts';
import { pushPayloadJson } from './push-payload.ts';

const segment = { ...DELAYED_FLIGHT, destination: LONDON };
const delay = {
  ...notificationFixture('n-1'),
  facts: { segment, previous: { delayMinutes: 0, gate: 'C31' } },
};

describe('pushPayloadJson', () => {
  it('carries the event’s kind, its facts and the traveler’s locale beside the travel API’s English', () => {
    expect(JSON.parse(pushPayloadJson(delay, 'es-ES'))).toEqual({
      notificationId: 'n-1',
      title: delay.title,
      body: delay.body,
      tag: 'n-1',
      url: `/trips/${delay.tripId}/segment/${delay.segmentId}`,
      severity: 'warning',
      eventType: 'SEGMENT_DELAYED',
      facts: delay.facts,
      locale: 'es-ES',
    });
  });

  it('names no locale when the session knows none', () => {
    expect(JSON.parse(pushPayloadJson(delay, undefined))).not.toHaveProperty('locale');
  });

  it('leaves out facts that would not fit a push message, keeping the English', () => {
    const long = { ...segment, address: 'x'.repeat(PUSH_PAYLOAD_MAX_BYTES) };
    const json = pushPayloadJson({ ...delay, facts: { ...delay.facts, segment: long } }, 'es-ES');
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(PUSH_PAYLOAD_MAX_BYTES);
    expect(JSON.parse(json)).toMatchObject({ title: delay.title, body: delay.body, locale: 'es-ES' });
    expect(JSON.parse(json)).not.toHaveProperty('facts');
  });
});
