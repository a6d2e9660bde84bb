import { describe, expect, it, vi } from 'vitest';
import { prepareRetries } from '../util/prepare-retries';

vi.mock('../util/prepare-retries', () => ({
  prepareRetries: vi.fn().mockReturnValue({ max: 4, retry: async (f: any) => f() }),
}));

describe('d18', () => {
  it('reads max', () => {
    const r: any = prepareRetries({ maxRetries: 4, abortSignal: undefined });
    expect(r.max).toBe(4);
  });
});
