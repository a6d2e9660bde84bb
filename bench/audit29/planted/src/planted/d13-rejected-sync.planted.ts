import { describe, expect, it, vi } from 'vitest';
import { createIdMap } from '../util/create-id-map';

vi.mock('../util/create-id-map');

describe('d13', () => {
  it('rejects the id map', async () => {
    vi.mocked(createIdMap).mockRejectedValue(new Error('no map'));
    await expect(createIdMap()).rejects.toThrow('no map');
  });
});
