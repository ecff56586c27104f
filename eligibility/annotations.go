package eligibility

import (
	"errors"
	"strconv"
	"time"

	"github.com/tenurepolicy/tenure/runtime"
)

// The annotation keys of KAI-Scheduler's expectedruntime plugin (PR #941),
// and tenure's last-checkpoint key in the same style.
const (
	// AnnotationExpectedRuntime holds the job's expected runtime, a duration
	// in [runtime.ParseDuration]'s grammar ("2h", "1d", "1h30m"). Its
	// presence opts the job in to nomination.
	AnnotationExpectedRuntime = "kai.scheduler/expected-runtime"
	// AnnotationRequeueDelay holds the optional cooldown after a committed
	// requeue, a duration (zero allowed). Absent: the requeue engine's
	// default applies.
	AnnotationRequeueDelay = "kai.scheduler/requeue-delay"
	// AnnotationRequeueNotBefore holds the system-managed not-before gate, an
	// RFC3339 (or RFC3339Nano) timestamp written after a committed requeue.
	AnnotationRequeueNotBefore = "kai.scheduler/requeue-not-before"
	// AnnotationLastCheckpoint holds the optional instant of the job's last
	// checkpoint, an RFC3339 (or RFC3339Nano) timestamp written by the job
	// or its operator. The requeue engine counts the work an eviction
	// throws away from it rather than from the job's start. tenure's key,
	// after the volcano.sh/last-checkpoint-time annotation of Volcano's
	// checkpoint-aware victim ordering proposal (volcano-sh/volcano PR
	// #5999); KAI-Scheduler has no such annotation.
	AnnotationLastCheckpoint = "kai.scheduler/last-checkpoint-time"
)

// AnnotationKeys names the annotations the [Nominator] reads. The zero value
// means KAI's keys; any empty field falls back to its default, so a fork
// overrides only what it renames. [KeysWithPrefix] builds a full set for
// another prefix.
type AnnotationKeys struct {
	ExpectedRuntime  string // default AnnotationExpectedRuntime
	RequeueDelay     string // default AnnotationRequeueDelay
	RequeueNotBefore string // default AnnotationRequeueNotBefore
	LastCheckpoint   string // default AnnotationLastCheckpoint
}

// DefaultAnnotationKeys returns KAI's keys.
func DefaultAnnotationKeys() AnnotationKeys {
	return AnnotationKeys{
		ExpectedRuntime:  AnnotationExpectedRuntime,
		RequeueDelay:     AnnotationRequeueDelay,
		RequeueNotBefore: AnnotationRequeueNotBefore,
		LastCheckpoint:   AnnotationLastCheckpoint,
	}
}

// KeysWithPrefix returns KAI's key names under another prefix, for
// example KeysWithPrefix("example.com/") gives "example.com/expected-runtime",
// "example.com/requeue-delay", "example.com/requeue-not-before" and
// "example.com/last-checkpoint-time".
func KeysWithPrefix(prefix string) AnnotationKeys {
	return AnnotationKeys{
		ExpectedRuntime:  prefix + "expected-runtime",
		RequeueDelay:     prefix + "requeue-delay",
		RequeueNotBefore: prefix + "requeue-not-before",
		LastCheckpoint:   prefix + "last-checkpoint-time",
	}
}

// withDefaults returns k with every empty field set to its default.
func (k AnnotationKeys) withDefaults() AnnotationKeys {
	if k.ExpectedRuntime == "" {
		k.ExpectedRuntime = AnnotationExpectedRuntime
	}
	if k.RequeueDelay == "" {
		k.RequeueDelay = AnnotationRequeueDelay
	}
	if k.RequeueNotBefore == "" {
		k.RequeueNotBefore = AnnotationRequeueNotBefore
	}
	if k.LastCheckpoint == "" {
		k.LastCheckpoint = AnnotationLastCheckpoint
	}
	return k
}

// Validate reports an error for each pair of keys (after defaults) that
// are equal, which would make one annotation mean two things.
func (k AnnotationKeys) Validate() error {
	set := k
	k = k.withDefaults()
	keys := [...]struct {
		field, name, key string
		set              bool
	}{
		{"expectedRuntime", "expected-runtime", k.ExpectedRuntime, set.ExpectedRuntime != ""},
		{"requeueDelay", "requeue-delay", k.RequeueDelay, set.RequeueDelay != ""},
		{"requeueNotBefore", "requeue-not-before", k.RequeueNotBefore, set.RequeueNotBefore != ""},
		{"lastCheckpoint", "last-checkpoint-time", k.LastCheckpoint, set.LastCheckpoint != ""},
	}
	var errs []error
	for i, a := range keys {
		for _, b := range keys[i+1:] {
			if a.key == b.key {
				field := b.field // the later field, unless only the earlier one was set
				if a.set && !b.set {
					field = a.field
				}
				errs = append(errs, keyErrorf(field, "eligibility: annotation keys: %s and %s are both %q", a.name, b.name, a.key))
			}
		}
	}
	return errors.Join(errs...)
}

// RequeueAnnotations is the parsed content of a job's requeue annotations,
// as returned by [AnnotationKeys.Parse]. For each annotation: Has... reports
// presence, ...Err holds the parse error when present but invalid (the
// value is then zero).
type RequeueAnnotations struct {
	Expected    time.Duration
	HasExpected bool
	ExpectedErr error // unparsable, or not positive

	Delay    time.Duration
	HasDelay bool
	DelayErr error // unparsable (zero is valid)

	NotBefore    time.Time
	HasNotBefore bool
	NotBeforeErr error // not RFC3339/RFC3339Nano

	// LastCheckpoint is the value as written, in UTC, even when it lies
	// after the instant of a decision (the nominator then ignores it).
	LastCheckpoint    time.Time
	HasLastCheckpoint bool
	LastCheckpointErr error // not RFC3339/RFC3339Nano
}

// Parse reads the four annotations of k from annotations (nil is fine). It
// never panics; invalid values are reported in the ...Err fields. The
// nominator parses lazily in its check order; Parse is for tools and tests.
func (k AnnotationKeys) Parse(annotations map[string]string) RequeueAnnotations {
	k = k.withDefaults()
	var a RequeueAnnotations
	a.Expected, a.HasExpected, a.ExpectedErr = parseAt(annotations, k.ExpectedRuntime, parseExpected)
	a.Delay, a.HasDelay, a.DelayErr = parseAt(annotations, k.RequeueDelay, parseDelay)
	a.NotBefore, a.HasNotBefore, a.NotBeforeErr = parseAt(annotations, k.RequeueNotBefore, parseTimestamp)
	a.LastCheckpoint, a.HasLastCheckpoint, a.LastCheckpointErr = parseAt(annotations, k.LastCheckpoint, parseTimestamp)
	return a
}

// parseAt parses the annotation under key with parse, if present.
func parseAt[T any](annotations map[string]string, key string, parse func(key, s string) (T, error)) (v T, has bool, err error) {
	s, has := annotations[key]
	if !has {
		return v, false, nil
	}
	v, err = parse(key, s)
	return v, true, err
}

// AnnotationError describes an annotation whose value could not be used.
// The nominator puts it in [NominatorSkip.Err] (invalid_duration,
// invalid_not_before, invalid_last_checkpoint) and [Nomination.RequeueDelayErr]; use errors.As to get
// the key and the raw value. Its message is formatted only when Error is
// called.
type AnnotationError struct {
	Key   string // the annotation key
	Value string // the raw value
	// Err is the parser's error, nil when the value parsed but is out of
	// range (an expected-runtime <= 0).
	Err error
}

// Error implements error, for example `eligibility: annotation
// "kai.scheduler/expected-runtime": invalid value "0s": must be positive`.
func (e *AnnotationError) Error() string {
	msg := "eligibility: annotation " + strconv.Quote(e.Key) + ": invalid value " + strconv.Quote(e.Value) + ": "
	if e.Err == nil {
		return msg + "must be positive"
	}
	return msg + e.Err.Error()
}

// Unwrap returns the parser's error.
func (e *AnnotationError) Unwrap() error { return e.Err }

// parseExpected parses an expected runtime: a positive duration.
func parseExpected(key, s string) (time.Duration, error) {
	d, err := runtime.ParseDuration(s)
	if err != nil {
		return 0, &AnnotationError{Key: key, Value: s, Err: err}
	}
	if d <= 0 {
		return 0, &AnnotationError{Key: key, Value: s}
	}
	return d, nil
}

// parseDelay parses a requeue delay: a duration, zero allowed (the grammar
// already rejects negatives).
func parseDelay(key, s string) (time.Duration, error) {
	d, err := runtime.ParseDuration(s)
	if err != nil {
		return 0, &AnnotationError{Key: key, Value: s, Err: err}
	}
	return d, nil
}
