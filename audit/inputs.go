package audit

import (
	"fmt"
	"strings"
)

// Optional are the sub-rules that are off by default; Options.Enable turns
// them on.
var Optional = []string{"vacuous-test/no-assertion"}

// CheckEnable refuses a name of Options.Enable that is not a rule off by
// default, naming the ones there are.
func CheckEnable(names []string) error {
	for _, n := range names {
		known := false
		for _, o := range Optional {
			known = known || n == o
		}
		if !known {
			var on []string
			for _, r := range Rules {
				on = append(on, r.Name)
			}
			return fmt.Errorf("--enable %q: not a rule that is off by default; those are: %s (on by default: %s)",
				n, strings.Join(Optional, ", "), strings.Join(on, ", "))
		}
	}
	return nil
}

// CannotAudit is the rule of the findings on test files audit cannot read:
// a syntax error, or a test written for jest (vitest does not run it as
// written). Such a file is left out: nothing it seems to run or stub counts.
const CannotAudit = "cannot-audit"
