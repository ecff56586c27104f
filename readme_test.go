package tenure_test

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEEmbeddingIsExamplePolicy fails when the README's embedding code
// block and ExamplePolicy's import block and body (which go test compiles
// and checks) drift apart, or when the README's printed output is not the example's.
func TestREADMEEmbeddingIsExamplePolicy(t *testing.T) {
	readme := readFile(t, "README.md")
	src := readFile(t, "example_policy_test.go")

	imports := src[strings.Index(src, "import ("):]
	imports = imports[:strings.Index(imports, "\n)\n")+2]

	const open = "func ExamplePolicy() {\n"
	i := strings.Index(src, open)
	j := strings.Index(src, "\t// Output:\n")
	if i < 0 || j < i {
		t.Fatal("ExamplePolicy or its Output comment not found")
	}
	var body []string
	for _, l := range strings.Split(strings.TrimRight(src[i+len(open):j], "\n"), "\n") {
		body = append(body, strings.TrimPrefix(l, "\t"))
	}
	var output []string
	for _, l := range strings.Split(src[j+len("\t// Output:\n"):], "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "//") {
			break
		}
		output = append(output, strings.TrimPrefix(strings.TrimPrefix(l, "//"), " "))
	}

	const marker = "<!-- ExamplePolicy:"
	k := strings.Index(readme, marker)
	if k < 0 {
		t.Fatal("README has no ExamplePolicy marker")
	}
	blocks := fencedBlocks(readme[k:], 2)
	if len(blocks) < 2 {
		t.Fatal("README: the ExamplePolicy marker is not followed by a code block and its output")
	}
	if got, want := blocks[0], imports+"\n\n"+strings.Join(body, "\n"); got != want {
		t.Errorf("README code block differs from ExamplePolicy's body:\n--- README\n%s\n--- example\n%s", got, want)
	}
	if got, want := blocks[1], strings.Join(output, "\n"); got != want {
		t.Errorf("README output block differs from ExamplePolicy's Output:\n--- README\n%s\n--- example\n%s", got, want)
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
