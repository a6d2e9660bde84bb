import { describe, expect, it, vi } from 'vitest';
import { resolveToolCallerConfiguration } from '../generate-text/tool-caller-configuration';

vi.mock('../generate-text/tool-caller-configuration');

describe('d10', () => {
  it('resolves the callers', async () => {
    vi.mocked(resolveToolCallerConfiguration).mockResolvedValue({ a: ['b'] } as any);
    const r: any = await resolveToolCallerConfiguration({ tools: {}, toolCallers: {} });
    expect(r.a).toEqual(['b']);
  });
});
