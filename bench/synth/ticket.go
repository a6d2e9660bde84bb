package synth

import (
	"os"
	"path/filepath"
)

// TicketFile is the manifest AddTicket writes, repo-relative.
const TicketFile = "tickets/BENCH-1.yaml"

// ticketFiles is a ticket on top of the Default repository: a function in
// @syn/pkg0 that gates one call into @syn/pkg1 (through its package exports
// and a barrel three levels deep) and preserves two others, a fixture that
// stands its module up, and oracle.yaml declaring it. Names are those
// Default() generates; AddTicket's caller checks gen succeeds with them.
var ticketFiles = map[string]string{
	"packages/pkg0/src/ticket/process.ts": `// The benchmark ticket's function (written by bench/synth AddTicket).
import type { Context } from "../types";
import { loadEvent409, collectInvoice410, computeOrder421 } from "@syn/pkg1";

export async function processTicket(id: number, ctx: Context, opts: { skip?: boolean } = {}): Promise<number> {
  let acc = loadEvent409(id, ctx);
  if (!opts.skip) {
    acc += collectInvoice410(acc, ctx);
  }
  acc += computeOrder421(acc, ctx);
  return acc;
}
`,
	"packages/pkg0/test/ticket.fixture.ts": `// Stands up the benchmark ticket's module.
export const arrange = {
  processTicket: async () => {
    await import("../src/ticket/process");
    return [1, { trace: [], depth: 0 }, {}] as const;
  },
};
`,
	"oracle.yaml": `# oracle configuration of the synthetic benchmark repository.
fixtures:
  - name: ticket
    file: packages/pkg0/test/ticket.fixture.ts
`,
	TicketFile: `ticket: BENCH-1
operations:
  - kind: conditional-skip
    id: skip-invoice
    function: packages/pkg0/src/ticket/process.ts#processTicket
    flag: opts.skip
    wrap: collectInvoice410
    preserve: [loadEvent409, computeOrder421]
`,
}

// AddTicket writes a benchmark ticket, its function and its fixture into a
// repository Generate made (see ticketFiles).
func AddTicket(dir string) error {
	for rel, body := range ticketFiles {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}
