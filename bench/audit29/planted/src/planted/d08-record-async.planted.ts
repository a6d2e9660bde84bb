import { describe, expect, it, vi } from 'vitest';
import { createIdMap } from '../util/create-id-map';

vi.mock('../util/create-id-map');

describe('d08', () => {
  it('awaits the id map', async () => {
    vi.mocked(createIdMap).mockResolvedValue({ a: 1 } as any);
    const m: any = await createIdMap();
    expect(m.a).toBe(1);
  });
});
