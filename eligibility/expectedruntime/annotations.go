package expectedruntime

import (
	"errors"
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/internal/configkey"
	"github.com/tenurepolicy/tenure/runtime"
)

// The default annotation keys: KAI-Scheduler's, and tenure's
// last-checkpoint key in the same style.
const (
	// AnnotationExpectedRuntime holds the expected runtime, a duration;
	// its presence opts the job in.
	AnnotationExpectedRuntime = "kai.scheduler/expected-runtime"
	// AnnotationRequeueDelay holds the cooldown after a committed
	// requeue, a duration (zero allowed); absent: the engine's default.
	AnnotationRequeueDelay = "kai.scheduler/requeue-delay"
	// AnnotationLastCheckpoint holds the instant of the job's last
	// checkpoint, an RFC3339 timestamp.
	AnnotationLastCheckpoint = "kai.scheduler/last-checkpoint-time"
)

// Keys names the annotations the [Nominator] reads; an empty field means
// KAI's key, so a fork sets only what it renames.
type Keys struct {
	ExpectedRuntime  string // default AnnotationExpectedRuntime
	RequeueDelay     string // default AnnotationRequeueDelay
	RequeueNotBefore string // default AnnotationRequeueNotBefore
	LastCheckpoint   string // default AnnotationLastCheckpoint
}

// withDefaults returns k with every empty field set to its default.
func (k Keys) withDefaults() Keys {
	if k.ExpectedRuntime == "" {
		k.ExpectedRuntime = AnnotationExpectedRuntime
	}
	if k.RequeueDelay == "" {
		k.RequeueDelay = AnnotationRequeueDelay
	}
	if k.RequeueNotBefore == "" {
		k.RequeueNotBefore = eligibility.AnnotationRequeueNotBefore
	}
	if k.LastCheckpoint == "" {
		k.LastCheckpoint = AnnotationLastCheckpoint
	}
	return k
}

// validate reports an error for each pair of keys (after defaults) that
// are equal, which would make one annotation mean two things.
func (k Keys) validate() error {
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
				errs = append(errs, configkey.Errorf(field, "eligibility: annotation keys: %s and %s are both %q", a.name, b.name, a.key))
			}
		}
	}
	return errors.Join(errs...)
}

// errNotRFC3339 replaces time.Parse's error, whose message quotes Go's
// layout string rather than saying what is expected.
var errNotRFC3339 = errors.New("not an RFC3339 timestamp such as 2025-01-15T10:30:00Z")

// errNotPositive is the error of an expected runtime <= 0.
var errNotPositive = errors.New("must be positive")

// annotationError is the error of an annotation value that cannot be used,
// naming the key and the value and wrapping the parser's error.
func annotationError(key, value string, err error) error {
	return fmt.Errorf("eligibility: annotation %q: invalid value %q: %w", key, value, err)
}

// parseExpected parses an expected runtime: a positive duration.
func parseExpected(key, s string) (time.Duration, error) {
	d, err := runtime.ParseDuration(s)
	if err != nil {
		return 0, annotationError(key, s, err)
	}
	if d <= 0 {
		return 0, annotationError(key, s, errNotPositive)
	}
	return d, nil
}

// parseDelay parses a requeue delay: a duration, zero allowed (the grammar
// already rejects negatives).
func parseDelay(key, s string) (time.Duration, error) {
	d, err := runtime.ParseDuration(s)
	if err != nil {
		return 0, annotationError(key, s, err)
	}
	return d, nil
}

// parseTimestamp parses the timestamp annotations (requeue-not-before and
// last-checkpoint-time): RFC3339 or RFC3339Nano, any offset, the result in
// UTC.
func parseTimestamp(key, s string) (time.Time, error) {
	// The RFC3339Nano layout also accepts a value without fractional seconds.
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, annotationError(key, s, errNotRFC3339)
	}
	return t.UTC(), nil
}
