package analyzer

import (
	"os"
	"runtime"
	"sync"
	"testing"
)

func BenchmarkParse(b *testing.B) {
	src, err := os.ReadFile("testdata/service.ts")
	if err != nil {
		b.Fatal(err)
	}
	p := NewParser()
	defer p.Close()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		f := p.Parse("service.ts", src)
		if len(f.Errors) > 0 || len(f.Functions) == 0 {
			b.Fatalf("errors %v, %d functions", f.Errors, len(f.Functions))
		}
	}
}

// BenchmarkParseParallel parses the file on every core, one Parser per
// goroutine, as the call graph builder does.
func BenchmarkParseParallel(b *testing.B) {
	src, err := os.ReadFile("testdata/service.ts")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.RunParallel(func(pb *testing.PB) {
		p := NewParser()
		defer p.Close()
		for pb.Next() {
			p.Parse("service.ts", src)
		}
	})
}

// TestServiceFile checks the benchmark file extracts what it should.
func TestServiceFile(t *testing.T) {
	src, err := os.ReadFile("testdata/service.ts")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) { // concurrent parsers must not interfere
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := NewParser()
			defer p.Close()
			for range 5 {
				f := p.Parse("testdata/service.ts", src)
				noErrors(t, f)
				checkInvariants(t, src, f)
				if len(f.Functions) != 17 { // 15 top-level, a constructor and a method

					t.Errorf("functions: %v", projFunctions(f))
					return
				}
			}
		}()
	}
	wg.Wait()
	f := Parse("testdata/service.ts", src)
	var calls []string
	for _, c := range f.Functions[0].Calls {
		calls = append(calls, projCall(c))
	}
	check(t, "processBatch0 calls", calls, []string{
		"46:26 resolveSettings0 ident root=resolveSettings0 bind=module",
		"49:20 OrderSchema.safeParse member root=OrderSchema path=[safeParse] bind=module",
		"51:7 log.warn member root=log path=[warn] bind=module",
		"54:28 getCustomer ident root=getCustomer bind=module",
		"56:13 enrichOrder ident root=enrichOrder bind=module",
		"58:19 sumMoney ident root=sumMoney bind=module",
		"58:28 order.lines.map member root=order path=[lines map] bind=local(const order@48)",
		"60:7 audit.write member root=audit path=[write] bind=module",
		"60:60 formatMoney ident root=formatMoney bind=module",
		"64:15 repo.updateRecord member root=repo path=[updateRecord] bind=module",
		"65:15 saveCustomer ident root=saveCustomer bind=module",
		"68:7 log.error member root=log path=[error] bind=module",
		"68:72 String ident root=String bind=module",
		`75:9 notify ident root=notify bind=dynamic-named(const notify@74) "../lib/notify".notify`,
	})
}
