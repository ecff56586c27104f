package backoff_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// TestKueueStrategyJSON: Kueue's spelling out, unset fields left out, exact
// keys in.
func TestKueueStrategyJSON(t *testing.T) {
	ts, a, b, c := "Eviction", int32(3), int32(0), int32(600)
	full := backoff.KueueStrategy{Timestamp: &ts, BackoffLimitCount: &a, BackoffBaseSeconds: &b, BackoffMaxSeconds: &c}
	for _, tt := range []struct {
		k    backoff.KueueStrategy
		want string
	}{
		{backoff.KueueStrategy{}, `{}`},
		{full, `{"timestamp":"Eviction","backoffLimitCount":3,"backoffBaseSeconds":0,"backoffMaxSeconds":600}`},
	} {
		out, err := json.Marshal(tt.k)
		if err != nil || string(out) != tt.want {
			t.Errorf("Marshal = %s, %v; want %s", out, err, tt.want)
		}
		var back backoff.KueueStrategy
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.k, back); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	}
	for in, key := range map[string]string{
		`{"BackoffLimitCount":3}`:             "BackoffLimitCount",
		`{"backofflimitcount":3}`:             "backofflimitcount",
		`{"timestamp":"Eviction","jitter":1}`: "jitter",
	} {
		var k backoff.KueueStrategy
		err := json.Unmarshal([]byte(in), &k)
		if err == nil || !strings.Contains(err.Error(), `"`+key+`"`) || !strings.HasPrefix(err.Error(), "backoff: ") {
			t.Errorf("Unmarshal(%s) = %v, want an error naming %q", in, err, key)
		}
	}
	var k backoff.KueueStrategy
	if err := json.Unmarshal([]byte(`{"backoffLimitCount":"3"}`), &k); err == nil {
		t.Error("a string count was accepted")
	}
}

// FuzzKueueStrategyJSON: the decoder never panics; what it accepts
// marshals back to JSON that decodes to the same value.
func FuzzKueueStrategyJSON(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"timestamp":"Creation","backoffBaseSeconds":10}`, `{"backoffMaxSeconds":null}`, `{"BackoffMaxSeconds":1}`, `[1]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var k backoff.KueueStrategy
		if json.Unmarshal([]byte(s), &k) != nil {
			return
		}
		out, err := json.Marshal(k)
		if err != nil {
			t.Fatal(err)
		}
		var back backoff.KueueStrategy
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%q → %s: %v", s, out, err)
		}
		if diff := cmp.Diff(k, back); diff != "" {
			t.Fatalf("%q → %s (-want +got):\n%s", s, out, diff)
		}
	})
}

// TestStrategyJSON: Strategy's own JSON methods are the two halves chained
// (keys and types, then the values), leave s unchanged on error and on
// null, and write back exactly what they read.
func TestStrategyJSON(t *testing.T) {
	creation := backoff.TimestampCreation
	sentinel := backoff.Strategy{Timestamp: &creation, Backoff: backoff.Config{Limit: backoff.Limit(9)}}
	for _, in := range []string{
		`{}`,
		`{"timestamp":"Eviction","backoffLimitCount":3,"backoffBaseSeconds":0,"backoffMaxSeconds":600}`,
		`{"timestamp":"Creation","backoffMaxSeconds":0}`,
		`{"BackoffLimitCount":3}`,
		`{"backoffLimitCount":"3"}`,
		`{"timestamp":"Now","backoffBaseSeconds":-1}`,
		`{"backoffBaseSeconds":7200}`,
		`[1]`,
	} {
		var k backoff.KueueStrategy
		want, wantErr := sentinel, json.Unmarshal([]byte(in), &k)
		if wantErr == nil {
			if want, wantErr = k.Strategy(); wantErr != nil {
				want = sentinel
			}
		}
		got := sentinel
		err := json.Unmarshal([]byte(in), &got)
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Errorf("Unmarshal(%s) error = %v, want %v", in, err, wantErr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Unmarshal(%s) (-want +got):\n%s", in, diff)
		}
		if err != nil {
			continue
		}
		out, err := json.Marshal(got)
		if err != nil || string(out) != in {
			t.Errorf("Marshal(Unmarshal(%s)) = %s, %v", in, out, err)
		}
	}
	got := sentinel
	if err := json.Unmarshal([]byte(`null`), &got); err != nil || !cmp.Equal(sentinel, got) {
		t.Errorf("null: %v, %+v; want no change", err, got)
	}
}
