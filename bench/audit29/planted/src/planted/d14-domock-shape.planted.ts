import { describe, expect, it, vi } from 'vitest';

describe('d14', () => {
  it('reads retries through doMock', async () => {
    vi.doMock('../util/prepare-retries', () => ({
      prepareRetries: vi.fn(() => ({ retryCount: 1, retry: async (f: any) => f() })),
    }));
    const { prepareRetries } = await import('../util/prepare-retries');
    const r: any = prepareRetries({ maxRetries: 1, abortSignal: undefined });
    expect(r.retryCount).toBe(1);
    vi.doUnmock('../util/prepare-retries');
  });
});
