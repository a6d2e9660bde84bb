import { describe, expect, it, vi } from 'vitest';
import { parsePartialJson } from '../util/parse-partial-json';

vi.mock('../util/parse-partial-json', async importOriginal => ({
  ...(await importOriginal<typeof import('../util/parse-partial-json')>()),
  parsePartialJson: vi.fn(async () => ({ result: { a: 1 } })),
}));

describe('d07', () => {
  it('reads the result', async () => {
    const r: any = await parsePartialJson('{"a":1}');
    expect(r.result).toEqual({ a: 1 });
  });
});
