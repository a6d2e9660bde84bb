package gate

import (
	"fmt"
	"strings"
	"testing"
)

// TestShard: --shard K/N is two decimal numbers and nothing else, 1 <= K
// <= N; a shard selects the mutants whose index is K-1 modulo N, so the N
// shards select every index exactly once; the zero Shard (or N 1) is the
// whole gate, which selects all and says nothing.
func TestShard(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want: the shard, its String and the indexes of 0..9 it selects; or the error
	}{
		{"1/1", "{1 1} \"\" [0 1 2 3 4 5 6 7 8 9]"},
		{"1/3", "{1 3} \"1/3\" [0 3 6 9]"},
		{"3/3", "{3 3} \"3/3\" [2 5 8]"},
		{"2/4", "{2 4} \"2/4\" [1 5 9]"},
		{"12/20", "{12 20} \"12/20\" []"},
		{"4/3", `--shard "4/3": want K/N with 1 <= K <= N, e.g. 2/4`},
		{"0/3", `--shard "0/3": want K/N`},
		{"1/2abc", `--shard "1/2abc": want K/N`},
		{" 1/2", `--shard " 1/2": want K/N`},
		{"+1/2", `--shard "+1/2": want K/N`},
		{"1/", `--shard "1/": want K/N`},
		{"1234567/1234567", `want K/N`},
	} {
		s, err := ParseShard(tc.in)
		got := ""
		if err != nil {
			got = err.Error()
			if !strings.Contains(got, tc.want) {
				t.Errorf("%q: %s, want %s", tc.in, got, tc.want)
			}
			continue
		}
		sel := []int{}
		for i := 0; i < 10; i++ {
			if s.Selects(i) {
				sel = append(sel, i)
			}
		}
		if got = fmt.Sprintf("{%d %d} %q %v", s.K, s.N, s.String(), sel); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.in, got, tc.want)
		}
	}
	if whole := (Shard{}); whole.Split() || whole.String() != "" || !whole.Selects(7) {
		t.Errorf("the zero Shard is not the whole gate")
	}
	for n := 1; n <= 5; n++ {
		count := make([]int, 23)
		for k := 1; k <= n; k++ {
			for i := range count {
				if (Shard{K: k, N: n}).Selects(i) {
					count[i]++
				}
			}
		}
		for i, c := range count {
			if c != 1 {
				t.Errorf("N=%d: index %d is selected by %d shards", n, i, c)
			}
		}
	}
}
