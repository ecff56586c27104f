package tenure_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// libraryDirs maps the package names the docs write (`pkg.Name`) to the
// library's package directories.
var libraryDirs = map[string]string{
	"tenure": ".", "clock": "clock",
	"queuetree": "queuetree", "runtime": "runtime", "tenureruntime": "runtime",
	"eligibility": "eligibility", "minruntime": "eligibility/minruntime",
	"expectedruntime": "eligibility/expectedruntime", "timebased": "eligibility/timebased",
	"admitprotect": "eligibility/admitprotect", "preemptordelay": "eligibility/preemptordelay",
	"evictionbudget": "eligibility/evictionbudget", "requeue": "requeue",
	"backoff": "requeue/backoff", "cluster": "requeue/cluster", "requeuetest": "requeue/requeuetest",
}

// TestDocsNameWhatExists: every `pkg.Name` and `pkg.Type.Member` that the
// README and the benchmark pages write in code spans names an exported
// declaration (a member may be a method or a struct field), so that prose
// no test compiles cannot keep a name that was removed or renamed.
func TestDocsNameWhatExists(t *testing.T) {
	names := map[string]bool{} // "pkg.Name" and "pkg.Type.Member"
	for pkg, dir := range libraryDirs {
		for _, n := range exportedNames(t, dir) {
			names[pkg+"."+n] = true
		}
	}
	ref := regexp.MustCompile("`\\*?([a-z]+)\\.([A-Z][A-Za-z0-9]*(?:\\.[A-Z][A-Za-z0-9]*)?)")
	for _, doc := range []string{"README.md", "requeue/BENCHMARKS.md", "runtime/BENCHMARKS.md", "examples/simulate/README.md"} {
		text := readFile(t, doc)
		checked := 0
		for _, m := range ref.FindAllStringSubmatch(text, -1) {
			if _, ok := libraryDirs[m[1]]; !ok {
				continue // another package (time.Duration, errors.Join, ...)
			}
			checked++
			if !names[m[1]+"."+m[2]] {
				t.Errorf("%s names `%s.%s`, which the library does not declare", doc, m[1], m[2])
			}
		}
		if checked == 0 {
			t.Errorf("%s: no library name found; is the pattern still right?", doc)
		}
	}
}

// exportedNames returns the exported declarations of the package in dir
// (tests left out): "Name" for a type, function, constant or variable,
// "Type.Member" for a method or a field of an exported type.
func exportedNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			out = append(out, declNames(d)...)
		}
	}
	return out
}

func declNames(d ast.Decl) []string {
	var out []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if !d.Name.IsExported() {
			return nil
		}
		if d.Recv == nil {
			return []string{d.Name.Name}
		}
		recv := d.Recv.List[0].Type
		if s, ok := recv.(*ast.StarExpr); ok {
			recv = s.X
		}
		if id, ok := recv.(*ast.Ident); ok {
			out = append(out, id.Name+"."+d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				if !s.Name.IsExported() {
					continue
				}
				out = append(out, s.Name.Name)
				if st, ok := s.Type.(*ast.StructType); ok {
					for _, f := range st.Fields.List {
						for _, n := range f.Names {
							out = append(out, s.Name.Name+"."+n.Name)
						}
						if len(f.Names) == 0 { // embedded: promoted under its type's name
							if id, ok := f.Type.(*ast.Ident); ok {
								out = append(out, s.Name.Name+"."+id.Name)
							}
						}
					}
				}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.IsExported() {
						out = append(out, n.Name)
					}
				}
			}
		}
	}
	return out
}
