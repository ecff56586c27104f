package safefile_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/safefile"
)

func ExampleCreate() {
	dir, _ := os.MkdirTemp("", "safefile-example")
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "plot.svg")

	stop := safefile.CleanupOnSignal() // an interrupt removes the temporary file
	defer stop()
	f, err := safefile.Create(out) // fails now for a directory, not after the run
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Discard()
	fmt.Fprint(f, "<svg/>")
	if err := f.Commit(); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(out)
	fmt.Println(string(b))

	_, err = safefile.Create(dir)
	fmt.Println(err != nil)
	// Output:
	// <svg/>
	// true
}
