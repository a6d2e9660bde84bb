import { describe, expect, it, vi } from 'vitest';
import { prepareRetries } from '../util/prepare-retries';

vi.mock('../util/prepare-retries');

describe('d04', () => {
  it('reads the retry count', () => {
    vi.mocked(prepareRetries).mockReturnValue({ retries: 3, retry: async (f: any) => f() } as any);
    const r: any = prepareRetries({ maxRetries: 3, abortSignal: undefined });
    expect(r.retries).toBe(3);
  });
});
