package requeue

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestSortByIDMatchesStringSort: sortByID orders like a plain sort by ID,
// then index, for IDs with long shared prefixes, zero bytes, and one a
// prefix of another.
func TestSortByIDMatchesStringSort(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prefix := rapid.SampledFrom([]string{"", "victim-0", "a\x00b"}).Draw(t, "prefix")
		tails := rapid.SliceOf(rapid.StringOfN(rapid.SampledFrom([]rune{0, 1, 'a', 'b', 0xff}), 0, 12, -1)).Draw(t, "tails")
		ids := make([]string, len(tails))
		for i, tail := range tails {
			ids[i] = prefix + tail
		}
		keys := sortByID(nil, len(ids), func(i int32) string { return ids[i] }, func(a, b int32) int { return cmp.Compare(a, b) })
		want := make([]int32, len(ids))
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(a, b int32) int { return strings.Compare(ids[a], ids[b]) })
		got := make([]int32, len(keys))
		for i, k := range keys {
			got[i] = k.i
		}
		if !slices.Equal(got, want) {
			t.Fatalf("sortByID(%q) = %v, want %v", ids, got, want)
		}
	})
}
