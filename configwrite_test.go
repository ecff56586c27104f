package tenure

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/backoff"
	"github.com/tenurepolicy/tenure/runtime"
)

// The writer of Config's file form, for the tests' round trips: a file
// is written by hand or by a tool; the library only reads it.

// newEngineFile returns e's file form, nil when every file-borne field of
// e is zero.
func newEngineFile(e requeue.EngineConfig) *engineFile {
	f := engineFile{Name: e.Name, MaxVictims: e.MaxVictims, MaxAttempts: e.MaxAttempts,
		MaxFillFailures: e.MaxFillFailures, MaxChecks: e.MaxChecks, MaxLostWork: e.MaxLostWork}
	if e.DefaultDelay != 0 {
		f.DefaultDelay = durationPtr(e.DefaultDelay)
	}
	if f == (engineFile{}) {
		return nil
	}
	return &f
}

// MarshalText writes runtime.FormatDuration's form; a negative duration,
// which the grammar cannot read back, is an error.
func (d fileDuration) MarshalText() ([]byte, error) {
	if d < 0 {
		return nil, fmt.Errorf("negative duration %s cannot be written", runtime.FormatDuration(time.Duration(d)))
	}
	return []byte(runtime.FormatDuration(time.Duration(d))), nil
}

func durationPtr(d time.Duration) *fileDuration {
	v := fileDuration(d)
	return &v
}

// MarshalConfig writes c's file form (see [Config.UnmarshalJSON]), the
// tests' writer of files: parts at
// their zero value are left out, callbacks are not written. It reports, all
// at once, what the file form cannot express: a negative duration, a
// requeuing strategy Kueue's fields cannot hold (a jitter other than
// Kueue's, a delay that is not whole seconds; see backoff.Strategy.MarshalJSON),
// Backoff.ClampToMax (the file is read as current Kueue reads it),
// PreemptionConfig.TimestampPreemptionBuffer (a scheduler-wide Kueue
// feature gate, since removed, not a field of Kueue's preemption block),
// and an Engine.MaxLostWork JSON has no number for (NaN, ±Inf), one
// [*ConfigError] each.
func MarshalConfig(c Config) ([]byte, error) {
	var errs []error
	f := configFile{Queues: c.Queues, MinRuntimeArgs: c.MinRuntimeArgs, NominatorName: c.NominatorName,
		AllowProtectedRequeue: c.AllowProtectedRequeue, FailOpenUnknownQueues: c.FailOpenUnknownQueues, Engine: newEngineFile(c.Engine)}
	if k := c.AnnotationKeys; k != (expectedruntime.Keys{}) {
		f.AnnotationKeys = &annotationKeysFile{k.ExpectedRuntime, k.RequeueDelay, k.RequeueNotBefore, k.LastCheckpoint}
	}
	if c.Requeuing.Backoff.ClampToMax {
		errs = append(errs, &ConfigError{"requeuingStrategy.clampToMax", errors.New("Requeuing.Backoff.ClampToMax (older Kueue releases' reading) cannot be written: the file is read as current Kueue reads it")})
	}
	if c.Requeuing.Timestamp != nil || c.Requeuing.Backoff != (backoff.Config{}) {
		_, err := c.Requeuing.MarshalJSON()
		errs = append(errs, configErrors("requeuingStrategy", err)...)
		k := c.Requeuing
		f.RequeuingStrategy = &k
	}
	if c.Preemption.TimestampPreemptionBuffer {
		errs = append(errs, &ConfigError{"preemption.timestampPreemptionBuffer", errors.New("Preemption.TimestampPreemptionBuffer cannot be written: it is not a field of Kueue's preemption block")})
	}
	if c.Preemption.Policy != timebased.Never || c.Preemption.MinAdmitDuration != nil {
		k := c.Preemption
		f.Preemption = &k
	}
	if c.Protection.FairSharing != nil || c.Protection.ReclaimWithinCohort != nil {
		k := c.Protection
		f.PreemptionProtection = &k
	}
	if c.PreemptorDelay.Delay != 0 {
		f.PreemptorDelay = durationPtr(c.PreemptorDelay.Delay)
	}
	if b := c.EvictionBudget; b != (evictionbudget.Budget{}) {
		f.EvictionBudget = &evictionBudgetFile{b.Max, fileDuration(b.Window), b.Key}
	}
	if w := c.Engine.MaxLostWork; math.IsNaN(w) || math.IsInf(w, 0) {
		errs = append(errs, &ConfigError{"engine.maxLostWork", fmt.Errorf("Engine.MaxLostWork %v cannot be written: JSON has no such number", w)})
	}
	errs = append(errs, c.negativeDurations()...)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return json.Marshal(f)
}

// negativeDurations reports each negative duration of c that the file
// form would hold, by its key: tenure's grammar has none, so such a file
// could not be read back.
func (c *Config) negativeDurations() []error {
	var errs []error
	check := func(key string, d *time.Duration) {
		if d != nil && *d < 0 {
			errs = append(errs, &ConfigError{key, fmt.Errorf("negative duration %s cannot be written (tenure's grammar has no negative durations)", *d)})
		}
	}
	check("engine.defaultDelay", &c.Engine.DefaultDelay)
	check("preemption.withinClusterQueueConfig.minAdmitDuration", c.Preemption.MinAdmitDuration)
	check("preemptionProtection.fairSharing.minAdmitDuration", c.Protection.FairSharing)
	check("preemptionProtection.reclaimWithinCohort.minAdmitDuration", c.Protection.ReclaimWithinCohort)
	check("preemptorDelay", &c.PreemptorDelay.Delay)
	check("evictionBudget.window", &c.EvictionBudget.Window)
	return errs
}
