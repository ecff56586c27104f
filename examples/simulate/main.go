package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run is the whole program: parse and check the flags, create the output
// files, prepare the workloads, simulate every policy at every grid point
// and seed, and print the report.
func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	o.resolveDefaults()
	x, err := newExperiment(o)
	if err != nil {
		return err
	}
	// Output files are created before anything is simulated.
	var svg, sweepSVG *report.OutputFile
	if o.svg != "" {
		if svg, err = report.CreateOutput("svg", o.svg); err != nil {
			return err
		}
		defer svg.Discard()
	}
	if o.sweepSVG != "" {
		if sweepSVG, err = report.CreateOutput("sweep-svg", o.sweepSVG); err != nil {
			return err
		}
		defer sweepSVG.Discard()
	}
	rep, err := x.prepareFirst()
	if err != nil {
		return err
	}
	names, err := x.policyNames(rep)
	if err != nil {
		return err
	}
	prog := report.NewProgress(stderr)
	flat, err := simulateAll(x.tasks(names), o.parallel, prog)
	prog.Finish()
	if err != nil {
		return err
	}
	x.aggregate(rep, names, flat)
	if svg != nil {
		if err := svg.Commit(report.RenderSVG(rep)); err != nil {
			return err
		}
	}
	if sweepSVG != nil {
		if err := sweepSVG.Commit(report.RenderSweepSVG("tenure what-if simulator — "+rep.Source, rep.Sweep, o.sweepAxes[0], o.sweepAxes[1])); err != nil {
			return err
		}
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return report.WriteTable(stdout, rep, o.queues)
}
