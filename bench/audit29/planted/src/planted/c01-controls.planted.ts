import { describe, expect, it, vi } from 'vitest';
import { parsePartialJson } from '../util/parse-partial-json';
import { prepareRetries } from '../util/prepare-retries';
import { createIdMap } from '../util/create-id-map';

vi.mock('../util/parse-partial-json', () => ({
  parsePartialJson: vi.fn(async () => ({ value: { a: 1 }, state: 'successful-parse' })),
}));
vi.mock('../util/prepare-retries');
vi.mock('../util/create-id-map');
vi.mock('../version', () => ({ VERSION: '0.0.0-test' }));

describe('controls', () => {
  it('parses', async () => {
    const r = await parsePartialJson('{"a":1}');
    expect(r.state).toBe('successful-parse');
  });
  it('prepares retries', () => {
    vi.mocked(prepareRetries).mockReturnValue({ maxRetries: 1, retry: async (f: any) => f() });
    expect(prepareRetries({ maxRetries: 1, abortSignal: undefined }).maxRetries).toBe(1);
  });
  it('maps ids', () => {
    vi.mocked(createIdMap).mockReturnValue({ a: 1 });
    expect(createIdMap<number>().a).toBe(1);
  });
  it('parses with a partial value', async () => {
    vi.mocked(parsePartialJson).mockResolvedValueOnce({ value: 1 } as any);
    expect((await parsePartialJson('1')).value).toBe(1);
  });
});
