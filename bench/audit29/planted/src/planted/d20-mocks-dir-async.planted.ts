import { describe, expect, it, vi } from 'vitest';
import { addLanguageModelUsage, createNullLanguageModelUsage } from '../types/usage';

vi.mock('../types/usage');

describe('d20', () => {
  it('adds usage', async () => {
    const u: any = await addLanguageModelUsage(createNullLanguageModelUsage(), createNullLanguageModelUsage());
    expect(u.inputTokens).toBe(0);
  });
});
