package main

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// defaultReportMarker precedes the fenced block holding the default run's
// report in the simulator README and in the module's README.
const defaultReportMarker = "<!-- default report:"

var defaultReport = sync.OnceValues(func() (string, error) {
	var out, errOut bytes.Buffer
	err := run(nil, &out, &errOut)
	return out.String(), err
})

// TestREADMEReports fails when a README's copy of the default report is
// not what `go run ./examples/simulate` prints now: every README figure
// that quotes the report must be regenerated with the code that made it.
func TestREADMEReports(t *testing.T) {
	want, err := defaultReport()
	if err != nil {
		t.Fatal(err)
	}
	// The module's README quotes the same report; its copy is regenerated
	// from notes/sim-stats.md when that branch is merged (helpers do not
	// edit the root README), after which "../../README.md" rejoins this list.
	for _, path := range []string{"README.md"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		readme := string(data)
		k := strings.Index(readme, defaultReportMarker)
		if k < 0 {
			t.Errorf("%s: no %q marker before the default report", path, defaultReportMarker)
			continue
		}
		got, ok := fencedBlock(readme[k:])
		if !ok {
			t.Errorf("%s: the marker is not followed by a fenced block", path)
			continue
		}
		if got != want {
			t.Errorf("%s: the default report differs from the default run's (-README +run):\n%s", path, cmp.Diff(got, want))
		}
	}
}

// fencedBlock returns the content of the first fenced block of s, with its
// final newline.
func fencedBlock(s string) (string, bool) {
	i := strings.Index(s, "\n```")
	if i < 0 {
		return "", false
	}
	s = s[i+4:]
	s = s[strings.Index(s, "\n")+1:] // skip the info string
	j := strings.Index(s, "\n```")
	if j < 0 {
		return "", false
	}
	return s[:j+1], true
}
