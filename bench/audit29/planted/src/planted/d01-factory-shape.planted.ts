import { describe, expect, it, vi } from 'vitest';
import { parsePartialJson } from '../util/parse-partial-json';

vi.mock('../util/parse-partial-json', () => ({
  parsePartialJson: vi.fn(async () => ({ value: { a: 1 }, status: 'successful-parse' })),
}));

describe('d01', () => {
  it('reads the parse status', async () => {
    const r: any = await parsePartialJson('{"a":1}');
    expect(r.status).toBe('successful-parse');
  });
});
