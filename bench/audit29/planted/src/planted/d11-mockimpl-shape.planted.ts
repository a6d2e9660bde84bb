import { describe, expect, it, vi } from 'vitest';
import { parsePartialJson } from '../util/parse-partial-json';

vi.mock('../util/parse-partial-json');

describe('d11', () => {
  it('parses through an implementation', async () => {
    vi.mocked(parsePartialJson).mockImplementation(async () => ({ parsed: { a: 1 } }) as any);
    const r: any = await parsePartialJson('{"a":1}');
    expect(r.parsed).toEqual({ a: 1 });
  });
});
