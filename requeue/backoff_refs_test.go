package requeue_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// upstreamless matches references that only make sense inside the team's
// own notes: numbered seed documents, the design contract and its sections.
// Docs and tests cite upstream by name instead (Kueue KEPs and paths,
// KAI-Scheduler paths and PRs).
var upstreamless = regexp.MustCompile(`(?i:seed (?:rule|\d{3}))|\bDESIGN\b|\x{a7}`)

// TestBackoffNoUpstreamlessReferences checks the backoff files, tests
// included, and the package doc, with comment line breaks folded so that a
// reference split over two lines is still found.
func TestBackoffNoUpstreamlessReferences(t *testing.T) {
	n := 0
	for _, p := range []string{"backoff*.go", "doc.go"} {
		files, err := filepath.Glob(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			n++
			text := strings.Join(strings.Fields(strings.ReplaceAll(string(b), "//", " ")), " ")
			for _, m := range upstreamless.FindAllStringIndex(text, -1) {
				t.Errorf("%s: %q", f, text[max(0, m[0]-40):min(len(text), m[1]+40)])
			}
		}
	}
	if n == 0 {
		t.Fatal("no files checked")
	}
}
