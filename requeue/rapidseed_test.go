package requeue_test

import (
	"flag"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// checkSeeds runs prop with rapid.Check once from each of seeds, as
// -rapid.seed would: the seeds of failures that the random sweep
// (.ci/sweep) found, pinned as regular test cases. It sets rapid's seed
// flag and restores it; the tests calling it are not parallel.
func checkSeeds(t *testing.T, prop func(*rapid.T), seeds ...uint64) {
	t.Helper()
	f := flag.Lookup("rapid.seed")
	if f == nil {
		t.Fatal("rapid registers no -rapid.seed flag")
	}
	old := f.Value.String()
	defer func() { _ = f.Value.Set(old) }()
	for _, seed := range seeds {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			if err := f.Value.Set(strconv.FormatUint(seed, 10)); err != nil {
				t.Fatal(err)
			}
			rapid.Check(t, prop)
		})
	}
}
