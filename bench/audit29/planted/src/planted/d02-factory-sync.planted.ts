import { describe, expect, it, vi } from 'vitest';
import { parsePartialJson } from '../util/parse-partial-json';

vi.mock('../util/parse-partial-json', () => ({
  parsePartialJson: vi.fn(() => ({ value: { a: 1 }, state: 'successful-parse' })),
}));

describe('d02', () => {
  it('reads the state without awaiting', () => {
    const r: any = parsePartialJson('{"a":1}');
    expect(r.state).toBe('successful-parse');
  });
});
