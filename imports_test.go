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
		".": {"clock", "eligibility", "eligibility/admitprotect", "eligibility/evictionbudget", "eligibility/expectedruntime",
			"eligibility/minruntime", "eligibility/preemptordelay", "eligibility/timebased", "queuetree", "requeue", "requeue/backoff", "requeue/reserve", "runtime"},
		"clock":                       nil,
		"queuetree":                   nil,
		"runtime":                     {"clock", "queuetree"},
		"eligibility":                 {"clock", "queuetree"},
		"eligibility/minruntime":      {"clock", "eligibility", "queuetree", "runtime"},
		"eligibility/expectedruntime": {"clock", "eligibility", "queuetree", "runtime"},
		"eligibility/timebased":       {"clock", "eligibility"},
		"eligibility/admitprotect":    {"clock", "eligibility"},
		"eligibility/preemptordelay":  {"clock", "eligibility", "runtime"},
		"eligibility/evictionbudget":  {"clock", "eligibility"},
		"requeue":                     {"clock", "eligibility", "eligibility/expectedruntime", "eligibility/minruntime", "queuetree", "runtime"},
		"requeue/backoff":             {"clock"},
		"requeue/reserve":             {"clock", "eligibility", "requeue"},
		"requeue/cluster":             {"requeue"},
		"requeue/requeuetest":         {"requeue"},
	}
	for dir, w := range want {
		got := tenureImports(t, dir)
		if !slices.Equal(got, w) {
			t.Errorf("%s imports %v of tenure, the package doc says %v", dir, got, w)
		}
	}
}

// tenureImports returns, sorted, the library packages of tenure that the
// non-test files of dir import. An internal package is part of the package
// tree that holds it, except one of the module's root internal/ tree,
// which stands for what it imports.
func tenureImports(t *testing.T, dir string) []string {
	t.Helper()
	const module = "github.com/tenurepolicy/tenure"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Errorf("%s: %v", dir, err)
		return nil
	}
	var got []string
	add := func(pkg string) {
		if !slices.Contains(got, pkg) {
			got = append(got, pkg)
		}
	}
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
			rest, ok := strings.CutPrefix(path, module+"/")
			switch {
			case !ok:
			case strings.HasPrefix(rest, "internal/"):
				for _, pkg := range tenureImports(t, rest) {
					add(pkg)
				}
			case !strings.Contains("/"+rest, "/internal/"):
				add(rest)
			}
		}
	}
	slices.Sort(got)
	return got
}

// TestDocSaysWhatRootLeavesOut: the package documentation's import
// sentence names every library package this package does not import, so
// that it cannot drift from the map above.
func TestDocSaysWhatRootLeavesOut(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(strings.ReplaceAll(string(doc), "//", " ")), " ")
	const lead = "this package imports every library package but "
	i := strings.Index(text, lead)
	if i < 0 {
		t.Fatalf("doc.go has no sentence %q", lead)
	}
	sentence := text[i+len(lead):]
	sentence = sentence[:strings.Index(sentence, ".")]
	for _, pkg := range []string{"requeue/cluster", "requeue/requeuetest"} {
		if !strings.Contains(sentence, pkg) {
			t.Errorf("doc.go's import sentence %q leaves out %s, which this package does not import", sentence, pkg)
		}
	}
}
