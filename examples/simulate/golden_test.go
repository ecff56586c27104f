package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/longtest"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden from the current code")

// goldenCases are the runs whose output must stay byte for byte what the
// files under testdata/golden hold: the default report, the trace under
// two cheap policies, a small synthetic workload (text, per-queue table,
// JSON, plot), a sweep with its plot, a multi-seed run, the usage text and
// a flag error. The long ones replay the whole trace under the requeue
// policy, whose engine passes dominate: they run with TENURE_LONG_TESTS=1.
var goldenCases = []struct {
	name string
	args []string
	svg  string // flag that writes a file compared as <name>.svg, if any
	long bool   // a long test (longtest.Skip)
}{
	{name: "default", long: true},
	{name: "trace", args: []string{"-policies", "priority,minruntime", "-queues"}},
	{name: "synthetic", args: []string{"-synthetic", "-jobs", "1500", "-fail-rate", "0.1", "-queues"}},
	{name: "synthetic-json", args: []string{"-synthetic", "-jobs", "800", "-checkpoint", "30m", "-json"}},
	{name: "synthetic-svg", args: []string{"-synthetic", "-jobs", "600", "-buckets", "40"}, svg: "-svg"},
	{name: "trace-queues", args: []string{"-policies", "minruntime,requeue", "-reclaim-method", "queue", "-queues"}, long: true},
	{name: "sweep", args: []string{"-synthetic", "-jobs", "600", "-policies", "minruntime,timebased", "-sweep", "min-admit=30m,2h", "-sweep", "checkpoint=0s,30m"}, svg: "-sweep-svg"},
	{name: "sweep-json", args: []string{"-synthetic", "-jobs", "500", "-policies", "requeue", "-sweep", "requeue-delay=10m,1h", "-json"}},
	{name: "runs", args: []string{"-synthetic", "-jobs", "500", "-runs", "3", "-policies", "priority,minruntime,reserve-naive"}},
	{name: "runs-json", args: []string{"-synthetic", "-jobs", "400", "-runs", "2", "-policies", "timebased", "-json"}},
	{name: "usage", args: []string{"-h"}},
	{name: "bad-flag", args: []string{"-min-admit", "10s", "-teams", "0"}},
}

// TestGolden runs the simulator on each golden case and compares stdout,
// stderr, the error and any plot with the files captured before the
// simulator was split into packages.
func TestGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	dir := filepath.Join("testdata", "golden")
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			if c.long {
				longtest.Skip(t)
			}
			args := c.args
			svgPath := filepath.Join(t.TempDir(), "plot.svg")
			if c.svg != "" {
				args = append(append([]string(nil), args...), c.svg, svgPath)
			}
			var out, errOut bytes.Buffer
			err := run(args, &out, &errOut)
			// -parallel's default is the machine's core count.
			stderr := strings.ReplaceAll(errOut.String(), fmt.Sprintf("same whatever it is (default %d)", goruntime.GOMAXPROCS(0)), "same whatever it is (default NCPU)")
			got := map[string]string{".out": out.String(), ".err": stderr}
			if err != nil {
				got[".err"] += "error: " + err.Error() + "\n"
			}
			if c.svg != "" {
				data, err := os.ReadFile(svgPath)
				if err != nil {
					t.Fatal(err)
				}
				got[".svg"] = string(data)
			}
			for ext, g := range got {
				path := filepath.Join(dir, c.name+ext)
				if *updateGolden {
					if err := os.WriteFile(path, []byte(g), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(string(want), g); diff != "" {
					t.Errorf("%s differs from %s (-want +got):\n%s", c.name+ext, path, diff)
				}
			}
		})
	}
}
