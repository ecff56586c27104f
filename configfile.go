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
	"github.com/tenurepolicy/tenure/requeue/reserve"
	"github.com/tenurepolicy/tenure/runtime"
)

// configFile is the file form of a Config: the JSON object
// Config.UnmarshalJSON reads.
type configFile struct {
	Queues                []Queue                  `json:"queues,omitempty"`
	MinRuntimeArgs        map[string]string        `json:"minRuntimeArgs,omitempty"`
	AnnotationKeys        *annotationKeysFile      `json:"annotationKeys,omitempty"`
	NominatorName         string                   `json:"nominatorName,omitempty"`
	Engine                *engineFile              `json:"engine,omitempty"`
	AllowProtectedRequeue bool                     `json:"allowProtectedRequeue,omitempty"`
	FailOpenUnknownQueues bool                     `json:"failOpenUnknownQueues,omitempty"`
	RequeuingStrategy     *backoff.Strategy        `json:"requeuingStrategy,omitempty"`
	Preemption            *timebased.Config        `json:"preemption,omitempty"`
	PreemptionProtection  *admitprotect.Protection `json:"preemptionProtection,omitempty"`
	PreemptorDelay        *fileDuration            `json:"preemptorDelay,omitempty"`
	EvictionBudget        *evictionBudgetFile      `json:"evictionBudget,omitempty"`
	Reservation           *reservationFile         `json:"reservation,omitempty"`
}

// reservationFile is the file form of reserve.Config: its settings that
// are not callbacks; minPriority, when present, sets HasMinPriority.
type reservationFile struct {
	Max         int           `json:"max,omitempty"`
	After       *fileDuration `json:"after,omitempty"`
	MinUnits    int64         `json:"minUnits,omitempty"`
	MinPriority *int32        `json:"minPriority,omitempty"`
	MaxReplans  int           `json:"maxReplans,omitempty"`
}

type annotationKeysFile struct {
	ExpectedRuntime  string `json:"expectedRuntime,omitempty"`
	RequeueDelay     string `json:"requeueDelay,omitempty"`
	RequeueNotBefore string `json:"requeueNotBefore,omitempty"`
	LastCheckpoint   string `json:"lastCheckpoint,omitempty"`
	// PreemptionDelay is Config.PreemptorDelay.Key, beside the other
	// annotation keys.
	PreemptionDelay string `json:"preemptionDelay,omitempty"`
}

// engineFile is the file form of requeue.EngineConfig: every field that
// is not a callback, under its Go name in lower camel case.
type engineFile struct {
	Name            string        `json:"name,omitempty"`
	DefaultDelay    *fileDuration `json:"defaultDelay,omitempty"`
	MaxVictims      int           `json:"maxVictims,omitempty"`
	MaxAttempts     int           `json:"maxAttempts,omitempty"`
	MaxFillFailures int           `json:"maxFillFailures,omitempty"`
	MaxChecks       int           `json:"maxChecks,omitempty"`
	MaxLostWork     float64       `json:"maxLostWork,omitempty"`
}

// config returns the engine settings f holds, without callbacks.
func (f *engineFile) config() requeue.EngineConfig {
	e := requeue.EngineConfig{Name: f.Name, MaxVictims: f.MaxVictims, MaxAttempts: f.MaxAttempts,
		MaxFillFailures: f.MaxFillFailures, MaxChecks: f.MaxChecks, MaxLostWork: f.MaxLostWork}
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

// UnmarshalText reads runtime.ParseDuration's grammar.
func (d *fileDuration) UnmarshalText(b []byte) error {
	v, err := runtime.ParseDuration(string(b))
	*d = fileDuration(v)
	return err
}

// UnmarshalJSON reads a Config from its file form, a JSON object:
//
//	{
//	  "queues": [{"name": "team-a", "parentQueue": "org", "preemptMinRuntime": "20m", "reclaimMinRuntime": "1h"}],
//	  "minRuntimeArgs": {"defaultPreemptMinRuntime": "5m", "defaultReclaimMinRuntime": "10m", "reclaimResolveMethod": "lca"},
//	  "annotationKeys": {"expectedRuntime": "…", "requeueDelay": "…", "requeueNotBefore": "…", "lastCheckpoint": "…",
//	                     "preemptionDelay": "kai.scheduler/preemption-delay"},
//	  "nominatorName": "expectedruntime",
//	  "engine": {"name": "requeue", "defaultDelay": "30m", "maxVictims": 0, "maxAttempts": 0, "maxFillFailures": 0, "maxChecks": 0,
//	             "maxLostWork": 0},
//	  "allowProtectedRequeue": false,
//	  "failOpenUnknownQueues": false,
//	  "requeuingStrategy": {"timestamp": "Eviction", "backoffLimitCount": 5, "backoffBaseSeconds": 60, "backoffMaxSeconds": 3600},
//	  "preemption": {"withinClusterQueue": "LowerOrNewerEqualPriority", "withinClusterQueueConfig": {"minAdmitDuration": "4h"}},
//	  "preemptionProtection": {"fairSharing": {"minAdmitDuration": "1h"}, "reclaimWithinCohort": {"minAdmitDuration": "10m"}},
//	  "preemptorDelay": "30s",
//	  "evictionBudget": {"maxEvictions": 3, "window": "6h", "annotationKey": "tenure.io/evictions"},
//	  "reservation": {"max": 2, "after": "2h", "minUnits": 16, "minPriority": 100, "maxReplans": 3}
//	}
//
// Each part that mirrors an upstream object uses its spelling: queues are
// KAI-Scheduler Queue fields, minRuntimeArgs its min-runtime plugin
// arguments, requeuingStrategy Kueue's waitForPodsReady.requeuingStrategy,
// preemption the within-queue part of a ClusterQueue's preemption block
// (with KEP-8522's withinClusterQueueConfig), preemptionProtection
// KEP-9876's block. Durations are strings in runtime.ParseDuration's
// grammar; Kueue's seconds fields stay integers. Keys match exactly,
// letter case included.
//
// Every problem is reported, one [*ConfigError] each, joined: each unknown
// key at any depth, each value of the wrong JSON type or unparsable, each
// bad Kueue value or plugin argument; [New] checks the rest. An absent part
// is zero; a JSON null changes nothing. The callbacks of c are kept; on
// error c is unchanged. YAML users convert to JSON first. O(len(data)).
func (c *Config) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	f, errs := decodeFile(data)
	out, cerrs := f.config()
	if err := errors.Join(append(errs, cerrs...)...); err != nil {
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
	c.Engine.VictimCost, c.Engine.Filters, c.Engine.VictimOrder, c.Engine.CanContend, c.Engine.ContendClass, c.Engine.Observer =
		e.VictimCost, e.Filters, e.VictimOrder, e.CanContend, e.ContendClass, e.Observer
	r, re := &from.Reservation, &from.Reservation.Engine
	ce := &c.Reservation.Engine
	ce.VictimCost, ce.Filters, ce.VictimOrder, ce.CanContend, ce.ContendClass, ce.Observer =
		re.VictimCost, re.Filters, re.VictimOrder, re.CanContend, re.ContendClass, re.Observer
	c.Reservation.Observer, c.Reservation.Logger, c.Reservation.Fits, c.Reservation.Protection = r.Observer, r.Logger, r.Fits, r.Protection
}

// decodeFile decodes data into the file form value by value, so that one
// value's problem does not hide another's: it reports every unknown key
// (checkKeys) and every value that does not decode (decodeValue), one
// *ConfigError each.
func decodeFile(data []byte) (configFile, []error) {
	var f configFile
	errs := checkKeys(data, reflect.TypeFor[configFile](), "")
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return f, append(errs, &ConfigError{"", fmt.Errorf("want a JSON object: %w", err)})
	}
	return f, append(errs, decodeValue(data, reflect.ValueOf(&f).Elem(), "")...)
}

// decodeValue decodes raw, the value at key path of the file, into v (a
// zero value): member by member for an object of tenure's own (a struct
// that does not decode itself, or a map), element by element for a list,
// so that every value that does not decode is reported under its own key.
// A null leaves v unset, as encoding/json does for every type the file
// form holds. The members of a struct are matched exactly (checkKeys
// reports the others).
func decodeValue(raw json.RawMessage, v reflect.Value, path string) []error {
	if string(bytes.TrimSpace(raw)) == "null" {
		return nil
	}
	t := v.Type()
	switch {
	case decodesItself(t):
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct && !decodesItself(t.Elem()):
		v.Set(reflect.New(t.Elem()))
		return decodeValue(raw, v.Elem(), path)
	case t.Kind() == reflect.Struct:
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			break
		}
		var errs []error
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			if r, ok := m[name]; ok {
				errs = append(errs, decodeValue(r, v.Field(i), joinKey(path, name))...)
			}
		}
		return errs
	case t.Kind() == reflect.Slice:
		var elems []json.RawMessage
		if json.Unmarshal(raw, &elems) != nil {
			break
		}
		var errs []error
		s := reflect.MakeSlice(t, len(elems), len(elems))
		for i, e := range elems {
			errs = append(errs, decodeValue(e, s.Index(i), fmt.Sprintf("%s[%d]", path, i))...)
		}
		v.Set(s)
		return errs
	case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String:
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			break
		}
		var errs []error
		out := reflect.MakeMapWithSize(t, len(m))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			e := reflect.New(t.Elem()).Elem()
			errs = append(errs, decodeValue(m[k], e, joinKey(path, k))...)
			out.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), e)
		}
		v.Set(out)
		return errs
	}
	return decodeLeaf(raw, v, path)
}

// decodeLeaf decodes raw into v with encoding/json and keys its problems:
// a value of the wrong type by its key, with what the file wants there; a
// duration that does not parse, or a Kueue block's problems, by path and
// the key the block's decoder names (requeuingStrategy, preemption,
// preemptionProtection).
func decodeLeaf(raw json.RawMessage, v reflect.Value, path string) []error {
	err := json.Unmarshal(raw, v.Addr().Interface())
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		want := te.Type.String()
		switch {
		case strings.Contains(want, "fileDuration"):
			want = `a duration string such as "30s"`
		case te.Type.Kind() == reflect.Struct, te.Type.Kind() == reflect.Map:
			want = "an object"
		case te.Type.Kind() == reflect.Slice:
			want = "a list"
		}
		return []error{&ConfigError{joinKey(path, te.Field), fmt.Errorf("got a JSON %s, want %s", te.Value, want)}}
	}
	return configErrors(path, err)
}

// decodesItself reports whether a *t decodes its own JSON (a
// json.Unmarshaler or an encoding.TextUnmarshaler).
func decodesItself(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler)
}

// config converts the file form, reporting every conversion problem, one
// *ConfigError each.
func (f *configFile) config() (Config, []error) {
	var errs []error
	c := Config{Queues: f.Queues, MinRuntimeArgs: f.MinRuntimeArgs, NominatorName: f.NominatorName,
		AllowProtectedRequeue: f.AllowProtectedRequeue, FailOpenUnknownQueues: f.FailOpenUnknownQueues}
	if len(f.MinRuntimeArgs) > 0 {
		// Unknown keys, bad durations and methods, reported at decode.
		_, err := runtime.ParseConfig(f.MinRuntimeArgs, nil)
		errs = append(errs, configErrors("minRuntimeArgs", err)...)
	}
	if k := f.AnnotationKeys; k != nil {
		c.AnnotationKeys = expectedruntime.Keys{ExpectedRuntime: k.ExpectedRuntime, RequeueDelay: k.RequeueDelay, RequeueNotBefore: k.RequeueNotBefore, LastCheckpoint: k.LastCheckpoint}
		c.PreemptorDelay.Key = k.PreemptionDelay
	}
	if e := f.Engine; e != nil {
		c.Engine = e.config()
	}
	if k := f.RequeuingStrategy; k != nil { // decoded and validated by backoff.Strategy.UnmarshalJSON
		c.Requeuing = *k
	}
	if k := f.Preemption; k != nil { // decoded and validated by timebased.Config.UnmarshalJSON
		c.Preemption = *k
	}
	if k := f.PreemptionProtection; k != nil { // decoded and validated by admitprotect.Protection.UnmarshalJSON
		c.Protection = *k
	}
	if d := f.PreemptorDelay; d != nil {
		c.PreemptorDelay.Delay = time.Duration(*d)
	}
	if b := f.EvictionBudget; b != nil {
		c.EvictionBudget = evictionbudget.Budget{Max: b.MaxEvictions, Window: time.Duration(b.Window), Key: b.AnnotationKey}
	}
	if r := f.Reservation; r != nil {
		c.Reservation = reserve.Config{Max: r.Max, MinUnits: r.MinUnits, MaxReplans: r.MaxReplans}
		if r.After != nil {
			c.Reservation.After = time.Duration(*r.After)
		}
		if r.MinPriority != nil {
			c.Reservation.MinPriority, c.Reservation.HasMinPriority = *r.MinPriority, true
		}
	}
	if len(errs) > 0 {
		return Config{}, errs
	}
	return c, nil
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// checkKeys walks data, the value at key path of the file, along t and
// reports every key (in sorted order, depth first) that is not exactly a
// JSON field name of its struct, one *ConfigError each, keyed by the
// unknown key's own path: the check encoding/json's DisallowUnknownFields
// does not make, since it matches names case-insensitively. Values whose
// type decodes itself (a json.Unmarshaler, which checks its own keys, or a
// TextUnmarshaler) are not entered; malformed values are left to the
// decoder.
func checkKeys(data []byte, t reflect.Type, path string) []error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if decodesItself(t) {
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
				errs = append(errs, checkKeys(m[k], ft, joinKey(path, k))...)
			} else {
				errs = append(errs, &ConfigError{joinKey(path, k), fmt.Errorf("unknown key %q (want %s)", k, strings.Join(slices.Sorted(maps.Keys(fields)), ", "))})
			}
		}
	case reflect.Slice:
		var elems []json.RawMessage
		if json.Unmarshal(data, &elems) != nil {
			return nil
		}
		for i, e := range elems {
			errs = append(errs, checkKeys(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	return errs
}
