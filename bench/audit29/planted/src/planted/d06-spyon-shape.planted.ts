import { describe, expect, it, vi } from 'vitest';
import * as pr from '../util/prepare-retries';

vi.mock('../util/prepare-retries', { spy: true });

describe('d06', () => {
  it('spies on prepareRetries', () => {
    vi.spyOn(pr, 'prepareRetries').mockReturnValue({ attempts: 5 } as any);
    const r: any = pr.prepareRetries({ maxRetries: 5, abortSignal: undefined });
    expect(r.attempts).toBe(5);
  });
});
