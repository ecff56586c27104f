package tenure_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestImportsAsDocumented: each library package imports exactly the
// packages of tenure the package documentation says it does (doc.go, "#
// Packages"), so that the sentence stays true.
func TestImportsAsDocumented(t *testing.T) {
	want := map[string][]string{
		".":                   {"clock", "eligibility", "queuetree", "requeue", "requeue/backoff", "runtime"},
		"clock":               nil,
		"clock/clocktest":     {"clock"},
		"queuetree":           nil,
		"runtime":             {"clock", "queuetree"},
		"eligibility":         {"clock", "queuetree", "runtime"},
		"requeue":             {"eligibility", "queuetree", "runtime"},
		"requeue/backoff":     {"clock"},
		"requeue/cluster":     {"requeue"},
		"requeue/requeuetest": {"requeue"},
	}
	const module = "github.com/tenurepolicy/tenure"
	for dir, w := range want {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		var got []string
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if rest, ok := strings.CutPrefix(path, module+"/"); ok && !slices.Contains(got, rest) {
					got = append(got, rest)
				}
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, w) {
			t.Errorf("%s imports %v of tenure, the package doc says %v", dir, got, w)
		}
	}
}
