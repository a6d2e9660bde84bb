import { describe, expect, it, vi } from 'vitest';
import { createNullLanguageModelUsage } from '../types/usage';

vi.mock('../types/usage', () => ({
  createNullLanguageModelUsage: () => ({ inputTokens: 0, cacheReadTokens: 0 }),
}));

describe('d15', () => {
  it('reads the cache reads', () => {
    const u: any = createNullLanguageModelUsage();
    expect(u.cacheReadTokens).toBe(0);
  });
});
