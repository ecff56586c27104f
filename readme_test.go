package tenure_test

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEEmbeddingIsQuickstart fails when the README's embedding code
// block is not examples/quickstart/main.go (from its package clause on: the
// program go vet compiles and whose main_test.go runs it), or when the
// README's printed output is not the output that main_test.go checks.
func TestREADMEEmbeddingIsQuickstart(t *testing.T) {
	readme := readFile(t, "README.md")
	src := readFile(t, "examples/quickstart/main.go")
	test := readFile(t, "examples/quickstart/main_test.go")

	i := strings.Index(src, "package main\n")
	if i < 0 {
		t.Fatal("examples/quickstart/main.go has no package clause")
	}
	program := strings.TrimRight(src[i:], "\n")
	if !strings.Contains(program, "\nfunc main() {\n") {
		t.Fatal("examples/quickstart/main.go has no func main")
	}

	const open = "const want = `"
	j := strings.Index(test, open)
	if j < 0 {
		t.Fatal("examples/quickstart/main_test.go has no want constant")
	}
	want := test[j+len(open):]
	want = strings.TrimRight(want[:strings.Index(want, "`")], "\n")

	const marker = "<!-- quickstart:"
	k := strings.Index(readme, marker)
	if k < 0 {
		t.Fatal("README has no quickstart marker")
	}
	blocks := fencedBlocks(readme[k:], 2)
	if len(blocks) < 2 {
		t.Fatal("README: the quickstart marker is not followed by a code block and its output")
	}
	if got := blocks[0]; got != program {
		t.Errorf("README code block differs from examples/quickstart/main.go:\n--- README\n%s\n--- main.go\n%s", got, program)
	}
	if got := blocks[1]; got != want {
		t.Errorf("README output block differs from the output main_test.go checks:\n--- README\n%s\n--- main_test.go\n%s", got, want)
	}
}

// TestREADMEGlossaryFirst fails when a term the README's glossary defines
// is used before the glossary.
func TestREADMEGlossaryFirst(t *testing.T) {
	readme := readFile(t, "README.md")
	g := strings.Index(readme, "\n## Words used here\n")
	if g < 0 {
		t.Fatal(`README has no "Words used here" section`)
	}
	before := strings.ToLower(readme[:g])
	for _, term := range []string{"victim", "contender", "nominat", "scenario", "fail closed", "fail-closed",
		"tolerant", "cooldown", "min-runtime", "expected runtime", "wake"} {
		if strings.Contains(before, term) {
			t.Errorf("README uses %q before its glossary", term)
		}
	}
}

// TestREADMELength keeps the README readable in one sitting.
func TestREADMELength(t *testing.T) {
	if n := strings.Count(readFile(t, "README.md"), "\n"); n > 450 {
		t.Errorf("README has %d lines, want at most 450 (full tables go to the BENCHMARKS.md files)", n)
	}
}

// fencedBlocks returns the contents of the first n fenced code blocks of s.
func fencedBlocks(s string, n int) []string {
	var out []string
	for len(out) < n {
		i := strings.Index(s, "```")
		if i < 0 {
			break
		}
		s = s[i+3:]
		s = s[strings.Index(s, "\n")+1:] // skip the info string
		j := strings.Index(s, "```")
		if j < 0 {
			break
		}
		out = append(out, strings.TrimSuffix(s[:j], "\n"))
		s = s[j+3:]
	}
	return out
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
