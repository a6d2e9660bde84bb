package gate

import (
	"fmt"
	"regexp"
	"strconv"
)

var shardRe = regexp.MustCompile(`^([1-9][0-9]{0,5})/([1-9][0-9]{0,5})$`)

// ParseShard reads --shard K/N: two decimal numbers and nothing else (no
// sign, space or trailing text: "1/2abc" is refused), 1 <= K <= N.
func ParseShard(s string) (k, n int, err error) {
	m := shardRe.FindStringSubmatch(s)
	if m != nil {
		k, _ = strconv.Atoi(m[1])
		n, _ = strconv.Atoi(m[2])
		if k <= n {
			return k, n, nil
		}
	}
	return 0, 0, fmt.Errorf("--shard %q: want K/N with 1 <= K <= N, e.g. 2/4", s)
}
