package expectedruntime_test

import (
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/runtime"
)

const elKeyCP = expectedruntime.AnnotationLastCheckpoint

// TestNominatorLastCheckpoint pins how the nominator reads the
// last-checkpoint annotation: kept when at or before now (exactly now
// included), ignored when after now (still nominated), and an unparsable
// value is the skip invalid_last_checkpoint.
func TestNominatorLastCheckpoint(t *testing.T) {
	now := elMin(90) // a 1h job started at elT0 has overrun by 30m
	tests := []struct {
		name   string
		value  string // "" with absent: no annotation
		absent bool
		want   elOutcome
		wantCP time.Time
	}{
		{name: "absent", absent: true, want: elOutcome{Reason: eligibility.Reason("nominated"), Overrun: 30 * time.Minute}},
		{name: "in the past", value: elRFC(elMin(75)), want: elOutcome{Reason: eligibility.Reason("nominated"), Overrun: 30 * time.Minute}, wantCP: elMin(75)},
		{name: "exactly now is kept", value: elRFC(now), want: elOutcome{Reason: eligibility.Reason("nominated"), Overrun: 30 * time.Minute}, wantCP: now},
		{name: "one ns after now is ignored", value: now.Add(1).Format(time.RFC3339Nano), want: elOutcome{Reason: eligibility.Reason("nominated"), Overrun: 30 * time.Minute}},
		{name: "far future is ignored", value: "9999-12-31T23:59:59Z", want: elOutcome{Reason: eligibility.Reason("nominated"), Overrun: 30 * time.Minute}},
		{name: "before the start is kept", value: elRFC(elMin(-600)), want: elOutcome{Reason: eligibility.Reason("nominated"), Overrun: 30 * time.Minute}, wantCP: elMin(-600)},
		{name: "RFC3339Nano with an offset, in UTC", value: "2025-01-15T12:15:00.25+01:00", want: elOutcome{Reason: eligibility.Reason("nominated"), Overrun: 30 * time.Minute}, wantCP: elMin(75).Add(250 * time.Millisecond)},
		{name: "unparsable", value: "yesterday", want: elOutcome{Reason: expectedruntime.ReasonInvalidLastCheckpoint, HasErr: true}},
		{name: "empty", value: "", want: elOutcome{Reason: expectedruntime.ReasonInvalidLastCheckpoint, HasErr: true}},
		{name: "date only", value: "2025-01-15", want: elOutcome{Reason: expectedruntime.ReasonInvalidLastCheckpoint, HasErr: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j := elRunning("j", elT0, elKeyExp, "1h")
			if !tc.absent {
				j.Annotations[elKeyCP] = tc.value
			}
			o := (&expectedruntime.Nominator{}).Evaluate(&j, now)
			if diff := cmp.Diff(tc.want, elCore(o)); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
			if !o.Allowed {
				if o.Skip.Err == nil || !strings.Contains(o.Skip.Err.Error(), strconv.Quote(elKeyCP)+": invalid value "+strconv.Quote(tc.value)) {
					t.Fatalf("Err = %v, want the key %q and the value", o.Skip.Err, elKeyCP)
				}
				if !o.Skip.Until.IsZero() {
					t.Fatalf("Until = %v: only a rewrite of the annotation lifts the skip", o.Skip.Until)
				}
				return
			}
			got := o.Nomination.LastCheckpoint
			if !got.Equal(tc.wantCP) || (!got.IsZero() && got.Location() != time.UTC) {
				t.Fatalf("LastCheckpoint = %v, want %v in UTC", got, tc.wantCP)
			}
		})
	}
}

// TestNominatorLastCheckpointOrder: invalid_last_checkpoint is the last
// check, so every other reason wins over it, and a job that would
// otherwise be nominated gets it.
func TestNominatorLastCheckpointOrder(t *testing.T) {
	_, r := elSetup(t, runtime.MethodLCA, 90*time.Minute, 0)
	bad := func(start time.Time, kv ...string) eligibility.Job {
		return elRunning("j", start, append([]string{elKeyCP, "bad"}, kv...)...)
	}
	notRunning := bad(elT0, elKeyExp, "1h")
	notRunning.Running = false
	tests := []struct {
		name string
		job  eligibility.Job
		now  time.Time
		res  *runtime.Resolver
		want elOutcome
	}{
		{"not_running first", notRunning, elMin(120), nil, elOutcome{Reason: expectedruntime.ReasonNotRunning}},
		{"not configured", bad(elT0), elMin(120), nil, elOutcome{Reason: expectedruntime.ReasonNotConfigured}},
		{"invalid_duration", bad(elT0, elKeyExp, "x"), elMin(120), nil, elOutcome{Reason: expectedruntime.ReasonInvalidDuration, HasErr: true}},
		{"missing_start", bad(time.Time{}, elKeyExp, "1h"), elMin(120), nil, elOutcome{Reason: eligibility.ReasonMissingStart}},
		{"clock_skew", bad(elMin(130), elKeyExp, "1h"), elMin(120), nil, elOutcome{Reason: eligibility.ReasonClockSkew, Until: elMin(130)}},
		{"not exceeded", bad(elT0, elKeyExp, "1h"), elMin(59), nil, elOutcome{Reason: expectedruntime.ReasonNotExceeded, Until: elMin(60)}},
		{"invalid_not_before", bad(elT0, elKeyExp, "1h", elKeyNB, "x"), elMin(120), nil, elOutcome{Reason: expectedruntime.ReasonInvalidNotBefore, HasErr: true}},
		{"cooldown", bad(elT0, elKeyExp, "1h", elKeyNB, elRFC(elMin(130))), elMin(120), nil, elOutcome{Reason: eligibility.ReasonCooldown, Until: elMin(130)}},
		{"minruntime_protected", bad(elT0, elKeyExp, "1h"), elMin(80), r, elOutcome{Reason: eligibility.ReasonMinRuntimeProtected, Until: elMin(90)}},
		{"then invalid_last_checkpoint", bad(elT0, elKeyExp, "1h"), elMin(90), r, elOutcome{Reason: expectedruntime.ReasonInvalidLastCheckpoint, HasErr: true}},
		{"an invalid delay does not hide it", bad(elT0, elKeyExp, "1h", elKeyDelay, "x"), elMin(120), nil, elOutcome{Reason: expectedruntime.ReasonInvalidLastCheckpoint, HasErr: true}},
	}
	for _, tc := range tests {
		n := expectedruntime.Nominator{Resolver: tc.res}
		if diff := cmp.Diff(tc.want, elCore(n.Evaluate(&tc.job, tc.now))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestLastCheckpointKeys: the key follows KeysWithPrefix and a partial
// override, and collides with no other key unless configured to.
func TestLastCheckpointKeys(t *testing.T) {
	keys := erKeysWithPrefix("example.com/")
	if keys.LastCheckpoint != "example.com/last-checkpoint-time" || expectedruntime.AnnotationLastCheckpoint != elKeyCP {
		t.Fatalf("keys %+v, default %q", keys, expectedruntime.AnnotationLastCheckpoint)
	}
	j := elRunning("j", elT0, "example.com/expected-runtime", "1h", "example.com/last-checkpoint-time", elRFC(elMin(70)), elKeyCP, "bad")
	o := (&expectedruntime.Nominator{Keys: keys}).Evaluate(&j, elMin(90))
	if !o.Allowed || !o.Nomination.LastCheckpoint.Equal(elMin(70)) {
		t.Fatalf("custom keys: %+v", o)
	}
	// Only LastCheckpoint overridden: the other keys keep KAI's names.
	j = elRunning("j", elT0, elKeyExp, "1h", "x/cp", "bad")
	if o := (&expectedruntime.Nominator{Keys: expectedruntime.Keys{LastCheckpoint: "x/cp"}}).Evaluate(&j, elMin(90)); o.Reason != expectedruntime.ReasonInvalidLastCheckpoint {
		t.Fatalf("partial override: %v", o.Reason)
	}
	for _, other := range []expectedruntime.Keys{
		{LastCheckpoint: elKeyExp}, {LastCheckpoint: elKeyDelay}, {LastCheckpoint: elKeyNB},
		{ExpectedRuntime: elKeyCP}, {RequeueDelay: elKeyCP}, {RequeueNotBefore: elKeyCP},
	} {
		err := (&expectedruntime.Nominator{Keys: other}).Validate()
		if err == nil || !strings.Contains(err.Error(), "last-checkpoint-time") {
			t.Errorf("%+v: %v", other, err)
		}
	}
	all := expectedruntime.Keys{ExpectedRuntime: "x", RequeueDelay: "x", RequeueNotBefore: "x", LastCheckpoint: "x"}
	if err := (&expectedruntime.Nominator{Keys: all}).Validate(); err == nil || len(strings.Split(err.Error(), "\n")) != 6 {
		t.Errorf("four equal keys: want six joined errors, got %v", err)
	}
}

// TestParseLastCheckpoint: the oracle reads the value as written (a future
// one included, in UTC); the nominator's error of a bad one names it.
func TestParseLastCheckpoint(t *testing.T) {
	a := erParse(map[string]string{elKeyCP: "2999-01-01T01:00:00+01:00"})
	if !a.HasLastCheckpoint || a.LastCheckpointErr != nil || !a.LastCheckpoint.Equal(time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC)) || a.LastCheckpoint.Location() != time.UTC {
		t.Fatalf("%+v", a)
	}
	j := elRunning("j", elT0, elKeyExp, "1h", elKeyCP, "soon")
	bad := (&expectedruntime.Nominator{}).Evaluate(&j, elMin(90)).Skip.Err
	want := `eligibility: annotation "kai.scheduler/last-checkpoint-time": invalid value "soon": not an RFC3339 timestamp`
	if bad == nil || !strings.HasPrefix(bad.Error(), want) {
		t.Fatalf("%v", bad)
	}
	if none := erParse(map[string]string{elKeyExp: "1h"}); none.HasLastCheckpoint {
		t.Fatalf("absent: %+v", none)
	}
}

// TestLastCheckpointReporting: the skip reaches the Observer with its
// reason and is logged as a warning, like the other bad values.
func TestLastCheckpointReporting(t *testing.T) {
	var c counter
	h := &elLogHandler{min: slog.Level(-6)}
	n := expectedruntime.Nominator{Observer: &c, Logger: slog.New(h)}
	res := n.Nominate([]eligibility.Job{elRunning("j", elT0, elKeyExp, "1h", elKeyCP, "bad")}, elMin(90))
	if len(res.Skips) != 1 || c.Count("expectedruntime", expectedruntime.ReasonInvalidLastCheckpoint) != 1 {
		t.Fatalf("skips %+v", res.Skips)
	}
	if len(h.lines) != 1 || !strings.HasPrefix(h.lines[0], "DEBUG Requeue nomination skipped: job=j, reason=invalid_last_checkpoint, error=") {
		t.Fatalf("log %q", h.lines)
	}
}
