// Types only: imported with `import type` elsewhere; type-only imports stand nothing up.
export interface Item {
  id: number;
  name: string;
  tags: string[];
  meta?: Record<string, string>;
}

export interface Settings {
  region: string;
  dryRun: boolean;
}

export interface ProcessOptions {
  skip?: boolean;
}
