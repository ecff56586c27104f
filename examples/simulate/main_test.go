package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/sim"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

	"github.com/google/go-cmp/cmp"
)

// podHeader is the openb pod list's header line.
const podHeader = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"

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

func runJSON(t *testing.T, args ...string) report.Report {
	t.Helper()
	var rep report.Report
	if err := json.Unmarshal([]byte(runCLI(t, append(args, "-json")...)), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// The embedded trace with its default load knobs (two policies; CI's
// "go run ./examples/simulate" runs them all). The header says what ran.
func TestRunEmbedded(t *testing.T) {
	out := runCLI(t, "-policies", "priority,minruntime", "-queues")
	for _, want := range []string{
		"tenure what-if simulator — Alibaba openb 2023 (embedded)",
		"on 31 nodes / 160 GPUs (one node in 40), arrivals sped up ×15",
		"infeasible: 2 jobs could not finish before the end even alone",
		"more thinned with the cluster (-scale-mix)",
		"settings: min-runtime be=5m be-a=1h burstable=15m ls=30m ls-c=0s (preempt and reclaim; reclaim method lca); preempt-min-runtime be=1m ls=10m\n",
		"  expected-runtime be=1h burstable=4h ls=1d; requeue-delay 30m, contenders higher-or-equal, max-lost-work none; min-admit 2h, newer rule on; reserve-after 30m, reservations 1\n",
		"  preemptor-delay 0s; eviction-budget none; thrash-window 30m; checkpoint 0s (save 0s, restore 0s); placement first-fit; seed 1\n",
		"GPU util  = useful  + wasted    goodput GPU-h  = jobs done  + in progress    lost GPU-h  by infeasible jobs",
		"jobs and evictions (thrash: runs shorter than 30m; by cause, by the victim's class;",
		"fair share: held GPU time / fair share per team queue",
		"wait p50 / p95 / p99 / max by class",
		"per queue: jobs, GPU-hours held",
		"backoff not simulated",
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

// The JSON carries the effective settings, structured notes, and every
// policy's per-queue figures; every job is accounted for.
func TestRunJSON(t *testing.T) {
	rep := runJSON(t, "-synthetic", "-jobs", "300", "-buckets", "10", "-expected-runtime", "be=2h")
	var names []string
	for _, r := range rep.Results {
		names = append(names, r.Policy)
		if r.Completed+r.Unfinished+rep.Workload.Infeasible != rep.Workload.Jobs || len(r.UtilSeries) != 10 || len(r.Wait) != trace.NumClasses {
			t.Errorf("%s: completed %d + unfinished %d + infeasible %d != %d jobs, or series %d", r.Policy, r.Completed, r.Unfinished,
				rep.Workload.Infeasible, rep.Workload.Jobs, len(r.UtilSeries))
		}
		if len(r.Queues) != 3*3 {
			t.Errorf("%s: %d queues, want 9", r.Policy, len(r.Queues))
		}
	}
	if diff := cmp.Diff(sim.ApplicablePolicies(false), names); diff != "" {
		t.Errorf("policies (-want +got):\n%s", diff)
	}
	// Map flags merge into the defaults.
	want := []report.QueueSetting{{Queue: "be", Duration: "2h"}, {Queue: "burstable", Duration: "4h"}, {Queue: "ls", Duration: "1d"}}
	if diff := cmp.Diff(want, rep.Settings.ExpectedRuntime); diff != "" {
		t.Errorf("expected runtime (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]report.QueueSetting{{Queue: "be", Duration: "1m"}, {Queue: "ls", Duration: "10m"}}, rep.Settings.PreemptMinRuntime); diff != "" {
		t.Errorf("preempt min-runtime (-want +got):\n%s", diff)
	}
	if rep.Settings.ReclaimMethod != "lca" || rep.Settings.ThrashWindow != "30m" || rep.Settings.Seed != 1 {
		t.Errorf("settings %+v", rep.Settings)
	}
	if len(rep.Notes) != 1 || rep.Notes[0].Kind != "not_simulated" || rep.Notes[0].Policy != "backoff" {
		t.Errorf("notes %+v", rep.Notes)
	}
	kinds := map[string]bool{}
	for _, r := range rep.Results {
		for _, n := range r.Notes {
			kinds[n.Kind] = true
			if n.Policy != r.Policy {
				t.Errorf("%s: note %+v names another policy", r.Policy, n)
			}
		}
	}
	for _, k := range []string{"requeue_outcomes", "reservations", "scenario_validator"} {
		if !kinds[k] {
			t.Errorf("no %s note (have %v)", k, kinds)
		}
	}
}

func TestMergeQueueDurations(t *testing.T) {
	def, err := mergeQueueDurations("x", "be=5m,ls=30m,be-a=1h", nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	got, err := mergeQueueDurations("x", "ls-b=1m, be-a=inherit ,be=0s", def, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []sim.QueueDuration{{Queue: "be", D: 0}, {Queue: "ls", D: 30 * time.Minute}, {Queue: "ls-b", D: time.Minute}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
	if _, err := mergeQueueDurations("x", "be", def, 2); err == nil || !strings.Contains(err.Error(), "want queue=duration or queue=inherit") {
		t.Errorf("missing '=': %v", err)
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
	if polylines != 8 { // (allocated + useful + waiting + stranded) × 2 policies
		t.Errorf("%d polylines, want 8", polylines)
	}
}

// A bad output path fails before the input is even read, so before any
// simulation.
func TestOutputPathCheckedFirst(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run([]string{"-svg", "/nonexistent/dir/plot.svg", "-trace", "/nonexistent/pods.csv"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "simulate: -svg: safefile: cannot write /nonexistent/dir/plot.svg: open /nonexistent/dir/") {
		t.Errorf("got %v, want the -svg error", err)
	}
	dir := t.TempDir()
	if err := run([]string{"-svg", dir}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("-svg DIR: got %v, want 'is a directory'", err)
	}
}

// A run that fails after the output file was created leaves an existing
// file as it was and no temporary file behind; a run that succeeds
// replaces it.
func TestOutputNotTruncatedByFailedRun(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plot.svg")
	if err := os.WriteFile(path, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"-svg", path, "-trace", "/nonexistent/pods.csv"}, &out, &errOut); err == nil {
		t.Fatal("no error for a missing trace")
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != "keep" {
		t.Errorf("after a failed run: %q, %v; want the old content", data, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("directory holds %d entries after a failed run, want only plot.svg", len(ents))
	}
	runCLI(t, "-synthetic", "-jobs", "50", "-policies", "priority", "-svg", path)
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(data), "<svg") {
		t.Errorf("after a good run: %.20q, %v; want the plot", data, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v; want 0644", fi.Mode(), err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("directory holds %d entries after a good run, want only plot.svg", len(ents))
	}
}

func TestRunTraceFiles(t *testing.T) {
	dir := t.TempDir()
	pods := filepath.Join(dir, "pods.csv")
	nodes := filepath.Join(dir, "nodes.csv")
	os.WriteFile(pods, []byte(podHeader+"a,1,1,1,1000,,BE,Succeeded,0,100,0\nb,1,1,1,1000,,LS,Running,10,60,10\n"), 0o644)
	os.WriteFile(nodes, []byte("sn,cpu_milli,memory_mib,gpu\nn0,10,10,1\n"), 0o644)
	rep := runJSON(t, "-trace", pods, "-nodes", nodes, "-interval", "10s", "-policies", "priority")
	r := rep.Results[0]
	if r.Evictions.Total != 1 || r.Completed != 2 || rep.Workload.NodeStride != 1 || rep.Workload.Speedup != 1 {
		t.Errorf("got %+v / %+v", r, rep.Workload)
	}
}

func TestFlagErrorsAllAtOnce(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run([]string{"-interval", "0s", "-teams", "0", "-policies", "nope", "-min-runtime", "be=5", "-min-admit", "30s",
		"-speedup", "0.5", "-tail", "600w", "-reclaim-method", "LCA", "-thrash-window", "0s", "-reservations", "0"}, &out, &errOut)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"-interval 0s: want whole seconds", "-teams 0", `unknown policy "nope"`,
		`-min-runtime be: runtime: invalid duration "5"`, "-min-admit: eligibility:", "-speedup 0.5", "-tail 600w: want at most 521w3d",
		"-reclaim-method: runtime:", "-thrash-window 0s", "-reservations 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-trace", "/nonexistent/pods.csv"}, "simulate: "},
		{[]string{"-fail-rate", "0.5"}, "-fail-rate needs -synthetic"},
		{[]string{"-policies", "backoff"}, "no failed starts"},
		{[]string{"-synthetic", "-jobs", "10", "-policies", "backoff"}, "-fail-rate is 0"},
		{[]string{"-interval", "1.5s"}, ": want whole seconds, 1s..1d"},
		{[]string{"-interval", "25h"}, ": want whole seconds, 1s..1d"},
		{[]string{"-min-runtime", "nosuchqueue=1m"}, "nosuchqueue"},
		{[]string{"-expected-runtime", "nosuchqueue=1m"}, `-expected-runtime: unknown queue "nosuchqueue"`},
		{[]string{"-preempt-min-runtime", "nosuchqueue=1m"}, `queue "nosuchqueue" has min-runtime settings but is not in the queue tree`},
		{[]string{"-preempt-min-runtime", "be=-1m"}, `-preempt-min-runtime be: runtime: invalid duration "-1m"`},
		// The nominator would skip every job with invalid_duration: refused
		// up front with its own error.
		{[]string{"-expected-runtime", "be=0s"}, `-expected-runtime be: eligibility: annotation "kai.scheduler/expected-runtime": invalid value "0s": must be positive`},
		{[]string{"-requeue-contenders", "all"}, `-requeue-contenders "all"`},
		{[]string{"-max-lost-work", "-1"}, "-max-lost-work: requeue: MaxLostWork -1 is negative or NaN"},
		{[]string{"-max-lost-work", "NaN"}, "-max-lost-work: requeue: MaxLostWork NaN is negative or NaN"},
		{[]string{"-max-lost-work", "+Inf"}, "-max-lost-work +Inf: want a finite number"},
		// The clock ticks in whole seconds: a fraction would be dropped
		// (500ms checkpoints running as none) while reported as given.
		{[]string{"-checkpoint", "500ms"}, "-checkpoint 500ms: want whole seconds"},
		{[]string{"-checkpoint", "1.5s"}, "-checkpoint 1.5s: want whole seconds"},
		{[]string{"-thrash-window", "500ms"}, "-thrash-window 500ms: want whole seconds"},
		{[]string{"-reserve-after", "90.5s"}, "-reserve-after 1m30.5s: want whole seconds"},
		{[]string{"-tail", "1.5s"}, "-tail 1.5s: want whole seconds"},
		{[]string{"-synthetic", "-sweep", "checkpoint=1m,1.5s"}, "-sweep point checkpoint=1.5s: simulate: -checkpoint 1.5s: want whole seconds"},
	} {
		if err := run(tc.args, &out, &errOut); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.args, err, tc.want)
		}
	}
}

// With fewer teams the built-in per-team defaults (be-a=1h, ls-c=0s) whose
// queue does not exist are left out, with a note; a queue the user names
// must exist.
func TestFewTeams(t *testing.T) {
	for _, tc := range []struct {
		teams   int
		minRT   []report.QueueSetting
		leftOut string
	}{
		{1, []report.QueueSetting{{Queue: "be", Duration: "5m"}, {Queue: "be-a", Duration: "1h"}, {Queue: "burstable", Duration: "15m"}, {Queue: "ls", Duration: "30m"}}, "min-runtime ls-c=0s"},
		{2, []report.QueueSetting{{Queue: "be", Duration: "5m"}, {Queue: "be-a", Duration: "1h"}, {Queue: "burstable", Duration: "15m"}, {Queue: "ls", Duration: "30m"}}, "min-runtime ls-c=0s"},
		{3, []report.QueueSetting{{Queue: "be", Duration: "5m"}, {Queue: "be-a", Duration: "1h"}, {Queue: "burstable", Duration: "15m"}, {Queue: "ls", Duration: "30m"}, {Queue: "ls-c", Duration: "0s"}}, ""},
	} {
		rep := runJSON(t, "-synthetic", "-jobs", "200", "-teams", fmt.Sprint(tc.teams), "-policies", "minruntime")
		if diff := cmp.Diff(tc.minRT, rep.Settings.MinRuntime); diff != "" {
			t.Errorf("teams %d: min-runtime (-want +got):\n%s", tc.teams, diff)
		}
		if got := len(rep.Results[0].Queues); got != 3*tc.teams {
			t.Errorf("teams %d: %d queues", tc.teams, got)
		}
		var note string
		for _, n := range rep.Notes {
			if n.Kind == "defaults_left_out" {
				note = n.Text
			}
		}
		if tc.leftOut == "" && note != "" || !strings.Contains(note, tc.leftOut) {
			t.Errorf("teams %d: note %q, want one naming %q", tc.teams, note, tc.leftOut)
		}
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"-teams", "2", "-min-runtime", "ls-c=1m"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), `"ls-c"`) {
		t.Errorf("a user-given ls-c with -teams 2: %v, want an error naming it", err)
	}
}
