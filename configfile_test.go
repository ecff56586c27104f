package tenure_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/backoff"
	"github.com/tenurepolicy/tenure/requeue/reserve"
)

// fullConfig sets every part of the file form.
func fullConfig() tenure.Config {
	creation, five := backoff.TimestampCreation, 5
	return tenure.Config{
		Queues: []tenure.Queue{
			{Name: "org", ReclaimMinRuntime: "1h"},
			{Name: "team-a", Parent: "org", PreemptMinRuntime: "20m", ReclaimMinRuntime: "0s"},
		},
		MinRuntimeArgs: map[string]string{"defaultPreemptMinRuntime": "5m", "reclaimResolveMethod": "queue"},
		AnnotationKeys: expectedruntime.Keys{ExpectedRuntime: "example.com/expected-runtime", RequeueDelay: "example.com/requeue-delay", RequeueNotBefore: "example.com/requeue-not-before", LastCheckpoint: "example.com/last-checkpoint-time"},
		NominatorName:  "overrun",
		Engine: requeue.EngineConfig{Name: "requeue2", DefaultDelay: 30 * time.Minute, MaxVictims: 4, MaxAttempts: 10, MaxFillFailures: 3, MaxChecks: 100,
			MaxLostWork: 8 * 3600},
		AllowProtectedRequeue: true,
		FailOpenUnknownQueues: true,
		Requeuing:             backoff.Strategy{Timestamp: &creation, Backoff: backoff.Config{Base: 10 * time.Second, Uncapped: true, Limit: &five}},
		Preemption:            timebased.Config{Policy: timebased.LowerOrNewerEqualPriority, MinAdmitDuration: explicit(4 * time.Hour)},
		Protection:            admitprotect.Protection{FairSharing: explicit(time.Hour), ReclaimWithinCohort: explicit(10 * time.Minute)},
		PreemptorDelay:        preemptordelay.Delay{Delay: 30 * time.Second},
		EvictionBudget:        evictionbudget.Budget{Max: 3, Window: 6 * time.Hour, Key: "example.com/evictions"},
		Reservation:           reserve.Config{Max: 2, After: 2 * time.Hour, MinUnits: 16, MinPriority: 100, HasMinPriority: true, MaxReplans: 4},
	}
}

// TestConfigJSONRoundTrip: every file-borne field survives Marshal and
// Unmarshal; the zero Config is {}.
func TestConfigJSONRoundTrip(t *testing.T) {
	for _, c := range []tenure.Config{{}, fullConfig()} {
		data, err := tenure.MarshalConfig(c)
		if err != nil {
			t.Fatal(err)
		}
		var back tenure.Config
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if diff := cmp.Diff(c, back, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("round trip of %s (-want +got):\n%s", data, diff)
		}
		if _, err := tenure.New(back); err != nil {
			t.Errorf("New(decoded): %v", err)
		}
	}
	if data, _ := tenure.MarshalConfig(tenure.Config{}); string(data) != "{}" {
		t.Errorf("zero Config = %s, want {}", data)
	}
}

// TestConfigJSONSpelling: upstream objects in upstream spelling, durations
// in the one grammar, callbacks left out.
func TestConfigJSONSpelling(t *testing.T) {
	c := fullConfig()
	c.Clock = clock.Func(time.Now)
	c.Observer = new(counter)
	data, err := tenure.MarshalConfig(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"parentQueue":"org"`, `"preemptMinRuntime":"20m"`, `"reclaimMinRuntime":"0s"`,
		`"requeuingStrategy":{"timestamp":"Creation","backoffLimitCount":5,"backoffBaseSeconds":10,"backoffMaxSeconds":0}`,
		`"preemption":{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"4h0m0s"}}`,
		`"preemptionProtection":{"fairSharing":{"minAdmitDuration":"1h0m0s"},"reclaimWithinCohort":{"minAdmitDuration":"10m0s"}}`,
		`"defaultDelay":"30m"`, `"preemptorDelay":"30s"`, `"window":"6h"`,
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("file form lacks %s:\n%s", want, data)
		}
	}
	for _, absent := range []string{"Clock", "Observer", "Logger", "Filters"} {
		if strings.Contains(string(data), absent) {
			t.Errorf("file form mentions %s:\n%s", absent, data)
		}
	}
	// What the file form cannot say is an error, not a silent loss.
	c = tenure.Config{Preemption: timebased.Config{TimestampPreemptionBuffer: true}}
	if _, err := tenure.MarshalConfig(c); err == nil {
		t.Error("TimestampPreemptionBuffer was dropped silently")
	}
	c = tenure.Config{Requeuing: backoff.Strategy{Backoff: backoff.Config{NoJitter: true}}}
	if _, err := tenure.MarshalConfig(c); err == nil {
		t.Error("NoJitter was dropped silently")
	}
	c = tenure.Config{Requeuing: backoff.Strategy{Backoff: backoff.Config{ClampToMax: true}}}
	if _, err := tenure.MarshalConfig(c); err == nil {
		t.Error("ClampToMax was dropped silently")
	}
	c = tenure.Config{Engine: requeue.EngineConfig{DefaultDelay: -time.Second}}
	if _, err := tenure.MarshalConfig(c); err == nil {
		t.Error("a negative duration was written")
	}
}

// TestConfigJSONUnknownKeys: an unknown key, a key in another letter case
// included, at any depth, is an error naming it.
func TestConfigJSONUnknownKeys(t *testing.T) {
	for in, key := range map[string]string{
		`{"Queues":[]}`:                                                         `"Queues"`,
		`{"queues":[{"name":"a","Parent":"b"}]}`:                                `"Parent"`,
		`{"engine":{"defaultdelay":"1m"}}`:                                      `"defaultdelay"`,
		`{"evictionBudget":{"maxEvictions":1,"window":"1h","x":1}}`:             `"x"`,
		`{"requeuingStrategy":{"BackoffLimitCount":3}}`:                         `"BackoffLimitCount"`,
		`{"preemptionProtection":{"fairSharing":{"minAdmit":"1h"}}}`:            `"minAdmit"`,
		`{"preemption":{"withinClusterQueueConfig":{"MinAdmitDuration":"1h"}}}`: `"MinAdmitDuration"`,
		`{"backoff":{}}`: `"backoff"`,
	} {
		var c tenure.Config
		err := json.Unmarshal([]byte(in), &c)
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("Unmarshal(%s) = %v, want an error naming %s", in, err, key)
		}
	}
	for _, in := range []string{`{"engine":{"defaultDelay":"5"}}`, `{"preemptorDelay":"-1m"}`, `{"requeuingStrategy":{"timestamp":"Later"}}`,
		`{"preemption":{"withinClusterQueue":"Never","withinClusterQueueConfig":{}}}`, `{"preemptionProtection":{"fairSharing":{"minAdmitDuration":"0s"}}}`, `[]`} {
		var c tenure.Config
		if err := json.Unmarshal([]byte(in), &c); err == nil || !strings.HasPrefix(err.Error(), "tenure: ") && !strings.HasPrefix(err.Error(), "json: ") {
			t.Errorf("Unmarshal(%s) = %v, want a tenure: error", in, err)
		}
	}
}

// TestConfigJSONKeepsCallbacks: decoding fills the file-borne fields and
// keeps the callbacks set in code.
func TestConfigJSONKeepsCallbacks(t *testing.T) {
	counter := new(counter)
	c := tenure.Config{Observer: counter, NominatorName: "old", Engine: requeue.EngineConfig{Filters: []requeue.VictimFilter{requeue.VictimMinRuntimeFilter{}}}}
	if err := json.Unmarshal([]byte(`{"preemptorDelay":"1m"}`), &c); err != nil {
		t.Fatal(err)
	}
	if c.Observer != counter || len(c.Engine.Filters) != 1 || c.NominatorName != "" || c.PreemptorDelay.Delay != time.Minute {
		t.Errorf("after Unmarshal: %+v", c)
	}
}

// FuzzConfigJSON: the decoder never panics; what it accepts writes back to
// a file that decodes to the same Config.
func FuzzConfigJSON(f *testing.F) {
	full, _ := tenure.MarshalConfig(fullConfig())
	for _, s := range []string{string(full), `{}`, `null`, `{"queues":[{"name":"a"}]}`, `{"engine":{"defaultDelay":"1d"}}`,
		`{"requeuingStrategy":{"backoffMaxSeconds":0}}`, `{"evictionBudget":{"maxEvictions":-1,"window":"1w"}}`, `{"queues":[null]}`,
		`{"engine":{"maxFillFailures":7,"maxLostWork":0.5},"failOpenUnknownQueues":true}`, `{"engine":{"maxLostWork":1e308}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var c tenure.Config
		if json.Unmarshal([]byte(s), &c) != nil {
			return
		}
		data, err := tenure.MarshalConfig(c)
		if err != nil {
			t.Fatalf("%q decoded but does not encode: %v", s, err)
		}
		var back tenure.Config
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%q → %s: %v", s, data, err)
		}
		if diff := cmp.Diff(c, back, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%q → %s (-want +got):\n%s", s, data, diff)
		}
	})
}

// TestConfigJSONEveryUnknownKey: all unknown keys of a file are reported
// at once.
func TestConfigJSONEveryUnknownKey(t *testing.T) {
	var c tenure.Config
	err := json.Unmarshal([]byte(`{"queue":[],"engine":{"maxVictim":1},"queues":[{"name":"a","parent":"b"}]}`), &c)
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{`config.queue: unknown key "queue"`, `config.engine.maxVictim: unknown key "maxVictim"`, `config.queues[0].parent: unknown key "parent"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %s:\n%v", want, err)
		}
	}
}

// TestConfigJSONEveryProblemAtOnce: the problems of every part, Kueue
// blocks and plugin arguments included, are reported together: every
// unknown key inside a Kueue block, a bad value beside them, and unknown
// minRuntimeArgs keys at decode rather than only in New.
func TestConfigJSONEveryProblemAtOnce(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{`{"requeuingStrategy":{"x":1},"preemptionProtection":{"y":1},"preemptorDelay":"5x"}`,
			[]string{`"x"`, `"y"`, `5x`}},
		{`{"requeuingStrategy":{"a":1,"b":2},"preemptionProtection":{"c":1,"fairSharing":{"d":1,"minAdmitDuration":"zz"}},"preemption":{"e":1,"f":2,"withinClusterQueueConfig":{"g":1}}}`,
			[]string{`"a"`, `"b"`, `"c"`, `"d"`, `zz`, `"e"`, `"f"`, `"g"`}},
		{`{"minRuntimeArgs":{"defaultPreemptMinRuntim":"5m","reclaimResolveMethod":"lcb"},"engine":{"maxVictims":"many"}}`,
			[]string{`"defaultPreemptMinRuntim"`, `"lcb"`, `maxVictims`}},
	} {
		var c tenure.Config
		err := json.Unmarshal([]byte(tc.in), &c)
		if err == nil {
			t.Errorf("%s: accepted", tc.in)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error lacks %s:\n%v", tc.in, w, err)
			}
		}
		if !strings.HasPrefix(err.Error(), "tenure: ") {
			t.Errorf("%s: error does not start with tenure: %v", tc.in, err)
		}
	}
}

// TestUnmarshalNullKeepsConfig: a JSON null document changes nothing, as
// encoding/json's convention for Unmarshalers asks: an empty ConfigMap
// value does not wipe a Config prepared in code.
func TestUnmarshalNullKeepsConfig(t *testing.T) {
	c := tenure.Config{Queues: []tenure.Queue{{Name: "a", PreemptMinRuntime: "1h"}}, NominatorName: "n"}
	for _, doc := range []string{"null", " null\n"} {
		got := c
		if err := json.Unmarshal([]byte(doc), &got); err != nil || !cmp.Equal(got, c) {
			t.Errorf("Unmarshal(%q) = %v, config %+v; want no error and the config unchanged", doc, err, got)
		}
	}
}

// TestMarshalReportsEveryNegativeDuration: a Config whose durations the
// file cannot hold (tenure's grammar has no negatives) is a MarshalConfig
// error that names every such duration by its key, the Kueue blocks'
// included, beside the other problems, never a file UnmarshalJSON would
// refuse.
func TestMarshalReportsEveryNegativeDuration(t *testing.T) {
	neg := -time.Minute
	var c tenure.Config
	c.Engine.DefaultDelay = neg
	c.Preemption = timebased.Config{Policy: timebased.LowerOrNewerEqualPriority, MinAdmitDuration: &neg}
	c.Protection = admitprotect.Protection{FairSharing: &neg, ReclaimWithinCohort: &neg}
	c.PreemptorDelay.Delay = neg
	c.EvictionBudget = evictionbudget.Budget{Max: 1, Window: neg}
	c.Requeuing.Backoff.ClampToMax = true
	_, err := tenure.MarshalConfig(c)
	if err == nil {
		t.Fatal("no error")
	}
	for _, key := range []string{"engine.defaultDelay", "preemption.withinClusterQueueConfig.minAdmitDuration",
		"preemptionProtection.fairSharing.minAdmitDuration", "preemptionProtection.reclaimWithinCohort.minAdmitDuration",
		"preemptorDelay", "evictionBudget.window", "ClampToMax"} {
		if !strings.Contains(err.Error(), key) {
			t.Errorf("the error does not name %s:\n%v", key, err)
		}
	}
}

// TestUnmarshalNamesTheKey: a value of the wrong type or an unparsable
// duration in tenure's own parts is reported under its key, with what
// the key wants.
func TestUnmarshalNamesTheKey(t *testing.T) {
	for doc, want := range map[string]string{
		`{"preemptorDelay":"abc"}`:                                          `tenure: config.preemptorDelay: runtime: invalid duration "abc"`,
		`{"preemptorDelay":30}`:                                             `tenure: config.preemptorDelay: got a JSON number, want a duration string such as "30s"`,
		`{"engine":{"maxVictims":"4"}}`:                                     `tenure: config.engine.maxVictims: got a JSON string, want int`,
		`{"failOpenUnknownQueues":"yes"}`:                                   `tenure: config.failOpenUnknownQueues: got a JSON string, want bool`,
		`{"evictionBudget":{"window":"x"}}`:                                 `tenure: config.evictionBudget.window: runtime: invalid duration "x"`,
		`{"requeuingStrategy":{"timestamp":1}}`:                             `tenure: config.requeuingStrategy.timestamp: backoff: requeuingStrategy.timestamp: got a JSON number, want string`,
		`{"preemptionProtection":{"fairSharing":{"minAdmitDuration":"x"}}}`: `tenure: config.preemptionProtection.fairSharing.minAdmitDuration: eligibility: preemptionProtection.fairSharing: minAdmitDuration: runtime: invalid duration "x"`,
	} {
		var c tenure.Config
		if err := json.Unmarshal([]byte(doc), &c); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Unmarshal(%s) = %v, want an error containing %q", doc, err, want)
		}
	}
}
