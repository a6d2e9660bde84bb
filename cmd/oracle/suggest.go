package main

import (
	"regexp"

	"github.com/oracle-ts/oracle/manifest"
)

// didYouMean is the name of names got is most likely a typo of, or ""
// (manifest.Suggest: the manifest's checks use the same rule).
func didYouMean(got string, names []string) string { return manifest.Suggest(got, names) }

// synopsisFlag finds each flag of a synopsis with what follows it.
var synopsisFlag = regexp.MustCompile(`--([a-z][a-z-]*)(?: ([^\s\[\]|-][^\s\[\]]*))?`)

// placeholders maps each flag a verb's synopsis writes to the placeholder
// it is written with (`--base REV`: REV; a switch, `--json`: ""), so that
// the flags' help spells them as the synopsis does.
func placeholders(synopsis string) map[string]string {
	out := map[string]string{}
	for _, m := range synopsisFlag.FindAllStringSubmatch(synopsis, -1) {
		if _, ok := out[m[1]]; !ok {
			out[m[1]] = m[2]
		}
	}
	return out
}
