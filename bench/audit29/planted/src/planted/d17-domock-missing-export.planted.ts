import { describe, expect, it, vi } from 'vitest';

describe('d17', () => {
  it('splits through doMock', async () => {
    vi.doMock('../util/split-array', () => ({ splitArray: vi.fn(() => [[1]]), chunkArray: vi.fn(() => [[1]]) }));
    const m: any = await import('../util/split-array');
    expect(m.chunkArray([1], 1)).toEqual([[1]]);
    vi.doUnmock('../util/split-array');
  });
});
