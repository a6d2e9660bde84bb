import { describe, expect, it, vi } from 'vitest';
import { prepareRetries } from '../util/prepare-retries';

vi.mock('../util/prepare-retries');

describe('d16', () => {
  it('awaits the retries', async () => {
    vi.mocked(prepareRetries).mockReturnValueOnce(Promise.resolve({ maxRetries: 1, retry: async (f: any) => f() }) as any);
    const r: any = await prepareRetries({ maxRetries: 1, abortSignal: undefined });
    expect(r.maxRetries).toBe(1);
  });
});
