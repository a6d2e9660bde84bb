// Command setupprobe times the gate's setup phases (vitest list, the
// config, the workspace reading) on one repository: where a small gate's
// floor goes (bench/prgate30.md).
//
//	go run ./bench/prgate30/setupprobe DIR [CONFIG]
package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/oracle-ts/oracle/callgraph"
	"github.com/oracle-ts/oracle/testsuite"
)

func main() {
	root := os.Args[1]
	config := ""
	if len(os.Args) > 2 {
		config = os.Args[2]
	}
	if f := os.Getenv("CPUPROFILE"); f != "" {
		out, _ := os.Create(f)
		pprof.StartCPUProfile(out)
		defer pprof.StopCPUProfile()
	}
	t := time.Now()
	lap := func(what string) {
		fmt.Printf("%-22s %6.2fs\n", what, time.Since(t).Seconds())
		t = time.Now()
	}
	tests, err := testsuite.ListTests(root, config)
	if err != nil {
		panic(err)
	}
	lap(fmt.Sprintf("vitest list (%d)", len(tests)))
	cfg, err := testsuite.ReadConfig(root, config)
	if err != nil {
		panic(err)
	}
	lap("config")
	p, err := callgraph.NewProgram(root)
	if err != nil {
		panic(err)
	}
	lap("program")
	s, err := testsuite.New(p, testsuite.Options{Config: config, Tests: tests, SetupFiles: cfg.SetupFiles, Vitest: cfg})
	if err != nil {
		panic(err)
	}
	lap(fmt.Sprintf("suite (%d prod)", len(s.Production)))
	for _, f := range os.Args[3:] {
		c := s.Candidates(f)
		lap(fmt.Sprintf("candidates %d", len(c)))
		fmt.Println(strings.Join(c, " "))
	}
}
