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
// Kueue's, a delay that is not whole seconds; see newRequeuingBlock),
// Backoff.ClampToMax (the file is read as current Kueue reads it),
// PreemptionConfig.TimestampPreemptionBuffer (a scheduler-wide Kueue
// feature gate, since removed, not a field of Kueue's preemption block),
// and an Engine.MaxLostWork JSON has no number for (NaN, ±Inf), one
// [*ConfigError] each.
func MarshalConfig(c Config) ([]byte, error) {
	var errs []error
	f := configFile{Queues: c.Queues, MinRuntimeArgs: c.MinRuntimeArgs, NominatorName: c.NominatorName,
		AllowProtectedRequeue: c.AllowProtectedRequeue, FailOpenUnknownQueues: c.FailOpenUnknownQueues, Engine: newEngineFile(c.Engine)}
	if k := c.AnnotationKeys; k != (expectedruntime.Keys{}) || c.PreemptorDelay.Key != "" {
		f.AnnotationKeys = &annotationKeysFile{k.ExpectedRuntime, k.RequeueDelay, k.RequeueNotBefore, k.LastCheckpoint, c.PreemptorDelay.Key}
	}
	if c.Requeuing.Backoff.ClampToMax {
		errs = append(errs, &ConfigError{"requeuingStrategy.clampToMax", errors.New("Requeuing.Backoff.ClampToMax (older Kueue releases' reading) cannot be written: the file is read as current Kueue reads it")})
	}
	var requeuing *requeuingBlock
	if c.Requeuing.Timestamp != nil || c.Requeuing.Backoff != (backoff.Config{}) {
		var rerrs []error
		requeuing, rerrs = newRequeuingBlock(c.Requeuing)
		errs = append(errs, rerrs...)
	}
	if c.Preemption.TimestampPreemptionBuffer {
		errs = append(errs, &ConfigError{"preemption.timestampPreemptionBuffer", errors.New("Preemption.TimestampPreemptionBuffer cannot be written: it is not a field of Kueue's preemption block")})
	}
	w := writtenFile{configFile: f, RequeuingStrategy: requeuing}
	if p := c.Preemption; p.Policy != timebased.Never || p.MinAdmitDuration != nil {
		w.Preemption = &preemptionBlock{WithinClusterQueue: policyName(p.Policy)}
		if m := p.MinAdmitDuration; m != nil {
			w.Preemption.WithinClusterQueueConfig = minAdmit(m)
		}
	}
	if p := c.Protection; p.FairSharing != nil || p.ReclaimWithinCohort != nil {
		w.PreemptionProtection = &protectionBlock{FairSharing: minAdmit(p.FairSharing), ReclaimWithinCohort: minAdmit(p.ReclaimWithinCohort)}
	}
	if c.PreemptorDelay.Delay != 0 {
		w.PreemptorDelay = durationPtr(c.PreemptorDelay.Delay)
	}
	if b := c.EvictionBudget; b != (evictionbudget.Budget{}) {
		w.EvictionBudget = &evictionBudgetFile{b.Max, fileDuration(b.Window), b.Key}
	}
	if r := c.Reservation; r.Max != 0 || r.After != 0 || r.MinUnits != 0 || r.HasMinPriority || r.MaxReplans != 0 {
		w.Reservation = &reservationFile{Max: r.Max, MinUnits: r.MinUnits, MaxReplans: r.MaxReplans}
		if r.After != 0 {
			w.Reservation.After = durationPtr(r.After)
		}
		if r.HasMinPriority {
			w.Reservation.MinPriority = &r.MinPriority
		}
	}
	if lw := c.Engine.MaxLostWork; math.IsNaN(lw) || math.IsInf(lw, 0) {
		errs = append(errs, &ConfigError{"engine.maxLostWork", fmt.Errorf("Engine.MaxLostWork %v cannot be written: JSON has no such number", lw)})
	}
	errs = append(errs, c.negativeDurations()...)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return json.Marshal(w)
}

// writtenFile is configFile as the tests write it: Kueue's
// requeuingStrategy, preemption and preemptionProtection blocks, which the library reads but never writes,
// are written here (the outer fields hide configFile's of the same key).
type writtenFile struct {
	configFile
	RequeuingStrategy    *requeuingBlock  `json:"requeuingStrategy,omitempty"`
	Preemption           *preemptionBlock `json:"preemption,omitempty"`
	PreemptionProtection *protectionBlock `json:"preemptionProtection,omitempty"`
}

// preemptionBlock is Kueue's ClusterQueue preemption block, within-queue
// part (KEP-8522).
type preemptionBlock struct {
	WithinClusterQueue       string         `json:"withinClusterQueue,omitempty"`
	WithinClusterQueueConfig *minAdmitBlock `json:"withinClusterQueueConfig,omitempty"`
}

// protectionBlock is Kueue's preemptionProtection block (KEP-9876).
type protectionBlock struct {
	FairSharing         *minAdmitBlock `json:"fairSharing,omitempty"`
	ReclaimWithinCohort *minAdmitBlock `json:"reclaimWithinCohort,omitempty"`
}

// minAdmitBlock holds a minAdmitDuration in Go's form, which Kueue's
// metav1.Duration reads.
type minAdmitBlock struct {
	MinAdmitDuration string `json:"minAdmitDuration"`
}

// minAdmit returns d's block, nil for nil.
func minAdmit(d *time.Duration) *minAdmitBlock {
	if d == nil {
		return nil
	}
	return &minAdmitBlock{d.String()}
}

// policyName is Kueue's spelling of p, "PreemptionPolicy(N)" for a value
// it lacks (which the reader then refuses).
func policyName(p timebased.Policy) string {
	switch p {
	case timebased.Never:
		return "Never"
	case timebased.LowerPriority:
		return "LowerPriority"
	case timebased.LowerOrNewerEqualPriority:
		return "LowerOrNewerEqualPriority"
	}
	return fmt.Sprintf("PreemptionPolicy(%d)", uint8(p))
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
	check("reservation.after", &c.Reservation.After)
	return errs
}

// requeuingBlock is Kueue's waitForPodsReady.requeuingStrategy.
type requeuingBlock struct {
	Timestamp          *string `json:"timestamp,omitempty"`
	BackoffLimitCount  *int32  `json:"backoffLimitCount,omitempty"`
	BackoffBaseSeconds *int32  `json:"backoffBaseSeconds,omitempty"`
	BackoffMaxSeconds  *int32  `json:"backoffMaxSeconds,omitempty"`
}

// newRequeuingBlock writes s in Kueue's shape, the inverse of
// backoff.Strategy.UnmarshalJSON: unset fields left out, NoDelay and
// Uncapped an explicit 0. It reports, one *ConfigError each, every problem
// of s.Validate and what Kueue's fields cannot hold: a Base or Max not a
// whole number of seconds up to 2^31−1, a Limit above 2^31−1, a jitter
// other than Kueue's fixed 0.0001.
func newRequeuingBlock(s backoff.Strategy) (*requeuingBlock, []error) {
	errs := configErrors("requeuingStrategy", s.Validate())
	var k requeuingBlock
	if t := s.Timestamp; t != nil {
		switch *t {
		case backoff.TimestampEviction:
			k.Timestamp = ptr("Eviction")
		case backoff.TimestampCreation:
			k.Timestamp = ptr("Creation")
		}
	}
	c := s.Backoff
	seconds := func(key string, d time.Duration) *int32 {
		if d < 0 { // reported by Validate
			return nil
		}
		if d%time.Second != 0 || d/time.Second > math.MaxInt32 {
			errs = append(errs, &ConfigError{"requeuingStrategy." + key, fmt.Errorf("%v cannot be written (want whole seconds up to %d)", d, math.MaxInt32)})
			return nil
		}
		return ptr(int32(d / time.Second))
	}
	switch {
	case c.NoDelay:
		k.BackoffBaseSeconds = ptr[int32](0)
	case c.Base != 0:
		k.BackoffBaseSeconds = seconds("backoffBaseSeconds", c.Base)
	}
	switch {
	case c.Uncapped:
		k.BackoffMaxSeconds = ptr[int32](0)
	case c.Max != 0:
		k.BackoffMaxSeconds = seconds("backoffMaxSeconds", c.Max)
	}
	if l := c.Limit; l != nil && *l > math.MaxInt32 {
		errs = append(errs, &ConfigError{"requeuingStrategy.backoffLimitCount", fmt.Errorf("%d cannot be written (want at most %d)", *l, math.MaxInt32)})
	} else if l != nil && *l >= 0 {
		k.BackoffLimitCount = ptr(int32(*l))
	}
	if c.NoJitter || (c.Jitter != 0 && c.Jitter != 0.0001) {
		errs = append(errs, &ConfigError{"requeuingStrategy.jitter", fmt.Errorf("Kueue's jitter is fixed at 0.0001; jitter %v (NoJitter %v) cannot be written", c.Jitter, c.NoJitter)})
	}
	return &k, errs
}

func ptr[T any](v T) *T { return &v }
