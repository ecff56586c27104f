package tenure_test

import (
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
)

// isCallback reports whether a field of type t is code rather than data:
// a func, an interface, a slice of either, or a *slog.Logger.
func isCallback(t reflect.Type) bool {
	if t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	return t.Kind() == reflect.Func || t.Kind() == reflect.Interface || t == reflect.TypeFor[*slog.Logger]()
}

// nonZero returns a non-zero value of t for a data field, or false for a
// type this test does not know (a new kind of field must then be added
// here, and to the file form).
func nonZero(t reflect.Type, i int) (reflect.Value, bool) {
	v := reflect.New(t).Elem()
	switch {
	case t == reflect.TypeFor[time.Duration]():
		v.SetInt(int64(time.Duration(i+1) * time.Minute))
	case t.Kind() == reflect.Int:
		v.SetInt(int64(i + 2))
	case t.Kind() == reflect.Float64:
		v.SetFloat(float64(i) + 0.5)
	case t.Kind() == reflect.String:
		v.SetString("k" + strings.Repeat("x", i+1))
	case t.Kind() == reflect.Bool:
		v.SetBool(true)
	default:
		return v, false
	}
	return v, true
}

// lowerCamel is the file's spelling of a Go field name.
func lowerCamel(name string) string {
	r := []rune(name)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

// roundTripFields sets each data field of the struct at path (inside a
// Config), one at a time, to a non-zero value, writes the Config and reads
// it back, and fails when the value does not survive; wantKey, when not
// nil, gives the file key the field must be written under.
// Fields of a struct, slice or map type are skipped when scalarsOnly is
// set.
func roundTripFields(t *testing.T, path func(*tenure.Config) reflect.Value, wantKey func(field string) string, scalarsOnly bool) {
	t.Helper()
	typ := path(&tenure.Config{}).Type()
	for i := range typ.NumField() {
		f := typ.Field(i)
		if k := f.Type.Kind(); isCallback(f.Type) || scalarsOnly && (k == reflect.Struct || k == reflect.Slice || k == reflect.Map) {
			continue
		}
		val, ok := nonZero(f.Type, i)
		if !ok {
			t.Errorf("%s.%s: no test value for %v: add one here and a key to the file form", typ, f.Name, f.Type)
			continue
		}
		var c tenure.Config
		path(&c).Field(i).Set(val)
		data, err := tenure.MarshalConfig(c)
		if err != nil {
			t.Errorf("%s.%s = %v: %v", typ, f.Name, val, err)
			continue
		}
		if wantKey != nil && !strings.Contains(string(data), `"`+wantKey(f.Name)+`":`) {
			t.Errorf("%s.%s is not written under %q: %s", typ, f.Name, wantKey(f.Name), data)
		}
		var back tenure.Config
		if err := json.Unmarshal(data, &back); err != nil {
			t.Errorf("%s.%s: %s does not read back: %v", typ, f.Name, data, err)
			continue
		}
		if got := path(&back).Field(i); !got.Equal(val) {
			t.Errorf("%s.%s: wrote %v as %s, read back %v", typ, f.Name, val, data, got)
		}
	}
}

// TestConfigFileHasEveryEngineField walks requeue.EngineConfig: every field
// that is not a callback has a file key (its name in lower camel case) and
// survives the round trip, so a field added to the engine cannot be
// forgotten by the file form. The same check runs on the other structs
// the file mirrors field by field.
func TestConfigFileHasEveryEngineField(t *testing.T) {
	roundTripFields(t, func(c *tenure.Config) reflect.Value { return reflect.ValueOf(&c.Engine).Elem() }, lowerCamel, false)
	roundTripFields(t, func(c *tenure.Config) reflect.Value { return reflect.ValueOf(&c.AnnotationKeys).Elem() }, lowerCamel, false)
	roundTripFields(t, func(c *tenure.Config) reflect.Value { return reflect.ValueOf(&c.EvictionBudget).Elem() }, nil, false)
	roundTripFields(t, func(c *tenure.Config) reflect.Value { return reflect.ValueOf(&c.PreemptorDelay).Elem() }, nil, false)
	// Config's own scalar fields; its parts below.
	roundTripFields(t, func(c *tenure.Config) reflect.Value { return reflect.ValueOf(c).Elem() }, lowerCamel, true)
	parts := map[string]string{"Queues": "queues", "MinRuntimeArgs": "minRuntimeArgs", "AnnotationKeys": "annotationKeys",
		"Engine": "engine", "Requeuing": "requeuingStrategy", "Preemption": "preemption", "Protection": "preemptionProtection",
		"PreemptorDelay": "preemptorDelay", "EvictionBudget": "evictionBudget", "Reservation": "reservation"}
	data, err := tenure.MarshalConfig(fullConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[tenure.Config]()) {
		if k := f.Type.Kind(); isCallback(f.Type) || k != reflect.Struct && k != reflect.Slice && k != reflect.Map {
			continue
		}
		key, ok := parts[f.Name]
		if !ok {
			t.Errorf("Config.%s: no file key known: add it to the file form, to fullConfig and here", f.Name)
		} else if !strings.Contains(string(data), `"`+key+`":`) {
			t.Errorf("Config.%s: fullConfig's file lacks %q: %s", f.Name, key, data)
		}
	}
}

// TestConfigFileEngineSpelling: the bounds the engine added last are read
// from a file under their keys and written back, and the keys of the
// bounds it removed are unknown keys.
func TestConfigFileEngineSpelling(t *testing.T) {
	want := requeue.EngineConfig{MaxFillFailures: 7, MaxLostWork: 3600.5}
	data, err := tenure.MarshalConfig(tenure.Config{Engine: want})
	if err != nil {
		t.Fatal(err)
	}
	if s := string(data); s != `{"engine":{"maxFillFailures":7,"maxLostWork":3600.5}}` {
		t.Errorf("Marshal = %s", s)
	}
	var c tenure.Config
	if err := json.Unmarshal([]byte(`{"engine":{"maxFillFailures":4,"maxLostWork":7200}}`), &c); err != nil ||
		c.Engine.MaxFillFailures != 4 || c.Engine.MaxLostWork != 7200 {
		t.Errorf("maxFillFailures, maxLostWork: %v, %+v", err, c.Engine)
	}
	for _, k := range []string{"maxAttemptsPerVictim", "maxChecksPerVictim", "maxSetGroups", "maxSetSize", "setCandidates"} {
		var c tenure.Config
		err := json.Unmarshal([]byte(`{"engine":{"`+k+`":4}}`), &c)
		if err == nil || !strings.Contains(err.Error(), "unknown key") {
			t.Errorf("removed key %s: %v, want an unknown key", k, err)
		}
	}
}

// callbackSample returns a usable, non-nil value for a callback field of
// type t, or false for a type this test does not know.
func callbackSample(t reflect.Type) (reflect.Value, bool) {
	switch t {
	case reflect.TypeFor[clock.Clock]():
		return reflect.ValueOf(clock.Func(time.Now)), true
	case reflect.TypeFor[eligibility.Observer]():
		return reflect.ValueOf(new(counter)), true
	case reflect.TypeFor[*slog.Logger]():
		return reflect.ValueOf(slog.Default()), true
	case reflect.TypeFor[[]requeue.VictimFilter]():
		return reflect.ValueOf([]requeue.VictimFilter{requeue.VictimMinRuntimeFilter{}}), true
	}
	if t.Kind() == reflect.Func {
		return reflect.MakeFunc(t, func(in []reflect.Value) []reflect.Value {
			out := make([]reflect.Value, t.NumOut())
			for i := range out {
				out[i] = reflect.Zero(t.Out(i))
			}
			return out
		}), true
	}
	return reflect.Value{}, false
}

// sameCallback reports whether a and b hold the same callback.
func sameCallback(a, b reflect.Value) bool {
	for _, v := range []*reflect.Value{&a, &b} { // compare what an interface holds: a func is not comparable
		if v.Kind() == reflect.Interface {
			*v = v.Elem()
		}
	}
	if !a.IsValid() || !b.IsValid() || a.Type() != b.Type() {
		return !a.IsValid() && !b.IsValid()
	}
	switch a.Kind() {
	case reflect.Func:
		return a.Pointer() == b.Pointer()
	case reflect.Slice:
		return a.Len() == b.Len() && a.Pointer() == b.Pointer()
	}
	return a.Interface() == b.Interface()
}

// TestConfigJSONKeepsEveryCallback walks Config and its Engine by
// reflection: every callback field set in code survives decoding a file,
// so a callback added later cannot be dropped silently.
func TestConfigJSONKeepsEveryCallback(t *testing.T) {
	var c tenure.Config
	type field struct {
		name string
		v    reflect.Value
	}
	var set []field
	for _, s := range []reflect.Value{reflect.ValueOf(&c).Elem(), reflect.ValueOf(&c.Engine).Elem(),
		reflect.ValueOf(&c.Reservation).Elem(), reflect.ValueOf(&c.Reservation.Engine).Elem()} {
		for i := range s.NumField() {
			f := s.Type().Field(i)
			if !isCallback(f.Type) {
				continue
			}
			v, ok := callbackSample(f.Type)
			if !ok {
				t.Errorf("%s.%s: no sample for %v: add one here", s.Type(), f.Name, f.Type)
				continue
			}
			s.Field(i).Set(v)
			set = append(set, field{s.Type().String() + "." + f.Name, s.Field(i)})
		}
	}
	if len(set) < 8 {
		t.Fatalf("found %d callbacks, want at least the 8 known ones", len(set))
	}
	want := make([]reflect.Value, len(set))
	for i, f := range set {
		want[i] = reflect.ValueOf(f.v.Interface())
	}
	if err := json.Unmarshal([]byte(`{"queues":[{"name":"a"}],"engine":{"maxVictims":1}}`), &c); err != nil {
		t.Fatal(err)
	}
	for i, f := range set {
		if !sameCallback(f.v, want[i]) {
			t.Errorf("%s was not kept by decoding", f.name)
		}
	}
	if c.Engine.MaxVictims != 1 || len(c.Queues) != 1 {
		t.Errorf("file fields not read: %+v", c)
	}
}
