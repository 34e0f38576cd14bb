import { describe, expect, it } from 'vitest';
import { pushTopic } from './push-topic.ts';

describe('pushTopic', () => {
  it('is at most 32 URL-safe base64 characters and the same for every repeat of an id', () => {
    const topic = pushTopic('5f1c2a7e-0b1d-4c5e-9a01-000000000001');
    expect(topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(pushTopic('5f1c2a7e-0b1d-4c5e-9a01-000000000001')).toBe(topic);
    expect(pushTopic('another-id')).not.toBe(topic);
  });
});
