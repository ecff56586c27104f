package tenure_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// teamOnly matches references that only make sense inside the team's own
// notes, which users never see: numbered seed documents, the design contract
// file and its section signs. Docs, READMEs and tests cite upstream sources by
// name instead (KAI-Scheduler paths and PRs, Kueue KEPs and paths). The
// pattern is assembled so that this file does not match itself.
var teamOnly = regexp.MustCompile(`(?i:seeds? (?:rule|\d{3})|seed\d{3})|\b` + "DES" + `IGN\b|` + "\u00a7")

// TestDocsStandAlone scans every Go and Markdown file of the module, tests
// included, with comment markers removed and line breaks folded so that a
// reference split over two lines is still found.
func TestDocsStandAlone(t *testing.T) {
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); ext != ".go" && ext != ".md" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		text := strings.Join(strings.Fields(strings.ReplaceAll(string(b), "//", " ")), " ")
		for _, m := range teamOnly.FindAllStringIndex(text, -1) {
			t.Errorf("%s: %q", path, text[max(0, m[0]-50):min(len(text), m[1]+50)])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("only %d files scanned", n)
	}
}
