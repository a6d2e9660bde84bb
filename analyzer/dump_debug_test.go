package analyzer

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

func TestDumpDebug(t *testing.T) {
	p := os.Getenv("DUMP")
	if p == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(p)
	f := Parse(p, src)
	b, _ := json.MarshalIndent(f, "", " ")
	fmt.Println(string(b))
}
