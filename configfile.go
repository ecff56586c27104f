package tenure

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/backoff"
	"github.com/tenurepolicy/tenure/runtime"
)

// configFile is the file form of a Config: the JSON object Config's
// MarshalJSON writes and UnmarshalJSON reads.
type configFile struct {
	Queues                []Queue                                 `json:"queues,omitempty"`
	MinRuntimeArgs        map[string]string                       `json:"minRuntimeArgs,omitempty"`
	AnnotationKeys        *annotationKeysFile                     `json:"annotationKeys,omitempty"`
	NominatorName         string                                  `json:"nominatorName,omitempty"`
	Engine                *engineFile                             `json:"engine,omitempty"`
	AllowProtectedRequeue bool                                    `json:"allowProtectedRequeue,omitempty"`
	FailOpenUnknownQueues bool                                    `json:"failOpenUnknownQueues,omitempty"`
	RequeuingStrategy     *backoff.KueueStrategy                  `json:"requeuingStrategy,omitempty"`
	Preemption            *timebased.KueueWithinClusterQueue      `json:"preemption,omitempty"`
	PreemptionProtection  *admitprotect.KueuePreemptionProtection `json:"preemptionProtection,omitempty"`
	PreemptorDelay        *fileDuration                           `json:"preemptorDelay,omitempty"`
	EvictionBudget        *evictionBudgetFile                     `json:"evictionBudget,omitempty"`
}

type annotationKeysFile struct {
	ExpectedRuntime  string `json:"expectedRuntime,omitempty"`
	RequeueDelay     string `json:"requeueDelay,omitempty"`
	RequeueNotBefore string `json:"requeueNotBefore,omitempty"`
	LastCheckpoint   string `json:"lastCheckpoint,omitempty"`
}

// engineFile is the file form of requeue.EngineConfig: every field that
// is not a callback, under its Go name in lower camel case.
type engineFile struct {
	Name                 string        `json:"name,omitempty"`
	DefaultDelay         *fileDuration `json:"defaultDelay,omitempty"`
	MaxVictims           int           `json:"maxVictims,omitempty"`
	MaxAttempts          int           `json:"maxAttempts,omitempty"`
	MaxAttemptsPerVictim int           `json:"maxAttemptsPerVictim,omitempty"`
	MaxChecks            int           `json:"maxChecks,omitempty"`
	MaxChecksPerVictim   int           `json:"maxChecksPerVictim,omitempty"`
	MaxSetGroups         int           `json:"maxSetGroups,omitempty"`
	MaxSetSize           int           `json:"maxSetSize,omitempty"`
	SetCandidates        int           `json:"setCandidates,omitempty"`
}

// newEngineFile returns e's file form, nil when every file-borne field of
// e is zero.
func newEngineFile(e requeue.EngineConfig) *engineFile {
	f := engineFile{Name: e.Name, MaxVictims: e.MaxVictims, MaxAttempts: e.MaxAttempts,
		MaxAttemptsPerVictim: e.MaxAttemptsPerVictim, MaxChecks: e.MaxChecks, MaxChecksPerVictim: e.MaxChecksPerVictim,
		MaxSetGroups: e.MaxSetGroups, MaxSetSize: e.MaxSetSize, SetCandidates: e.SetCandidates}
	if e.DefaultDelay != 0 {
		f.DefaultDelay = durationPtr(e.DefaultDelay)
	}
	if f == (engineFile{}) {
		return nil
	}
	return &f
}

// config returns the engine settings f holds, without callbacks.
func (f *engineFile) config() requeue.EngineConfig {
	e := requeue.EngineConfig{Name: f.Name, MaxVictims: f.MaxVictims, MaxAttempts: f.MaxAttempts,
		MaxAttemptsPerVictim: f.MaxAttemptsPerVictim, MaxChecks: f.MaxChecks, MaxChecksPerVictim: f.MaxChecksPerVictim,
		MaxSetGroups: f.MaxSetGroups, MaxSetSize: f.MaxSetSize, SetCandidates: f.SetCandidates}
	if f.DefaultDelay != nil {
		e.DefaultDelay = time.Duration(*f.DefaultDelay)
	}
	return e
}

type evictionBudgetFile struct {
	MaxEvictions  int          `json:"maxEvictions"`
	Window        fileDuration `json:"window"`
	AnnotationKey string       `json:"annotationKey,omitempty"`
}

// fileDuration is a duration in runtime.ParseDuration's grammar.
type fileDuration time.Duration

// MarshalText writes runtime.FormatDuration's form; a negative duration,
// which the grammar cannot read back, is an error.
func (d fileDuration) MarshalText() ([]byte, error) {
	if d < 0 {
		return nil, fmt.Errorf("negative duration %s cannot be written", runtime.FormatDuration(time.Duration(d)))
	}
	return []byte(runtime.FormatDuration(time.Duration(d))), nil
}

// UnmarshalText reads runtime.ParseDuration's grammar.
func (d *fileDuration) UnmarshalText(b []byte) error {
	v, err := runtime.ParseDuration(string(b))
	*d = fileDuration(v)
	return err
}

func durationPtr(d time.Duration) *fileDuration {
	v := fileDuration(d)
	return &v
}

// MarshalJSON writes c's file form (see [Config.UnmarshalJSON]): parts at
// their zero value are left out, callbacks are not written. It reports, all
// at once, what the file form cannot express: a negative duration, a
// requeuing strategy Kueue's fields cannot hold (a jitter other than
// Kueue's, a delay that is not whole seconds; see backoff.Strategy.Kueue),
// Backoff.ClampToMax (the file is read as current Kueue reads it), and
// PreemptionConfig.TimestampPreemptionBuffer (a scheduler-wide Kueue
// feature gate, since removed, not a field of Kueue's preemption block).
func (c Config) MarshalJSON() ([]byte, error) {
	var errs []error
	f := configFile{Queues: c.Queues, MinRuntimeArgs: c.MinRuntimeArgs, NominatorName: c.NominatorName,
		AllowProtectedRequeue: c.AllowProtectedRequeue, FailOpenUnknownQueues: c.FailOpenUnknownQueues, Engine: newEngineFile(c.Engine)}
	if k := c.AnnotationKeys; k != (expectedruntime.Keys{}) {
		f.AnnotationKeys = &annotationKeysFile{k.ExpectedRuntime, k.RequeueDelay, k.RequeueNotBefore, k.LastCheckpoint}
	}
	if c.Requeuing.Backoff.ClampToMax {
		errs = append(errs, errors.New("tenure: Requeuing.Backoff.ClampToMax (older Kueue releases' reading) cannot be written: the file is read as current Kueue reads it"))
	}
	if c.Requeuing.Timestamp != nil || c.Requeuing.Backoff != (backoff.Config{}) {
		k, err := c.Requeuing.Kueue()
		errs = append(errs, err)
		f.RequeuingStrategy = &k
	}
	if c.Preemption.TimestampPreemptionBuffer {
		errs = append(errs, errors.New("tenure: Preemption.TimestampPreemptionBuffer cannot be written: it is not a field of Kueue's preemption block"))
	}
	if c.Preemption.Policy != timebased.Never || c.Preemption.MinAdmitDuration != nil {
		k := c.Preemption.Kueue()
		f.Preemption = &k
	}
	if c.Protection.FairSharing != nil || c.Protection.ReclaimWithinCohort != nil {
		k := c.Protection.Kueue()
		f.PreemptionProtection = &k
	}
	if c.PreemptorDelay.Delay != 0 {
		f.PreemptorDelay = durationPtr(c.PreemptorDelay.Delay)
	}
	if b := c.EvictionBudget; b != (evictionbudget.Budget{}) {
		f.EvictionBudget = &evictionBudgetFile{b.Max, fileDuration(b.Window), b.Key}
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
			errs = append(errs, fmt.Errorf("tenure: config.%s: negative duration %s cannot be written (tenure's grammar has no negative durations)", key, *d))
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

// UnmarshalJSON reads a Config from its file form, a JSON object:
//
//	{
//	  "queues": [{"name": "team-a", "parentQueue": "org", "preemptMinRuntime": "20m", "reclaimMinRuntime": "1h"}],
//	  "minRuntimeArgs": {"defaultPreemptMinRuntime": "5m", "defaultReclaimMinRuntime": "10m", "reclaimResolveMethod": "lca"},
//	  "annotationKeys": {"expectedRuntime": "…", "requeueDelay": "…", "requeueNotBefore": "…", "lastCheckpoint": "…"},
//	  "nominatorName": "expectedruntime",
//	  "engine": {"name": "requeue", "defaultDelay": "30m", "maxVictims": 0, "maxAttempts": 0, "maxAttemptsPerVictim": 0, "maxChecks": 0,
//	             "maxChecksPerVictim": 0, "maxSetGroups": 0, "maxSetSize": 0, "setCandidates": 0},
//	  "allowProtectedRequeue": false,
//	  "failOpenUnknownQueues": false,
//	  "requeuingStrategy": {"timestamp": "Eviction", "backoffLimitCount": 5, "backoffBaseSeconds": 60, "backoffMaxSeconds": 3600},
//	  "preemption": {"withinClusterQueue": "LowerOrNewerEqualPriority", "withinClusterQueueConfig": {"minAdmitDuration": "4h"}},
//	  "preemptionProtection": {"fairSharing": {"minAdmitDuration": "1h"}, "reclaimWithinCohort": {"minAdmitDuration": "10m"}},
//	  "preemptorDelay": "30s",
//	  "evictionBudget": {"maxEvictions": 3, "window": "6h", "annotationKey": "tenure.io/evictions"}
//	}
//
// Every part that mirrors an upstream object uses that object's spelling:
// a queue's fields are KAI-Scheduler's Queue fields, minRuntimeArgs are
// KAI-Scheduler's min-runtime plugin arguments, requeuingStrategy is
// Kueue's waitForPodsReady.requeuingStrategy, preemption is the within-queue
// part of a Kueue ClusterQueue's preemption block with KEP-8522's
// withinClusterQueueConfig, and preemptionProtection is KEP-9876's block.
// Durations are read as strings in runtime.ParseDuration's grammar (Go's
// units plus d and w); Kueue's own seconds fields stay integers.
// [Config.MarshalJSON] writes tenure's own keys in that grammar ("6h",
// "1d") and the durations inside the Kueue blocks (preemption,
// preemptionProtection) in Go's time.Duration.String form ("24h0m0s"), the
// only form Kueue's metav1.Duration reads. Every key is matched
// exactly, letter case included: every unknown key, at any depth (inside
// Kueue blocks too), is reported, naming it and where it is. Problems are
// reported together, one part not hiding another's: every unknown key;
// for each top-level part, the first problem that keeps it from decoding
// (a value of the wrong JSON type, an unparsable duration of tenure's own
// keys), except the Kueue blocks, which report all of theirs; and every
// bad minRuntimeArgs entry (unknown keys, durations and methods). The
// queues' min-runtime strings are checked by [New], with every other
// value. Every absent part is its zero value, and a JSON null document
// changes nothing, as encoding/json's convention for Unmarshalers asks.
//
// The callbacks of c (Clock, Observer, Logger, and the engine's
// VictimCost, Filters, VictimOrder, CanContend and Observer) are kept, so
// a Config can be prepared in code and filled from a file. The values are
// checked as far as converting Kueue's shapes and reading the plugin
// arguments need; [New] checks the rest. On error c is unchanged. A user
// with YAML converts it to JSON first. Cost: O(size of data).
func (c *Config) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	f, errs := decodeFile(data)
	out, err := f.config()
	if err := errors.Join(append(errs, err)...); err != nil {
		return err
	}
	out.keepCallbacks(c)
	*c = out
	return nil
}

// keepCallbacks copies the callbacks of from, the fields the file form
// does not hold, into c.
func (c *Config) keepCallbacks(from *Config) {
	c.Clock, c.Observer, c.Logger = from.Clock, from.Observer, from.Logger
	e := &from.Engine
	c.Engine.VictimCost, c.Engine.Filters, c.Engine.VictimOrder, c.Engine.CanContend, c.Engine.Observer =
		e.VictimCost, e.Filters, e.VictimOrder, e.CanContend, e.Observer
}

// decodeFile decodes data into the file form part by part, so that one
// part's problem does not hide another's: it reports every unknown key
// (checkKeys), and every part that does not decode (a Kueue block's own
// decoder reports all of its problems), leaving such a part at its zero
// value.
func decodeFile(data []byte) (configFile, []error) {
	var f configFile
	errs := []error{checkKeys(data, reflect.TypeFor[configFile](), "config")}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return f, append(errs, fmt.Errorf("tenure: config: want a JSON object: %w", err))
	}
	v := reflect.ValueOf(&f).Elem()
	for i := range v.NumField() {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		raw, ok := m[name]
		if !ok {
			continue
		}
		if err := json.Unmarshal(raw, v.Field(i).Addr().Interface()); err != nil {
			errs = append(errs, partError(name, err))
			v.Field(i).SetZero()
		}
	}
	return f, errs
}

// partError is the error of the top-level part name that did not decode:
// named by its key, and for a value of the wrong JSON type, by the key
// inside the part and what it wants. The Kueue blocks' own decoders name
// their keys already.
func partError(name string, err error) error {
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te):
		at := name
		if te.Field != "" {
			at += "." + te.Field
		}
		want := te.Type.String()
		if strings.Contains(want, "fileDuration") {
			want = `a duration string such as "30s"`
		}
		return fmt.Errorf("tenure: config.%s: got a JSON %s, want %s", at, te.Value, want)
	case strings.Contains(err.Error(), name+":"), strings.Contains(err.Error(), name+"."):
		return fmt.Errorf("tenure: config: %w", err)
	}
	return fmt.Errorf("tenure: config.%s: %w", name, err)
}

// config converts the file form, reporting every conversion problem.
func (f *configFile) config() (Config, error) {
	var errs []error
	c := Config{Queues: f.Queues, MinRuntimeArgs: f.MinRuntimeArgs, NominatorName: f.NominatorName,
		AllowProtectedRequeue: f.AllowProtectedRequeue, FailOpenUnknownQueues: f.FailOpenUnknownQueues}
	if len(f.MinRuntimeArgs) > 0 {
		// Unknown keys, bad durations and methods, reported at decode.
		_, err := runtime.ParseConfig(f.MinRuntimeArgs, nil)
		errs = append(errs, err)
	}
	if k := f.AnnotationKeys; k != nil {
		c.AnnotationKeys = expectedruntime.Keys{ExpectedRuntime: k.ExpectedRuntime, RequeueDelay: k.RequeueDelay, RequeueNotBefore: k.RequeueNotBefore, LastCheckpoint: k.LastCheckpoint}
	}
	if e := f.Engine; e != nil {
		c.Engine = e.config()
	}
	var err error
	if k := f.RequeuingStrategy; k != nil {
		c.Requeuing, err = k.Strategy()
		errs = append(errs, err)
	}
	if k := f.Preemption; k != nil {
		c.Preemption, err = k.Config()
		errs = append(errs, err)
	}
	if k := f.PreemptionProtection; k != nil {
		c.Protection, err = k.Protection()
		errs = append(errs, err)
	}
	if d := f.PreemptorDelay; d != nil {
		c.PreemptorDelay.Delay = time.Duration(*d)
	}
	if b := f.EvictionBudget; b != nil {
		c.EvictionBudget = evictionbudget.Budget{Max: b.MaxEvictions, Window: time.Duration(b.Window), Key: b.AnnotationKey}
	}
	if err := errors.Join(errs...); err != nil {
		return Config{}, fmt.Errorf("tenure: config: %w", err)
	}
	return c, nil
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// checkKeys walks data along t and reports every key (in sorted order,
// depth first) that is not exactly a JSON field name of its struct: the
// check encoding/json's DisallowUnknownFields does not make, since it
// matches names case-insensitively. Values whose type decodes itself (a
// json.Unmarshaler, which checks its own keys, or a TextUnmarshaler) are
// not entered; malformed values are left to the decoder.
func checkKeys(data []byte, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return nil
	}
	var errs []error
	switch t.Kind() {
	case reflect.Struct:
		var m map[string]json.RawMessage
		if json.Unmarshal(data, &m) != nil {
			return nil
		}
		fields := map[string]reflect.Type{}
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			fields[name] = t.Field(i).Type
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if ft, ok := fields[k]; ok {
				errs = append(errs, checkKeys(m[k], ft, path+"."+k))
			} else {
				errs = append(errs, fmt.Errorf("tenure: %s: unknown key %q (want %s)", path, k, strings.Join(slices.Sorted(maps.Keys(fields)), ", ")))
			}
		}
	case reflect.Slice:
		var elems []json.RawMessage
		if json.Unmarshal(data, &elems) != nil {
			return nil
		}
		for i, e := range elems {
			errs = append(errs, checkKeys(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)))
		}
	}
	return errors.Join(errs...)
}
