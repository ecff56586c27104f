// Command allocplot draws the allocation curves the simulator's
// -allocation-out wrote beside the FGD paper's published curves, as the
// SVG the simulator's README shows:
//
//	go run ./examples/simulate/internal/alloc/allocplot -ours OURS.csv -paper PAPER.csv -o FILE.svg
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/alloc"
)

func main() {
	ours := flag.String("ours", "", "curves written by simulate -allocation-out")
	paper := flag.String("paper", "", "the paper's curves (the same CSV shape)")
	out := flag.String("o", "", "the SVG to write")
	flag.Parse()
	if err := run(*ours, *paper, *out); err != nil {
		fmt.Fprintln(os.Stderr, "allocplot:", err)
		os.Exit(1)
	}
}

func run(oursPath, paperPath, out string) error {
	if oursPath == "" || paperPath == "" || out == "" {
		return fmt.Errorf("want -ours, -paper and -o")
	}
	ours, err := read(oursPath)
	if err != nil {
		return err
	}
	paper, err := read(paperPath)
	if err != nil {
		return err
	}
	svg := alloc.RenderSVG("GPU allocation, openb default workload: ours (10 seeds) and the paper's", ours, paper)
	return os.WriteFile(out, []byte(svg), 0o644)
}

func read(path string) ([]alloc.Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := alloc.ReadCSV(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, nil
}
