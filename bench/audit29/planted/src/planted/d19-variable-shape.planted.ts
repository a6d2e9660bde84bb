import { describe, expect, it, vi } from 'vitest';
import { parsePartialJson } from '../util/parse-partial-json';

vi.mock('../util/parse-partial-json', () => {
  const fake = { data: { a: 1 }, state: 'successful-parse' };
  return { parsePartialJson: vi.fn(async () => fake) };
});

describe('d19', () => {
  it('reads data', async () => {
    const r: any = await parsePartialJson('{"a":1}');
    expect(r.data).toEqual({ a: 1 });
  });
});
