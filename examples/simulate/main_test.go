package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func runCLI(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(args, &out, &errOut); err != nil {
		t.Fatalf("run %q: %v", args, err)
	}
	if errOut.Len() > 0 {
		t.Errorf("stderr not empty (not a terminal): %q", errOut.String())
	}
	return out.String()
}

// The embedded trace with its default load knobs (two fast policies; CI's
// "go run ./examples/simulate" runs them all).
func TestRunEmbedded(t *testing.T) {
	out := runCLI(t, "-policies", "priority,minruntime")
	for _, want := range []string{
		"tenure what-if simulator — Alibaba openb 2023 (embedded)",
		"8152 jobs on 31 nodes / 147 GPUs (one node in 40), arrivals sped up ×10",
		"wait p50 / p95 / p99 by class",
		"backoff: not simulated",
		"priority", "minruntime",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// Same input, same flags: byte-identical output, for every policy. Both runs
// are in one process: Go starts every range over a map at a random point,
// so any map order leaking into the output (the notes' counts, say) would
// make them differ. The JSON holds every figure, note and time series.
func TestDeterministic(t *testing.T) {
	args := []string{"-synthetic", "-seed", "3", "-jobs", "300", "-fail-rate", "0.1", "-tail", "6h", "-json"}
	a, b := runCLI(t, args...), runCLI(t, args...)
	if a != b {
		t.Errorf("two runs differ:\n%s", cmp.Diff(a, b))
	}
	c := runCLI(t, "-synthetic", "-seed", "4", "-jobs", "300", "-fail-rate", "0.1", "-tail", "6h", "-json")
	if a == c {
		t.Error("seeds 3 and 4 gave the same report")
	}
}

func TestRunJSON(t *testing.T) {
	out := runCLI(t, "-synthetic", "-jobs", "300", "-json", "-buckets", "10")
	var rep Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rep.Results {
		names = append(names, r.Policy)
		if r.Completed+r.Unfinished != rep.Workload.Jobs || len(r.UtilSeries) != 10 || len(r.Wait) != numClasses {
			t.Errorf("%s: completed %d + unfinished %d != %d jobs, or series %d", r.Policy, r.Completed, r.Unfinished, rep.Workload.Jobs, len(r.UtilSeries))
		}
	}
	if diff := cmp.Diff(applicablePolicies(false), names); diff != "" {
		t.Errorf("policies (-want +got):\n%s", diff)
	}
}

func TestRunSVG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plot.svg")
	runCLI(t, "-synthetic", "-jobs", "200", "-policies", "priority,minruntime", "-svg", path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	polylines := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			polylines++
		}
	}
	if polylines != 4 { // 2 panels × 2 policies
		t.Errorf("%d polylines, want 4", polylines)
	}
}

func TestRunTraceFiles(t *testing.T) {
	dir := t.TempDir()
	pods := filepath.Join(dir, "pods.csv")
	nodes := filepath.Join(dir, "nodes.csv")
	os.WriteFile(pods, []byte(podHeader+"a,1,1,1,1000,,BE,Running,0,100,0\nb,1,1,1,1000,,LS,Running,10,60,10\n"), 0o644)
	os.WriteFile(nodes, []byte("sn,cpu_milli,memory_mib,gpu\nn0,10,10,1\n"), 0o644)
	out := runCLI(t, "-trace", pods, "-nodes", nodes, "-interval", "10s", "-json", "-policies", "priority")
	var rep Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	if r.Evictions != 1 || r.Completed != 2 || rep.Workload.NodeStride != 1 || rep.Workload.Speedup != 1 {
		t.Errorf("got %+v / %+v", r, rep.Workload)
	}
}

func TestFlagErrorsAllAtOnce(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run([]string{"-interval", "0s", "-teams", "0", "-policies", "nope", "-min-runtime", "be=5", "-min-admit", "-1m", "-speedup", "0.5", "-tail", "600w"}, &out, &errOut)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"-interval 0s: want whole seconds", "-teams 0", `unknown policy "nope"`, `-min-runtime: runtime: invalid duration "5"`, "-min-admit", "-speedup 0.5", "-tail 600w: want at most 521w3d"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if err := run([]string{"-trace", "/nonexistent/pods.csv"}, &out, &errOut); err == nil || !strings.HasPrefix(err.Error(), "simulate: ") {
		t.Errorf("missing file: %v", err)
	}
	if err := run([]string{"-fail-rate", "0.5"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "-fail-rate needs -synthetic") {
		t.Errorf("-fail-rate on the trace: %v", err)
	}
	if err := run([]string{"-policies", "backoff"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "no failed starts") {
		t.Errorf("backoff on the trace: %v", err)
	}
	if err := run([]string{"-synthetic", "-jobs", "10", "-policies", "backoff"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "-fail-rate is 0") {
		t.Errorf("backoff on a synthetic input without failed starts: %v", err)
	}
	for _, iv := range []string{"1.5s", "25h"} {
		if err := run([]string{"-interval", iv}, &out, &errOut); err == nil || !strings.Contains(err.Error(), ": want whole seconds, 1s..1d") {
			t.Errorf("-interval %s: %v", iv, err)
		}
	}
	if err := run([]string{"-min-runtime", "nosuchqueue=1m", "-synthetic", "-jobs", "10"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "nosuchqueue") {
		t.Errorf("unknown queue: %v", err)
	}
}

func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf)
	p.update("priority", 50, 100)
	p.finish()
	if buf.Len() != 0 {
		t.Errorf("progress wrote to a non-terminal: %q", buf.String())
	}

	now := time.Unix(0, 0)
	p = newProgress(&buf)
	p.tty, p.start, p.now = true, now, func() time.Time { return now }
	p.update("priority", 10, 100) // before the delay: quiet
	if buf.Len() != 0 {
		t.Errorf("progress before %v: %q", progressDelay, buf.String())
	}
	now = now.Add(progressDelay)
	p.update("priority", 3600, 7200)
	if !strings.Contains(buf.String(), "priority") || !strings.Contains(buf.String(), "simulated 1.0h of 2.0h") {
		t.Errorf("progress after %v: %q", progressDelay, buf.String())
	}
	p.finish()
	if !strings.HasSuffix(buf.String(), "\r\033[K") {
		t.Errorf("finish did not clear the line: %q", buf.String())
	}
}
