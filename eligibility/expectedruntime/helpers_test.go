package expectedruntime_test

import (
	"errors"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/internal/eltest"
	"github.com/tenurepolicy/tenure/runtime"
)

// The shared fixtures (package eltest), under this package's test names.
var (
	elT0    = eltest.T0
	elMin   = eltest.Min
	elSetup = eltest.Setup
	elID    = eltest.ID
)

type elQueue = eltest.Queue

// elClock formats an instant as a time of day, "-" for the zero time.
func elClock(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Format(time.TimeOnly)
}

// erSilent reports whether r is a silent outcome's reason: the job did not
// opt in, or has not yet run its expected runtime.
func erSilent(r eligibility.Reason) bool {
	return r == expectedruntime.ReasonNotConfigured || r == expectedruntime.ReasonNotExceeded
}

// erAnnotations is the four annotations of a job under KAI's keys, parsed
// naively: the oracle the nominator's lazy parsing is checked against.
type erAnnotations struct {
	Expected    time.Duration
	HasExpected bool
	ExpectedErr error

	Delay    time.Duration
	HasDelay bool
	DelayErr error

	NotBefore    time.Time
	HasNotBefore bool
	NotBeforeErr error

	LastCheckpoint    time.Time
	HasLastCheckpoint bool
	LastCheckpointErr error
}

// erParse parses ann's four annotations under KAI's keys: durations in
// runtime's grammar (the expected runtime positive), timestamps RFC3339 in
// UTC; a bad value leaves the value zero and sets the error.
func erParse(ann map[string]string) erAnnotations {
	var a erAnnotations
	var s string
	if s, a.HasExpected = ann[expectedruntime.AnnotationExpectedRuntime]; a.HasExpected {
		a.Expected, a.ExpectedErr = runtime.ParseDuration(s)
		if a.ExpectedErr == nil && a.Expected <= 0 {
			a.Expected, a.ExpectedErr = 0, errors.New("not positive")
		}
	}
	if s, a.HasDelay = ann[expectedruntime.AnnotationRequeueDelay]; a.HasDelay {
		a.Delay, a.DelayErr = runtime.ParseDuration(s)
	}
	ts := func(key string) (time.Time, bool, error) {
		s, ok := ann[key]
		if !ok {
			return time.Time{}, false, nil
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return time.Time{}, true, err
		}
		return t.UTC(), true, nil
	}
	a.NotBefore, a.HasNotBefore, a.NotBeforeErr = ts(eligibility.AnnotationRequeueNotBefore)
	a.LastCheckpoint, a.HasLastCheckpoint, a.LastCheckpointErr = ts(expectedruntime.AnnotationLastCheckpoint)
	return a
}

// erKeysWithPrefix returns KAI's key names under another prefix.
func erKeysWithPrefix(prefix string) expectedruntime.Keys {
	return expectedruntime.Keys{
		ExpectedRuntime:  prefix + "expected-runtime",
		RequeueDelay:     prefix + "requeue-delay",
		RequeueNotBefore: prefix + "requeue-not-before",
		LastCheckpoint:   prefix + "last-checkpoint-time",
	}
}

// validLabel reports whether r is a well-formed reason label, as the
// Reason type documents it: 1 to 64 characters, each a lower-case ASCII
// letter, a digit or '_', starting with a letter.
func validLabel(r eligibility.Reason) bool {
	if len(r) == 0 || len(r) > 64 || r[0] < 'a' || r[0] > 'z' {
		return false
	}
	for i := 1; i < len(r); i++ {
		if c := r[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// explicit returns a pointer to d, for a QueueSetting or a MinAdmitDuration.
