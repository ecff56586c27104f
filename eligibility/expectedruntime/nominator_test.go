package expectedruntime_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/runtime"
)

const (
	elKeyExp   = expectedruntime.AnnotationExpectedRuntime
	elKeyDelay = expectedruntime.AnnotationRequeueDelay
	elKeyNB    = eligibility.AnnotationRequeueNotBefore
)

// elRunning is a running, preemptible job started at start with the given
// annotations (key, value pairs).
func elRunning(id string, start time.Time, kv ...string) eligibility.Job {
	j := eligibility.Job{ID: id, Running: true, Preemptible: true, Start: start, Annotations: map[string]string{}}
	for i := 0; i+1 < len(kv); i += 2 {
		j.Annotations[kv[i]] = kv[i+1]
	}
	return j
}

func elRFC(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// elOutcome is the comparable core of an Outcome.
type elOutcome struct {
	Reason  eligibility.Reason
	Until   time.Time
	Overrun time.Duration
	HasErr  bool
}

func elCore(o expectedruntime.Outcome) elOutcome {
	if o.Allowed {
		return elOutcome{Reason: eligibility.Reason("nominated"), Overrun: o.Nomination.Overrun}
	}
	return elOutcome{Reason: o.Skip.Reason, Until: o.Skip.Until, HasErr: o.Skip.Err != nil}
}

func TestNominatorEvaluate(t *testing.T) {
	notRunning := elRunning("nr", elT0, elKeyExp, "1h")
	notRunning.Running = false
	notPreemptible := elRunning("np", elT0, elKeyExp, "1h")
	notPreemptible.Preemptible = false

	tests := []struct {
		name string
		job  eligibility.Job
		now  time.Time
		want elOutcome
	}{
		// KAI docs/plugins/expectedruntime.md "Basic Usage": 4h expected runtime.
		{"plugin doc basic: before 4h", elRunning("training-job", elT0, elKeyExp, "4h"), elMin(239),
			elOutcome{Reason: expectedruntime.ReasonNotExceeded, Until: elMin(240)}},
		{"plugin doc basic: nominated at exactly 4h", elRunning("training-job", elT0, elKeyExp, "4h"), elMin(240),
			elOutcome{Reason: eligibility.Reason("nominated")}},
		{"one ns before expected", elRunning("j", elT0, elKeyExp, "4h"), elMin(240).Add(-1),
			elOutcome{Reason: expectedruntime.ReasonNotExceeded, Until: elMin(240)}},
		{"overrun", elRunning("j", elT0, elKeyExp, "4h"), elMin(250),
			elOutcome{Reason: eligibility.Reason("nominated"), Overrun: 10 * time.Minute}},
		{"1d works (runtime grammar)", elRunning("j", elT0, elKeyExp, "1d"), elT0.Add(24 * time.Hour),
			elOutcome{Reason: eligibility.Reason("nominated")}},
		{"1h30m", elRunning("j", elT0, elKeyExp, "1h30m"), elMin(89),
			elOutcome{Reason: expectedruntime.ReasonNotExceeded, Until: elMin(90)}},
		// Eligibility criteria 1-3.
		{"not running", notRunning, elMin(120), elOutcome{Reason: expectedruntime.ReasonNotRunning}},
		{"not preemptible", notPreemptible, elMin(120), elOutcome{Reason: expectedruntime.ReasonNotPreemptible}},
		{"not configured", elRunning("j", elT0), elMin(120), elOutcome{Reason: expectedruntime.ReasonNotConfigured}},
		{"other annotations only", elRunning("j", elT0, elKeyDelay, "10m", elKeyNB, elRFC(elMin(500))), elMin(120),
			elOutcome{Reason: expectedruntime.ReasonNotConfigured}},
		// Invalid duration: missing value, unparsable, non-positive.
		{"empty expected", elRunning("j", elT0, elKeyExp, ""), elMin(120), elOutcome{Reason: expectedruntime.ReasonInvalidDuration, HasErr: true}},
		{"garbage expected", elRunning("j", elT0, elKeyExp, "soon"), elMin(120), elOutcome{Reason: expectedruntime.ReasonInvalidDuration, HasErr: true}},
		{"bare number", elRunning("j", elT0, elKeyExp, "5"), elMin(120), elOutcome{Reason: expectedruntime.ReasonInvalidDuration, HasErr: true}},
		{"zero expected", elRunning("j", elT0, elKeyExp, "0s"), elMin(120), elOutcome{Reason: expectedruntime.ReasonInvalidDuration, HasErr: true}},
		{"bare zero", elRunning("j", elT0, elKeyExp, "0"), elMin(120), elOutcome{Reason: expectedruntime.ReasonInvalidDuration, HasErr: true}},
		{"negative expected", elRunning("j", elT0, elKeyExp, "-1h"), elMin(120), elOutcome{Reason: expectedruntime.ReasonInvalidDuration, HasErr: true}},
		// Missing start, clock skew.
		{"missing start", elRunning("j", time.Time{}, elKeyExp, "1h"), elMin(120), elOutcome{Reason: eligibility.ReasonMissingStart}},
		{"clock skew", elRunning("j", elMin(10), elKeyExp, "1h"), elMin(9), elOutcome{Reason: eligibility.ReasonClockSkew, Until: elMin(10)}},
		{"start == now is not skew", elRunning("j", elMin(10), elKeyExp, "1h"), elMin(10), elOutcome{Reason: expectedruntime.ReasonNotExceeded, Until: elMin(70)}},
		// Cooldown gate.
		{"cooldown", elRunning("j", elT0, elKeyExp, "1h", elKeyNB, elRFC(elMin(90))), elMin(89),
			elOutcome{Reason: eligibility.ReasonCooldown, Until: elMin(90)}},
		{"eligible at exactly not-before", elRunning("j", elT0, elKeyExp, "1h", elKeyNB, elRFC(elMin(90))), elMin(90),
			elOutcome{Reason: eligibility.Reason("nominated"), Overrun: 30 * time.Minute}},
		{"not-before in the past", elRunning("j", elT0, elKeyExp, "1h", elKeyNB, elRFC(elMin(30))), elMin(60),
			elOutcome{Reason: eligibility.Reason("nominated")}},
		{"RFC3339Nano not-before", elRunning("j", elT0, elKeyExp, "1h", elKeyNB, "2025-01-15T11:30:00.5Z"), elMin(90),
			elOutcome{Reason: eligibility.ReasonCooldown, Until: elMin(90).Add(500 * time.Millisecond)}},
		{"offset not-before", elRunning("j", elT0, elKeyExp, "1h", elKeyNB, "2025-01-15T12:30:00+01:00"), elMin(89),
			elOutcome{Reason: eligibility.ReasonCooldown, Until: elMin(90)}},
		{"invalid not-before", elRunning("j", elT0, elKeyExp, "1h", elKeyNB, "tomorrow"), elMin(120),
			elOutcome{Reason: expectedruntime.ReasonInvalidNotBefore, HasErr: true}},
		{"empty not-before", elRunning("j", elT0, elKeyExp, "1h", elKeyNB, ""), elMin(120),
			elOutcome{Reason: expectedruntime.ReasonInvalidNotBefore, HasErr: true}},
		// Order of checks: a job failing several checks gets the first reason.
		{"order: not_running before everything", func() eligibility.Job {
			j := elRunning("j", time.Time{}, elKeyExp, "bad", elKeyNB, "bad")
			j.Running, j.Preemptible = false, false
			return j
		}(), elMin(1), elOutcome{Reason: expectedruntime.ReasonNotRunning}},
		{"order: not_preemptible before invalid_duration", func() eligibility.Job {
			j := elRunning("j", time.Time{}, elKeyExp, "bad")
			j.Preemptible = false
			return j
		}(), elMin(1), elOutcome{Reason: expectedruntime.ReasonNotPreemptible}},
		{"order: not_preemptible before not configured", func() eligibility.Job {
			j := elRunning("j", elT0)
			j.Preemptible = false
			return j
		}(), elMin(120), elOutcome{Reason: expectedruntime.ReasonNotPreemptible}},
		{"order: not configured before missing start", elRunning("j", time.Time{}, elKeyNB, "bad"), elMin(1),
			elOutcome{Reason: expectedruntime.ReasonNotConfigured}},
		{"order: invalid_duration before missing_start", elRunning("j", time.Time{}, elKeyExp, "bad"), elMin(1),
			elOutcome{Reason: expectedruntime.ReasonInvalidDuration, HasErr: true}},
		{"order: missing_start before invalid_not_before", elRunning("j", time.Time{}, elKeyExp, "1h", elKeyNB, "bad"), elMin(1),
			elOutcome{Reason: eligibility.ReasonMissingStart}},
		{"order: clock_skew before invalid_not_before", elRunning("j", elMin(10), elKeyExp, "1h", elKeyNB, "bad"), elMin(1),
			elOutcome{Reason: eligibility.ReasonClockSkew, Until: elMin(10)}},
		{"order: not exceeded before invalid_not_before", elRunning("j", elT0, elKeyExp, "1h", elKeyNB, "bad"), elMin(59),
			elOutcome{Reason: expectedruntime.ReasonNotExceeded, Until: elMin(60)}},
		{"order: not exceeded before cooldown", elRunning("j", elT0, elKeyExp, "1h", elKeyNB, elRFC(elMin(500))), elMin(59),
			elOutcome{Reason: expectedruntime.ReasonNotExceeded, Until: elMin(60)}},
		// Requeue delay never blocks a nomination.
		{"invalid delay still nominated", elRunning("j", elT0, elKeyExp, "1h", elKeyDelay, "later"), elMin(60),
			elOutcome{Reason: eligibility.Reason("nominated")}},
	}
	var n expectedruntime.Nominator
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := n.Evaluate(&tc.job, tc.now)
			if diff := cmp.Diff(tc.want, elCore(got)); diff != "" {
				t.Errorf("Evaluate (-want +got):\n%s", diff)
			}
			if got.Reason != tc.want.Reason {
				t.Errorf("Outcome.Reason = %v", got.Reason)
			}
			if !got.Allowed && (got.Skip.Job != tc.job.ID || got.Skip.Source != "expectedruntime") {
				t.Errorf("skip identity: %+v", got.Skip)
			}
		})
	}
}

func TestNominatorNominationFields(t *testing.T) {
	j := elRunning("ns/long-running-job", elT0, elKeyExp, "8h", elKeyDelay, "30m", elKeyNB, elRFC(elMin(400)))
	j.Queue, j.Priority, j.Resources = 3, 50, 2.5
	got := (&expectedruntime.Nominator{}).Evaluate(&j, elMin(490))
	want := expectedruntime.Nomination{
		Victim: expectedruntime.Victim{
			ID:              "ns/long-running-job",
			Queue:           3,
			Priority:        50,
			Start:           elT0,
			Expected:        8 * time.Hour,
			RequeueDelay:    30 * time.Minute,
			HasRequeueDelay: true,
			NotBefore:       elMin(400),
			Resources:       2.5,
		},
		Nominator: "expectedruntime",
		Overrun:   10 * time.Minute,
	}
	if diff := cmp.Diff(want, got.Nomination); !got.Allowed || diff != "" {
		t.Errorf("Nomination (-want +got):\n%s", diff)
	}
	// A zero delay is valid ("requeue-delay may be zero").
	j.Annotations[elKeyDelay] = "0s"
	if got := (&expectedruntime.Nominator{}).Evaluate(&j, elMin(490)); !got.Nomination.HasRequeueDelay || got.Nomination.RequeueDelay != 0 {
		t.Errorf("zero delay: %+v", got.Nomination)
	}
	// An invalid delay: nominated, engine default applies, error kept.
	j.Annotations[elKeyDelay] = "-5m"
	got = (&expectedruntime.Nominator{}).Evaluate(&j, elMin(490))
	if !got.Allowed || got.Nomination.HasRequeueDelay || got.Nomination.RequeueDelayErr == nil {
		t.Errorf("invalid delay: %+v", got.Nomination)
	}
	// Absent delay.
	delete(j.Annotations, elKeyDelay)
	if got := (&expectedruntime.Nominator{}).Evaluate(&j, elMin(490)); got.Nomination.HasRequeueDelay || got.Nomination.RequeueDelayErr != nil {
		t.Errorf("absent delay: %+v", got.Nomination)
	}
	// Nil job and a name.
	if got := (&expectedruntime.Nominator{Name: "mine"}).Evaluate(nil, elT0); got.Skip.Reason != expectedruntime.ReasonNotRunning || got.Skip.Source != "mine" {
		t.Errorf("nil job: %+v", got)
	}
}

func TestNominatorMinRuntime(t *testing.T) {
	tree, r := elSetup(t, runtime.MethodLCA, 0, 0,
		elQueue{Name: "prod", Preempt: "90m", Reclaim: "2h"},
	)
	prod := elID(t, tree, "prod")
	j := elRunning("j", elT0, elKeyExp, "1h")
	j.Queue = prod

	// Off by default (KAI's expected-runtime plugin, phase 1): nominated while protected.
	if got := (&expectedruntime.Nominator{}).Evaluate(&j, elMin(60)); !got.Allowed {
		t.Errorf("default: %+v, want nominated", got.Skip)
	}
	n := expectedruntime.Nominator{Resolver: r}
	for _, tc := range []struct {
		action runtime.Action
		now    time.Time
		want   elOutcome
	}{
		{runtime.ActionPreempt, elMin(60), elOutcome{Reason: eligibility.ReasonMinRuntimeProtected, Until: elMin(90)}},
		{runtime.ActionPreempt, elMin(90), elOutcome{Reason: eligibility.Reason("nominated"), Overrun: 30 * time.Minute}},
		{runtime.ActionReclaim, elMin(90), elOutcome{Reason: eligibility.ReasonMinRuntimeProtected, Until: elMin(120)}},
		{runtime.ActionReclaim, elMin(120), elOutcome{Reason: eligibility.Reason("nominated"), Overrun: time.Hour}},
	} {
		n.MinRuntimeAction = tc.action
		if diff := cmp.Diff(tc.want, elCore(n.Evaluate(&j, tc.now))); diff != "" {
			t.Errorf("%v at %v (-want +got):\n%s", tc.action, tc.now, diff)
		}
	}
	// Order: cooldown and invalid_not_before come before minruntime_protected.
	n.MinRuntimeAction = runtime.ActionPreempt
	j.Annotations[elKeyNB] = elRFC(elMin(70))
	if diff := cmp.Diff(elOutcome{Reason: eligibility.ReasonCooldown, Until: elMin(70)}, elCore(n.Evaluate(&j, elMin(65)))); diff != "" {
		t.Errorf("cooldown first (-want +got):\n%s", diff)
	}
	j.Annotations[elKeyNB] = "bad"
	if got := n.Evaluate(&j, elMin(65)); got.Skip.Reason != expectedruntime.ReasonInvalidNotBefore {
		t.Errorf("invalid_not_before first: %v", got.Skip.Reason)
	}
}

func TestNominatorCustomKeys(t *testing.T) {
	keys := erKeysWithPrefix("example.com/")
	if keys.ExpectedRuntime != "example.com/expected-runtime" || keys.RequeueDelay != "example.com/requeue-delay" || keys.RequeueNotBefore != "example.com/requeue-not-before" {
		t.Fatalf("KeysWithPrefix = %+v", keys)
	}
	if erKeysWithPrefix("kai.scheduler/") != (expectedruntime.Keys{ExpectedRuntime: expectedruntime.AnnotationExpectedRuntime, RequeueDelay: expectedruntime.AnnotationRequeueDelay, RequeueNotBefore: eligibility.AnnotationRequeueNotBefore, LastCheckpoint: expectedruntime.AnnotationLastCheckpoint}) {
		t.Error("default keys are the kai.scheduler/ prefix")
	}
	n := expectedruntime.Nominator{Keys: keys}
	j := elRunning("j", elT0, elKeyExp, "1h", "example.com/expected-runtime", "2h", "example.com/requeue-not-before", elRFC(elMin(200)))
	if diff := cmp.Diff(elOutcome{Reason: eligibility.ReasonCooldown, Until: elMin(200)}, elCore(n.Evaluate(&j, elMin(120)))); diff != "" {
		t.Errorf("custom keys (-want +got):\n%s", diff)
	}
	// A partial override keeps the other defaults.
	partial := expectedruntime.Nominator{Keys: expectedruntime.Keys{ExpectedRuntime: "example.com/expected-runtime"}}
	if got := partial.Evaluate(&j, elMin(120)); !got.Allowed { // not-before read from the default key: absent
		t.Errorf("partial override: %+v", got.Skip)
	}
	// Nominate and AppendTo read the same keys as Evaluate: j is in
	// cooldown under the custom keys, and a job carrying only KAI's
	// key did not opt in.
	res := n.Nominate([]eligibility.Job{j, elRunning("kai-keys", elT0, elKeyExp, "1h")}, elMin(120))
	wantSkips := []eligibility.Event{{Job: "j", Source: "expectedruntime", Decision: eligibility.Decision{Reason: eligibility.ReasonCooldown, Until: elMin(200)}}}
	if diff := cmp.Diff(wantSkips, res.Skips); diff != "" || len(res.Nominations) != 0 || res.Silent != 1 {
		t.Errorf("Nominate with custom keys: %d nominations, %d silent, skips (-want +got):\n%s", len(res.Nominations), res.Silent, diff)
	}
	if err := (&expectedruntime.Nominator{Keys: expectedruntime.Keys{RequeueDelay: elKeyExp}}).Validate(); err == nil {
		t.Error("colliding keys accepted")
	}
	if err := (&expectedruntime.Nominator{Keys: expectedruntime.Keys{RequeueDelay: "x", RequeueNotBefore: "x", ExpectedRuntime: "x"}}).Validate(); err == nil || len(strings.Split(err.Error(), "\n")) != 3 {
		t.Errorf("want three joined errors, got %v", err)
	}
	if err := (&expectedruntime.Nominator{}).Validate(); err != nil {
		t.Errorf("zero Nominator: %v", err)
	}
}

// elRecorder is an Observer recording calls in order.
type elRecorder struct {
	events []string
}

func (r *elRecorder) Observe(e eligibility.Event) {
	if e.Allowed {
		r.events = append(r.events, "nominated "+e.Job)
		return
	}
	r.events = append(r.events, "skipped "+e.Job+" "+e.Reason.String())
}

func TestNominatorNominate(t *testing.T) {
	jobs := []eligibility.Job{
		elRunning("a", elT0, elKeyExp, "1h"),                             // nominated, overrun 1h
		elRunning("b", elT0),                                             // not configured (silent)
		elRunning("c", elT0, elKeyExp, "3h"),                             // not exceeded until 180
		elRunning("d", elT0, elKeyExp, "1h", elKeyNB, elRFC(elMin(150))), // cooldown until 150
		elRunning("e", elT0, elKeyExp, "nope"),                           // invalid duration
		elRunning("f", elT0, elKeyExp, "30m", elKeyDelay, "5m"),          // nominated
		elRunning("g", elMin(125), elKeyExp, "1h"),                       // clock skew until 125
	}
	rec := &elRecorder{}
	var counter counter
	n := expectedruntime.Nominator{Observer: multiObserver{rec, &counter}}
	now := elMin(120)
	got := n.Nominate(jobs, now)

	wantNoms := []expectedruntime.Nomination{
		{Victim: expectedruntime.Victim{ID: "a", Start: elT0, Expected: time.Hour}, Index: 0, Nominator: "expectedruntime", Overrun: time.Hour},
		{Victim: expectedruntime.Victim{ID: "f", Start: elT0, Expected: 30 * time.Minute, RequeueDelay: 5 * time.Minute, HasRequeueDelay: true}, Index: 5, Nominator: "expectedruntime", Overrun: 90 * time.Minute},
	}
	if diff := cmp.Diff(wantNoms, got.Nominations); diff != "" {
		t.Errorf("Nominations (-want +got):\n%s", diff)
	}
	wantSkips := []eligibility.Event{
		{Job: "d", Source: "expectedruntime", Decision: eligibility.Decision{Reason: eligibility.ReasonCooldown, Until: elMin(150)}},
		{Job: "e", Source: "expectedruntime", Decision: eligibility.Decision{Reason: expectedruntime.ReasonInvalidDuration}},
		{Job: "g", Source: "expectedruntime", Decision: eligibility.Decision{Reason: eligibility.ReasonClockSkew, Until: elMin(125)}},
	}
	if diff := cmp.Diff(wantSkips, got.Skips, cmpopts.IgnoreFields(eligibility.Event{}, "Err")); diff != "" {
		t.Errorf("Skips (-want +got):\n%s", diff)
	}
	if got.Skips[1].Err == nil {
		t.Error("invalid_duration skip carries no error")
	}
	if got.Silent != 2 || !got.Wake.Equal(elMin(125)) {
		t.Errorf("Silent = %d, Wake = %v; want 2, %v", got.Silent, got.Wake, elMin(125))
	}
	wantEvents := []string{"nominated a", "skipped d cooldown", "skipped e invalid_duration", "nominated f", "skipped g clock_skew"}
	if diff := cmp.Diff(wantEvents, rec.events); diff != "" {
		t.Errorf("observer events (-want +got):\n%s", diff)
	}
	wantSamples := []string{
		`tenure_decisions_total{source="expectedruntime",reason="clock_skew"} 1`,
		`tenure_decisions_total{source="expectedruntime",reason="cooldown"} 1`,
		`tenure_decisions_total{source="expectedruntime",reason="invalid_duration"} 1`,
		`tenure_decisions_total{source="expectedruntime",reason="nominated"} 2`,
	}
	var gotSamples []string
	for _, s := range counter.Samples() {
		gotSamples = append(gotSamples, s.String())
	}
	if diff := cmp.Diff(wantSamples, gotSamples); diff != "" {
		t.Errorf("Samples (-want +got):\n%s", diff)
	}
	if counter.Count("expectedruntime", eligibility.Reason("nominated")) != 2 || counter.Count("expectedruntime", eligibility.ReasonCooldown) != 1 ||
		counter.Count("expectedruntime", expectedruntime.ReasonNotConfigured) != 0 || counter.Count("other", eligibility.ReasonCooldown) != 0 {
		t.Error("counter accessors")
	}

	// Empty input.
	if got := (&expectedruntime.Nominator{}).Nominate(nil, now); got.Nominations != nil || got.Skips != nil || got.Silent != 0 || !got.Wake.IsZero() {
		t.Errorf("empty input: %+v", got)
	}
}

type multiObserver []eligibility.Observer

func (m multiObserver) Observe(e eligibility.Event) {
	for _, o := range m {
		o.Observe(e)
	}
}

// Evaluate and Report, one job at a time, with or without an observer
// and a disabled logger: zero allocations.
func TestNominatorEvaluateReportAllocs(t *testing.T) {
	jobs := []eligibility.Job{
		elRunning("a", elT0, elKeyExp, "1h", elKeyDelay, "10m"),
		elRunning("b", elT0),
		elRunning("c", elT0, elKeyExp, "3h"),
		elRunning("d", elT0, elKeyExp, "1h", elKeyNB, elRFC(elMin(150))),
	}
	var n expectedruntime.Nominator
	var counter counter
	withCounter := expectedruntime.Nominator{Observer: &counter, Logger: slog.New(&elLogHandler{min: slog.LevelError})}
	for _, j := range jobs { // the counter's first event of each label allocates
		o := withCounter.Evaluate(&j, elMin(120))
		withCounter.Report(&o)
	}
	for name, nom := range map[string]*expectedruntime.Nominator{"plain": &n, "counter+disabled logger": &withCounter} {
		if a := testing.AllocsPerRun(50, func() {
			for i := range jobs {
				o := nom.Evaluate(&jobs[i], elMin(120))
				nom.Report(&o)
			}
		}); a != 0 {
			t.Errorf("%s: Evaluate+Report allocates %v per cycle", name, a)
		}
	}
}

// elLogHandler records (level, message) pairs.
type elLogHandler struct {
	mu    sync.Mutex
	min   slog.Level
	lines []string
}

func (h *elLogHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.min }
func (h *elLogHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lines = append(h.lines, r.Level.String()+" "+r.Message)
	return nil
}
func (h *elLogHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *elLogHandler) WithGroup(string) slog.Handler      { return h }

func TestNominatorLogging(t *testing.T) {
	jobs := []eligibility.Job{
		elRunning("training-job/default", elT0, elKeyExp, "1h"),
		elRunning("cool/default", elT0, elKeyExp, "1h", elKeyNB, elRFC(elMin(150))),
		elRunning("bad/default", elT0, elKeyExp, "x"),
		elRunning("quiet/default", elT0),
		elRunning("skew/default", elMin(125), elKeyExp, "1h"),
		elRunning("badnb/default", elT0, elKeyExp, "1h", elKeyNB, "soon"),
	}
	h := &elLogHandler{min: slog.Level(-6)}
	(&expectedruntime.Nominator{Logger: slog.New(h)}).Nominate(jobs, elMin(120))
	want := []string{
		"DEBUG-1 Requeue candidate nominated: job=training-job/default, plugin=expectedruntime",
		"DEBUG-1 Requeue nomination skipped: job=cool/default, reason=cooldown",
		`DEBUG Requeue nomination skipped: job=bad/default, reason=invalid_duration, error=eligibility: annotation "kai.scheduler/expected-runtime": invalid value "x": runtime: `,
		"DEBUG-2 Requeue nomination not considered: job=quiet/default, reason=not_configured",
		"DEBUG Requeue nomination skipped: job=skew/default, reason=clock_skew",
		`DEBUG Requeue nomination skipped: job=badnb/default, reason=invalid_not_before, error=eligibility: annotation "kai.scheduler/requeue-not-before": invalid value "soon": not an RFC3339 timestamp`,
	}
	if len(h.lines) != len(want) {
		t.Fatalf("lines:\n%q", h.lines)
	}
	for i := range want {
		if !strings.HasPrefix(h.lines[i], want[i]) {
			t.Errorf("line %d = %q, want prefix %q", i, h.lines[i], want[i])
		}
	}
	// At slog.LevelDebug only the V(4) warnings appear: bad data and
	// clock skew.
	h2 := &elLogHandler{min: slog.LevelDebug}
	(&expectedruntime.Nominator{Logger: slog.New(h2)}).Nominate(jobs, elMin(120))
	if len(h2.lines) != 3 || !strings.Contains(h2.lines[0], "invalid_duration") || !strings.Contains(h2.lines[1], "clock_skew") || !strings.Contains(h2.lines[2], "invalid_not_before") {
		t.Errorf("at Debug: %q", h2.lines)
	}
}

// TestAnnotationErrors: a bad value's error names the key and the value,
// in the skip (expected-runtime, not-before) or in the nomination
// (requeue-delay).
func TestAnnotationErrors(t *testing.T) {
	var n expectedruntime.Nominator
	bad := func(k, v string) eligibility.Job { return elRunning("j", elT0, elKeyExp, "1h", k, v) }
	j := bad(elKeyExp, "0s")
	exp := n.Evaluate(&j, elMin(90)).Skip.Err
	j = bad(elKeyNB, "2025-01-15")
	nb := n.Evaluate(&j, elMin(90)).Skip.Err
	j = bad(elKeyDelay, "1h2")
	delay := n.Evaluate(&j, elMin(90)).Nomination.RequeueDelayErr
	wantErrs := []string{
		`eligibility: annotation "kai.scheduler/expected-runtime": invalid value "0s": must be positive`,
		`eligibility: annotation "kai.scheduler/requeue-delay": invalid value "1h2": runtime: `,
		`eligibility: annotation "kai.scheduler/requeue-not-before": invalid value "2025-01-15": not an RFC3339 timestamp`,
	}
	for i, err := range []error{exp, delay, nb} {
		if err == nil || !strings.HasPrefix(err.Error(), wantErrs[i]) {
			t.Errorf("error %v, want prefix %q", err, wantErrs[i])
			continue
		}
	}
	if errors.Unwrap(delay) == nil {
		t.Error("a grammar error is wrapped")
	}
}
