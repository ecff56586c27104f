package runtime_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

func TestValidateAllProblems(t *testing.T) {
	if err := (runtime.Config{}).Validate(); err != nil {
		t.Fatalf("zero Config: %v", err)
	}
	ok := runtime.Config{
		DefaultPreempt: time.Minute,
		DefaultReclaim: 0,
		Method:         runtime.MethodQueue,
		Queues: []runtime.QueueSetting{
			{Queue: "a", Preempt: explicit(0)},
			{Queue: "b"},
		},
	}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid Config: %v", err)
	}
	bad := runtime.Config{
		DefaultPreempt: -1, // the smallest negative is rejected; 0 is valid (above)
		DefaultReclaim: -90 * time.Second,
		Method:         runtime.Method(2),
		Queues: []runtime.QueueSetting{
			{Queue: "a", Preempt: explicit(time.Second)},
			{Queue: "", Reclaim: explicit(time.Second)},
			{Queue: "a", Reclaim: explicit(-1)},
			{Queue: "c", Preempt: explicit(-1), Reclaim: explicit(-2 * time.Hour)},
		},
	}
	err := bad.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	wantLines := []string{
		"runtime: DefaultPreempt is negative (-1ns)",
		"runtime: DefaultReclaim is negative (-1m30s)",
		"runtime: invalid Method(2) (want MethodLCA or MethodQueue)",
		"runtime: Queues[1] has an empty queue name (the implicit root is configured by DefaultPreempt and DefaultReclaim)",
		`runtime: queue "a" is listed twice (Queues[0] and Queues[2])`,
		`runtime: queue "a": Reclaim is negative (-1ns)`,
		`runtime: queue "c": Preempt is negative (-1ns)`,
		`runtime: queue "c": Reclaim is negative (-2h)`,
	}
	if diff := cmp.Diff(wantLines, strings.Split(err.Error(), "\n")); diff != "" {
		t.Errorf("Validate (-want +got):\n%s", diff)
	}
}

func TestParseConfig(t *testing.T) {
	args := map[string]string{
		"defaultPreemptMinRuntime": "1.5d",
		"defaultReclaimMinRuntime": "10m",
		"reclaimResolveMethod":     "queue",
	}
	queues := []runtime.QueueFields{
		{Name: "a", PreemptMinRuntime: "20s", ReclaimMinRuntime: "0s"},
		{Name: "b", ReclaimMinRuntime: "1w"},
		{Name: "c"}, // nothing set: no entry
		{Name: "d", PreemptMinRuntime: "0"},
	}
	got, err := runtime.ParseConfig(args, queues)
	if err != nil {
		t.Fatal(err)
	}
	want := runtime.Config{
		DefaultPreempt: 36 * time.Hour,
		DefaultReclaim: 10 * time.Minute,
		Method:         runtime.MethodQueue,
		Queues: []runtime.QueueSetting{
			{Queue: "a", Preempt: explicit(20 * time.Second), Reclaim: explicit(0)},
			{Queue: "b", Reclaim: explicit(7 * 24 * time.Hour)},
			{Queue: "d", Preempt: explicit(0)},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseConfig (-want +got):\n%s", diff)
	}

	// Missing keys and empty values keep the defaults.
	for _, a := range []map[string]string{nil, {}, {
		"defaultPreemptMinRuntime": "",
		"defaultReclaimMinRuntime": "",
		"reclaimResolveMethod":     "",
	}} {
		got, err := runtime.ParseConfig(a, nil)
		if err != nil {
			t.Errorf("ParseConfig(%v): %v", a, err)
		}
		if diff := cmp.Diff(runtime.Config{}, got); diff != "" {
			t.Errorf("ParseConfig(%v) (-want +got):\n%s", a, diff)
		}
	}
}

func TestParseConfigAllProblems(t *testing.T) {
	args := map[string]string{
		"defaultPreemptMinRuntime": "5",
		"defaultReclaimMinRuntime": "-1m",
		"reclaimResolveMethod":     "LCA",
		"defaultPremptMinRuntime":  "1m",
	}
	queues := []runtime.QueueFields{
		{Name: "a", PreemptMinRuntime: "1h2", ReclaimMinRuntime: "30s"},
		{Name: "", PreemptMinRuntime: "1m"},
		{Name: "b", ReclaimMinRuntime: "1x"},
		{Name: "a", ReclaimMinRuntime: "1m"},
		{Name: "c", PreemptMinRuntime: "10m"},
	}
	got, err := runtime.ParseConfig(args, queues)
	if err == nil {
		t.Fatal("no error")
	}
	wantLines := []string{
		`runtime: plugin argument defaultPreemptMinRuntime: invalid duration "5": a number needs a unit (such as s, m, h, d); only 0 may omit it`,
		`runtime: unknown plugin argument "defaultPremptMinRuntime" (want defaultPreemptMinRuntime, defaultReclaimMinRuntime or reclaimResolveMethod)`,
		`runtime: plugin argument defaultReclaimMinRuntime: invalid duration "-1m": negative durations are not allowed`,
		`runtime: plugin argument reclaimResolveMethod: unknown method "LCA" (want "lca" or "queue")`,
		`runtime: queue "a": preemptMinRuntime: invalid duration "1h2": missing unit after "2"`,
		`runtime: queue entry 1 has an empty name`,
		`runtime: queue "b": reclaimMinRuntime: invalid duration "1x": unknown unit "x" (want ns, us, ms, s, m, h, d or w)`,
		`runtime: queue "a" listed twice (entries 0 and 3); the first is used`,
	}
	if diff := cmp.Diff(wantLines, strings.Split(err.Error(), "\n")); diff != "" {
		t.Errorf("ParseConfig errors (-want +got):\n%s", diff)
	}
	// What parsed is kept, and the result is valid.
	want := runtime.Config{Queues: []runtime.QueueSetting{
		{Queue: "a", Reclaim: explicit(30 * time.Second)},
		{Queue: "c", Preempt: explicit(10 * time.Minute)},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("partial Config (-want +got):\n%s", diff)
	}
	if err := got.Validate(); err != nil {
		t.Errorf("partial Config does not validate: %v", err)
	}
}

func TestMethodAndAction(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want runtime.Method
	}{{"lca", runtime.MethodLCA}, {"queue", runtime.MethodQueue}} {
		got, err := runtime.ParseMethod(tt.in)
		if err != nil || got != tt.want || got.String() != tt.in {
			t.Errorf("ParseMethod(%q) = %v, %v", tt.in, got, err)
		}
	}
	for _, s := range []string{"", "LCA", "Queue", " lca", "lca ", "fifo"} {
		if _, err := runtime.ParseMethod(s); err == nil || !strings.HasPrefix(err.Error(), "runtime: unknown reclaim resolve method") {
			t.Errorf("ParseMethod(%q) error = %v", s, err)
		}
	}
	if runtime.MethodLCA != 0 || runtime.ActionPreempt != 0 {
		t.Error("the zero values must be MethodLCA and ActionPreempt")
	}
	for a, want := range map[runtime.Action]string{runtime.ActionPreempt: "preempt", runtime.ActionReclaim: "reclaim", 9: "Action(9)"} {
		if got := a.String(); got != want {
			t.Errorf("Action(%d).String() = %q; want %q", a, got, want)
		}
	}
	if got := runtime.Method(9).String(); got != "Method(9)" {
		t.Errorf("Method(9).String() = %q", got)
	}
}

// TestParseConfigThenNewResolver checks the documented way to report every
// problem at once: ParseConfig's errors joined with NewResolver's on the
// partial Config, which names the queues the tree lacks.
func TestParseConfigThenNewResolver(t *testing.T) {
	tree, err := queuetree.New([]queuetree.Queue{{Name: "a"}, {Name: "b", Parent: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	cfg, perr := runtime.ParseConfig(nil, []runtime.QueueFields{
		{Name: "a", PreemptMinRuntime: "5"},
		{Name: "ghost", ReclaimMinRuntime: "1m"},
		{Name: "b", ReclaimMinRuntime: "2m"},
	})
	_, rerr := runtime.NewResolver(tree, cfg)
	wantLines := []string{
		`runtime: queue "a": preemptMinRuntime: invalid duration "5": a number needs a unit (such as s, m, h, d); only 0 may omit it`,
		`runtime: queue "ghost" has min-runtime settings but is not in the queue tree`,
	}
	err = errors.Join(perr, rerr)
	if err == nil {
		t.Fatal("no error")
	}
	if diff := cmp.Diff(wantLines, strings.Split(err.Error(), "\n")); diff != "" {
		t.Errorf("joined errors (-want +got):\n%s", diff)
	}
}

// FuzzParseConfig checks that ParseConfig never panics on arbitrary
// strings, that every error line carries the package prefix, and that the
// Config it returns always validates.
func FuzzParseConfig(f *testing.F) {
	f.Add("10m", "", "lca", "a", "20s", "30s", "a", "1h2", "")
	f.Add("5", "-1m", "LCA", "", "1m", "", "b", "", "1x")
	f.Add("", "1w", "queue", "x", "0", "0s", "x", "1d", "")
	f.Fuzz(func(t *testing.T, defP, defR, method, q1, p1, r1, q2, p2, r2 string) {
		cfg, err := runtime.ParseConfig(map[string]string{
			"defaultPreemptMinRuntime": defP,
			"defaultReclaimMinRuntime": defR,
			"reclaimResolveMethod":     method,
		}, []runtime.QueueFields{{Name: q1, PreemptMinRuntime: p1, ReclaimMinRuntime: r1}, {Name: q2, PreemptMinRuntime: p2, ReclaimMinRuntime: r2}})
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				// Inputs are quoted (%q), so a newline in one cannot
				// start a line of its own.
				if !strings.HasPrefix(line, "runtime: ") {
					t.Fatalf("error line %q lacks the package prefix", line)
				}
			}
		}
		if verr := cfg.Validate(); verr != nil {
			t.Fatalf("ParseConfig returned a Config that does not validate: %v", verr)
		}
	})
}

// explicit returns a pointer to d, for a QueueSetting or a MinAdmitDuration.
func explicit(d time.Duration) *time.Duration { return &d }
