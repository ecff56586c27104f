package tenure_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// configErrorKeys returns the Key of every problem err joins, failing t on
// a joined error that is not a *tenure.ConfigError.
func configErrorKeys(t *testing.T, err error) []string {
	t.Helper()
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else if err != nil {
		errs = []error{err}
	}
	var keys []string
	for _, e := range errs {
		ce, ok := e.(*tenure.ConfigError)
		if !ok {
			t.Errorf("joined error %q is a %T, not a *tenure.ConfigError", e, e)
			continue
		}
		if !strings.HasPrefix(ce.Error(), "tenure: ") {
			t.Errorf("%q does not start with tenure:", ce)
		}
		keys = append(keys, ce.Key)
	}
	return keys
}

// wantOneKey checks that err holds problems under key only, at least one,
// the first reachable with errors.As.
func wantOneKey(t *testing.T, what string, err error, key string) {
	t.Helper()
	var ce *tenure.ConfigError
	if !errors.As(err, &ce) || ce.Key != key {
		t.Errorf("%s: errors.As found %v, want a *tenure.ConfigError with Key %q; error:\n%v", what, ce, key, err)
		return
	}
	for _, k := range configErrorKeys(t, err) {
		if k != key {
			t.Errorf("%s: a problem under %q, want only %q; error:\n%v", what, k, key, err)
		}
	}
}

func durationPtr(d time.Duration) *time.Duration { return &d }

// TestConfigErrorKeys: each bad Config, one problem each, built in code and
// read from a file, is reported under exactly its key path, the same both
// ways.
func TestConfigErrorKeys(t *testing.T) {
	neg := -1
	bad := backoff.TimestampStrategy(7)
	var nilFilter victimFilterFunc
	lonep := timebased.LowerOrNewerEqualPriority
	for _, tc := range []struct {
		key  string
		cfg  *tenure.Config // in code; nil when only a file has the problem
		file string         // the same problem in a file; "" when the file cannot hold it
	}{
		{"queues[1].name", &tenure.Config{Queues: []tenure.Queue{{Name: "a"}, {Name: "a"}}}, `{"queues":[{"name":"a"},{"name":"a"}]}`},
		{"queues[0].name", &tenure.Config{Queues: []tenure.Queue{{Name: ""}}}, `{"queues":[{"name":""}]}`},
		{"queues[1].parentQueue", &tenure.Config{Queues: []tenure.Queue{{Name: "a"}, {Name: "b", Parent: "zz"}}}, `{"queues":[{"name":"a"},{"name":"b","parentQueue":"zz"}]}`},
		{"queues[0].parentQueue", &tenure.Config{Queues: []tenure.Queue{{Name: "a", Parent: "a"}}}, `{"queues":[{"name":"a","parentQueue":"a"}]}`},
		{"queues[1].preemptMinRuntime", &tenure.Config{Queues: []tenure.Queue{{Name: "a"}, {Name: "b", PreemptMinRuntime: "5x"}}}, `{"queues":[{"name":"a"},{"name":"b","preemptMinRuntime":"5x"}]}`},
		{"queues[0].reclaimMinRuntime", &tenure.Config{Queues: []tenure.Queue{{Name: "a", ReclaimMinRuntime: "-1m"}}}, `{"queues":[{"name":"a","reclaimMinRuntime":"-1m"}]}`},
		{"minRuntimeArgs.defaultPreemptMinRuntime", &tenure.Config{MinRuntimeArgs: map[string]string{"defaultPreemptMinRuntime": "x"}}, `{"minRuntimeArgs":{"defaultPreemptMinRuntime":"x"}}`},
		{"minRuntimeArgs.defaultReclaimMinRuntime", &tenure.Config{MinRuntimeArgs: map[string]string{"defaultReclaimMinRuntime": "-5m"}}, `{"minRuntimeArgs":{"defaultReclaimMinRuntime":"-5m"}}`},
		{"minRuntimeArgs.reclaimResolveMethod", &tenure.Config{MinRuntimeArgs: map[string]string{"reclaimResolveMethod": "nearest"}}, `{"minRuntimeArgs":{"reclaimResolveMethod":"nearest"}}`},
		{"minRuntimeArgs.typo", &tenure.Config{MinRuntimeArgs: map[string]string{"typo": "1h"}}, `{"minRuntimeArgs":{"typo":"1h"}}`},
		{"annotationKeys.requeueDelay", &tenure.Config{AnnotationKeys: expectedruntime.Keys{ExpectedRuntime: "k", RequeueDelay: "k"}}, `{"annotationKeys":{"expectedRuntime":"k","requeueDelay":"k"}}`},
		{"annotationKeys.expectedRuntime", &tenure.Config{AnnotationKeys: expectedruntime.Keys{ExpectedRuntime: expectedruntime.AnnotationRequeueDelay}}, `{"annotationKeys":{"expectedRuntime":"` + expectedruntime.AnnotationRequeueDelay + `"}}`},
		{"annotationKeys.requeueNotBefore", &tenure.Config{AnnotationKeys: expectedruntime.Keys{RequeueNotBefore: expectedruntime.AnnotationExpectedRuntime}}, `{"annotationKeys":{"requeueNotBefore":"` + expectedruntime.AnnotationExpectedRuntime + `"}}`},
		{"annotationKeys.lastCheckpoint", &tenure.Config{AnnotationKeys: expectedruntime.Keys{LastCheckpoint: expectedruntime.AnnotationRequeueDelay}}, `{"annotationKeys":{"lastCheckpoint":"` + expectedruntime.AnnotationRequeueDelay + `"}}`},
		{"nominatorName", &tenure.Config{NominatorName: "Expected Runtime"}, `{"nominatorName":"Expected Runtime"}`},
		{"nominatorName", &tenure.Config{NominatorName: "requeue"}, `{"nominatorName":"requeue"}`},
		{"engine.name", &tenure.Config{Engine: requeue.EngineConfig{Name: "rq-1"}}, `{"engine":{"name":"rq-1"}}`},
		{"engine.name", &tenure.Config{Engine: requeue.EngineConfig{Name: "expectedruntime"}}, `{"engine":{"name":"expectedruntime"}}`},
		{"engine.defaultDelay", &tenure.Config{Engine: requeue.EngineConfig{DefaultDelay: -time.Second}}, `{"engine":{"defaultDelay":"-1s"}}`},
		{"engine.maxVictims", &tenure.Config{Engine: requeue.EngineConfig{MaxVictims: -1}}, `{"engine":{"maxVictims":-1}}`},
		{"engine.maxAttempts", &tenure.Config{Engine: requeue.EngineConfig{MaxAttempts: -1}}, `{"engine":{"maxAttempts":-1}}`},
		{"engine.maxFillFailures", &tenure.Config{Engine: requeue.EngineConfig{MaxFillFailures: -1}}, `{"engine":{"maxFillFailures":-1}}`},
		{"engine.maxChecks", &tenure.Config{Engine: requeue.EngineConfig{MaxChecks: -1}}, `{"engine":{"maxChecks":-1}}`},
		{"engine.maxLostWork", &tenure.Config{Engine: requeue.EngineConfig{MaxLostWork: -1}}, `{"engine":{"maxLostWork":-1}}`},
		{"engine.maxLostWork", &tenure.Config{Engine: requeue.EngineConfig{MaxLostWork: -0.5}}, `{"engine":{"maxLostWork":-0.5}}`},
		{"engine.maxLostWork", &tenure.Config{Engine: requeue.EngineConfig{MaxLostWork: math.NaN()}}, ""},
		{"engine.filters[1]", &tenure.Config{Engine: requeue.EngineConfig{Filters: []requeue.VictimFilter{requeue.VictimMinRuntimeFilter{}, nil}}}, ""},
		{"engine.filters[0]", &tenure.Config{Engine: requeue.EngineConfig{Filters: []requeue.VictimFilter{nilFilter}}}, ""},
		{"engine.observer", &tenure.Config{Engine: requeue.EngineConfig{Observer: (*counter)(nil)}}, ""},
		{"clock", &tenure.Config{Clock: clock.Func(nil)}, ""},
		{"observer", &tenure.Config{Observer: (*counter)(nil)}, ""},
		{"logger", &tenure.Config{Logger: &slog.Logger{}}, ""},
		{"logger", &tenure.Config{Logger: slog.New((*slog.TextHandler)(nil))}, ""},
		{"requeuingStrategy.timestamp", &tenure.Config{Requeuing: backoff.Strategy{Timestamp: &bad}}, `{"requeuingStrategy":{"timestamp":"Later"}}`},
		{"requeuingStrategy.backoffBaseSeconds", &tenure.Config{Requeuing: backoff.Strategy{Backoff: backoff.Config{Base: -time.Second}}}, `{"requeuingStrategy":{"backoffBaseSeconds":-1}}`},
		{"requeuingStrategy.backoffBaseSeconds", &tenure.Config{Requeuing: backoff.Strategy{Backoff: backoff.Config{Base: 2 * time.Hour}}}, `{"requeuingStrategy":{"backoffBaseSeconds":7200}}`},
		{"requeuingStrategy.backoffMaxSeconds", &tenure.Config{Requeuing: backoff.Strategy{Backoff: backoff.Config{Max: -time.Second}}}, `{"requeuingStrategy":{"backoffMaxSeconds":-1}}`},
		{"requeuingStrategy.backoffLimitCount", &tenure.Config{Requeuing: backoff.Strategy{Backoff: backoff.Config{Limit: &neg}}}, `{"requeuingStrategy":{"backoffLimitCount":-1}}`},
		{"requeuingStrategy.jitter", &tenure.Config{Requeuing: backoff.Strategy{Backoff: backoff.Config{Jitter: 2}}}, ""},
		{"requeuingStrategy.jitter", &tenure.Config{Requeuing: backoff.Strategy{Backoff: backoff.Config{Jitter: 0.5, NoJitter: true}}}, ""},
		{"preemption.withinClusterQueue", &tenure.Config{Preemption: timebased.Config{Policy: 9}}, `{"preemption":{"withinClusterQueue":"Sometimes"}}`},
		{"preemption.withinClusterQueueConfig.minAdmitDuration", &tenure.Config{Preemption: timebased.Config{Policy: lonep, MinAdmitDuration: durationPtr(30 * time.Second)}},
			`{"preemption":{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"30s"}}}`},
		{"preemption.withinClusterQueueConfig", &tenure.Config{Preemption: timebased.Config{Policy: timebased.LowerPriority, MinAdmitDuration: durationPtr(5 * time.Minute)}},
			`{"preemption":{"withinClusterQueue":"LowerPriority","withinClusterQueueConfig":{"minAdmitDuration":"5m"}}}`},
		{"preemptionProtection.fairSharing.minAdmitDuration", &tenure.Config{Protection: admitprotect.Protection{FairSharing: durationPtr(0)}}, `{"preemptionProtection":{"fairSharing":{"minAdmitDuration":"0s"}}}`},
		{"preemptionProtection.reclaimWithinCohort.minAdmitDuration", &tenure.Config{Protection: admitprotect.Protection{ReclaimWithinCohort: durationPtr(0)}}, `{"preemptionProtection":{"reclaimWithinCohort":{"minAdmitDuration":"0s"}}}`},
		{"preemptorDelay", &tenure.Config{PreemptorDelay: preemptordelay.Delay{Delay: -time.Second}}, `{"preemptorDelay":"-1s"}`},
		{"evictionBudget.maxEvictions", &tenure.Config{EvictionBudget: evictionbudget.Budget{Max: -1}}, `{"evictionBudget":{"maxEvictions":-1,"window":"1h"}}`},
		{"evictionBudget.window", &tenure.Config{EvictionBudget: evictionbudget.Budget{Max: 1}}, `{"evictionBudget":{"maxEvictions":1,"window":"0s"}}`},
		// The budget's record key is none of the nominator's annotation keys
		// (KAI's by default), which its records would overwrite.
		{"evictionBudget.annotationKey", &tenure.Config{EvictionBudget: evictionbudget.Budget{Max: 1, Window: time.Hour, Key: expectedruntime.AnnotationExpectedRuntime}},
			`{"evictionBudget":{"maxEvictions":1,"window":"1h","annotationKey":"` + expectedruntime.AnnotationExpectedRuntime + `"}}`},
		{"evictionBudget.annotationKey", &tenure.Config{EvictionBudget: evictionbudget.Budget{Max: 1, Window: time.Hour, Key: eligibility.AnnotationRequeueNotBefore}},
			`{"evictionBudget":{"maxEvictions":1,"window":"1h","annotationKey":"` + eligibility.AnnotationRequeueNotBefore + `"}}`},
		{"evictionBudget.annotationKey", &tenure.Config{EvictionBudget: evictionbudget.Budget{Key: expectedruntime.AnnotationLastCheckpoint}},
			`{"evictionBudget":{"maxEvictions":0,"window":"0s","annotationKey":"` + expectedruntime.AnnotationLastCheckpoint + `"}}`},
		{"evictionBudget.annotationKey", &tenure.Config{AnnotationKeys: expectedruntime.Keys{RequeueDelay: "x.io/d"},
			EvictionBudget: evictionbudget.Budget{Max: 1, Window: time.Hour, Key: "x.io/d"}},
			`{"annotationKeys":{"requeueDelay":"x.io/d"},"evictionBudget":{"maxEvictions":1,"window":"1h","annotationKey":"x.io/d"}}`},
		{"evictionBudget.annotationKey", &tenure.Config{AnnotationKeys: expectedruntime.Keys{ExpectedRuntime: evictionbudget.Annotation},
			EvictionBudget: evictionbudget.Budget{Max: 1, Window: time.Hour}},
			`{"annotationKeys":{"expectedRuntime":"` + evictionbudget.Annotation + `"},"evictionBudget":{"maxEvictions":1,"window":"1h"}}`},
		// Each problem inside a Kueue block under its full key, from a file
		// as in code.
		{"preemptionProtection.fairSharing.minAdmitDuration", &tenure.Config{Protection: admitprotect.Protection{FairSharing: durationPtr(-time.Hour)}},
			`{"preemptionProtection":{"fairSharing":{"minAdmitDuration":"-1h"}}}`},
		{"preemption.withinClusterQueueConfig.minAdmitDuration", &tenure.Config{Preemption: timebased.Config{Policy: lonep, MinAdmitDuration: durationPtr(-4 * time.Hour)}},
			`{"preemption":{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"-4h"}}}`},
		// Problems only a file has: its own key path each.
		{"engine.maxCheck", nil, `{"engine":{"maxCheck":1}}`},
		{"queues[0].parent", nil, `{"queues":[{"name":"a","parent":"b"}]}`},
		{"queues[0].name", nil, `{"queues":[{"name":3}]}`},
		{"minRuntimeArgs.defaultPreemptMinRuntime", nil, `{"minRuntimeArgs":{"defaultPreemptMinRuntime":5}}`},
		{"engine.maxVictims", nil, `{"engine":{"maxVictims":"4"}}`},
		{"engine.maxFillFailures", nil, `{"engine":{"maxFillFailures":1.5}}`},
		{"engine.maxLostWork", nil, `{"engine":{"maxLostWork":"1h"}}`},
		{"engine.maxLostWork", nil, `{"engine":{"maxLostWork":1e400}}`},
		// The keys of the engine's removed bounds are unknown keys.
		{"engine.maxAttemptsPerVictim", nil, `{"engine":{"maxAttemptsPerVictim":3}}`},
		{"engine.maxChecksPerVictim", nil, `{"engine":{"maxChecksPerVictim":3}}`},
		{"engine.maxSetGroups", nil, `{"engine":{"maxSetGroups":3}}`},
		{"engine.maxSetSize", nil, `{"engine":{"maxSetSize":3}}`},
		{"engine.setCandidates", nil, `{"engine":{"setCandidates":3}}`},
		{"evictionBudget.window", nil, `{"evictionBudget":{"maxEvictions":1,"window":30}}`},
		{"engine", nil, `{"engine":[]}`},
		{"requeuingStrategy.backoffMaxSecond", nil, `{"requeuingStrategy":{"backoffMaxSecond":1}}`},
		{"requeuingStrategy.backoffLimitCount", nil, `{"requeuingStrategy":{"backoffLimitCount":"3"}}`},
		{"requeuingStrategy.timestamp", nil, `{"requeuingStrategy":{"timestamp":5}}`},
		{"requeuingStrategy.backoffLimitCount", nil, `{"requeuingStrategy":{"backoffLimitCount":3000000000}}`},
		{"requeuingStrategy", nil, `{"requeuingStrategy":[]}`},
		{"preemption.withinClusterQueu", nil, `{"preemption":{"withinClusterQueu":"Never"}}`},
		{"preemption.withinClusterQueue", nil, `{"preemption":{"withinClusterQueue":3}}`},
		{"preemption.withinClusterQueueConfig", nil, `{"preemption":{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":[]}}`},
		{"preemption.withinClusterQueueConfig.minAdmitDuration", nil, `{"preemption":{"withinClusterQueueConfig":{"minAdmitDuration":"-4h"}}}`},
		{"preemption.withinClusterQueueConfig.minAdmitDuration", nil, `{"preemption":{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"4x"}}}`},
		{"preemption.withinClusterQueueConfig.minAdmitDuration", nil, `{"preemption":{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":4}}}`},
		{"preemption.withinClusterQueueConfig.minAdmitDurationX", nil, `{"preemption":{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDurationX":"4h"}}}`},
		{"preemption", nil, `{"preemption":[]}`},
		{"preemptionProtection.fairSharing.minAdmitDuration", nil, `{"preemptionProtection":{"fairSharing":{"minAdmitDuration":"x"}}}`},
		{"preemptionProtection.reclaimWithinCohort.minAdmitDuration", nil, `{"preemptionProtection":{"reclaimWithinCohort":{"minAdmitDuration":5}}}`},
		{"preemptionProtection.fairSharing.minAdmitDurationX", nil, `{"preemptionProtection":{"fairSharing":{"minAdmitDurationX":"1h"}}}`},
		{"preemptionProtection.fairSharing", nil, `{"preemptionProtection":{"fairSharing":"1h"}}`},
		{"preemptionProtection.fairSharin", nil, `{"preemptionProtection":{"fairSharin":{"minAdmitDuration":"1h"}}}`},
		{"preemptionProtection", nil, `{"preemptionProtection":"1h"}`},
		{"", nil, `[]`},
	} {
		if tc.cfg != nil {
			_, err := tenure.New(*tc.cfg)
			wantOneKey(t, "New "+tc.key, err, tc.key)
		}
		if tc.file == "" {
			continue
		}
		var c tenure.Config
		err := json.Unmarshal([]byte(tc.file), &c)
		if err == nil {
			_, err = tenure.New(c)
		}
		wantOneKey(t, "file "+tc.file, err, tc.key)
	}
}

// TestConfigErrorEveryProblem: a Config with a problem in every part
// reports them all at once, each under its key, and errors.As reaches the
// queue tree's own problem through its *ConfigError.
func TestConfigErrorEveryProblem(t *testing.T) {
	neg := -1
	cfg := tenure.Config{
		Queues:         []tenure.Queue{{Name: "a", ReclaimMinRuntime: "5x"}, {Name: "a"}, {Name: "b", Parent: "missing"}},
		MinRuntimeArgs: map[string]string{"reclaimResolveMethod": "nearest", "typo": "1h"},
		AnnotationKeys: expectedruntime.Keys{ExpectedRuntime: "k", RequeueDelay: "k"},
		NominatorName:  "Expected Runtime",
		Engine: requeue.EngineConfig{Name: "rq-1", DefaultDelay: -time.Second, MaxChecks: -1, MaxLostWork: -1,
			Filters: []requeue.VictimFilter{nil}, Observer: (*counter)(nil)},
		Requeuing:      backoff.Strategy{Backoff: backoff.Config{Base: 2 * time.Hour, Max: -time.Second, Limit: &neg, Jitter: 2}},
		Preemption:     timebased.Config{Policy: timebased.LowerPriority, MinAdmitDuration: durationPtr(time.Second)},
		Protection:     admitprotect.Protection{FairSharing: durationPtr(0), ReclaimWithinCohort: durationPtr(-time.Minute)},
		PreemptorDelay: preemptordelay.Delay{Delay: -time.Second},
		EvictionBudget: evictionbudget.Budget{Max: 1},
		Clock:          clock.Func(nil),
		Observer:       (*counter)(nil),
		Logger:         &slog.Logger{},
	}
	_, err := tenure.New(cfg)
	got := map[string]bool{}
	for _, k := range configErrorKeys(t, err) {
		got[k] = true
	}
	for _, want := range []string{"queues[0].reclaimMinRuntime", "queues[1].name", "queues[2].parentQueue",
		"minRuntimeArgs.reclaimResolveMethod", "minRuntimeArgs.typo", "annotationKeys.requeueDelay", "nominatorName",
		"engine.name", "engine.defaultDelay", "engine.maxChecks", "engine.maxLostWork", "engine.filters[0]", "engine.observer",
		"requeuingStrategy.backoffMaxSeconds", "requeuingStrategy.backoffLimitCount", "requeuingStrategy.jitter",
		"preemption.withinClusterQueueConfig", "preemption.withinClusterQueueConfig.minAdmitDuration",
		"preemptionProtection.fairSharing.minAdmitDuration", "preemptionProtection.reclaimWithinCohort.minAdmitDuration",
		"preemptorDelay", "evictionBudget.window", "clock", "observer", "logger"} {
		if !got[want] {
			t.Errorf("no problem under %s; error:\n%v", want, err)
		}
	}
	var p *queuetree.Problem
	if !errors.As(err, &p) || p.Kind != "duplicate_name" {
		t.Errorf("errors.As found no duplicate queue problem: %v", p)
	}
	var ce *tenure.ConfigError
	if !errors.As(err, &ce) || ce.Key != "queues[1].name" {
		t.Errorf("errors.As found %v first, want the duplicate queue", ce)
	}

	// The file form of the same problems (those it can hold) reports each
	// under the same key.
	file := `{"queues":[{"name":"a","reclaimMinRuntime":"5x"},{"name":"a"},{"name":"b","parentQueue":"missing"}],
		"minRuntimeArgs":{"reclaimResolveMethod":"nearest","typo":"1h"},
		"requeuingStrategy":{"backoffMaxSeconds":-1,"backoffLimitCount":-1},
		"preemption":{"withinClusterQueue":"LowerPriority","withinClusterQueueConfig":{"minAdmitDuration":"1s"}},
		"preemptionProtection":{"fairSharing":{"minAdmitDuration":"0s"},"reclaimWithinCohort":{"minAdmitDuration":"0s"}},
		"engine":{"maxChecks":-1,"maxCheck":1}}`
	var c tenure.Config
	err = json.Unmarshal([]byte(file), &c)
	got = map[string]bool{}
	for _, k := range configErrorKeys(t, err) {
		got[k] = true
	}
	for _, want := range []string{"minRuntimeArgs.reclaimResolveMethod", "minRuntimeArgs.typo", "requeuingStrategy.backoffMaxSeconds",
		"requeuingStrategy.backoffLimitCount", "preemption.withinClusterQueueConfig", "preemption.withinClusterQueueConfig.minAdmitDuration",
		"preemptionProtection.fairSharing.minAdmitDuration", "preemptionProtection.reclaimWithinCohort.minAdmitDuration", "engine.maxCheck"} {
		if !got[want] {
			t.Errorf("file: no problem under %s; error:\n%v", want, err)
		}
	}
}

// TestConfigErrorMarshal: what the file form cannot hold is reported under
// the key it would have.
func TestConfigErrorMarshal(t *testing.T) {
	neg := -time.Minute
	for _, tc := range []struct {
		key string
		cfg tenure.Config
	}{
		{"requeuingStrategy.clampToMax", tenure.Config{Requeuing: backoff.Strategy{Backoff: backoff.Config{ClampToMax: true}}}},
		{"requeuingStrategy.jitter", tenure.Config{Requeuing: backoff.Strategy{Backoff: backoff.Config{NoJitter: true}}}},
		{"requeuingStrategy.backoffBaseSeconds", tenure.Config{Requeuing: backoff.Strategy{Backoff: backoff.Config{Base: 1500 * time.Millisecond}}}},
		{"preemption.timestampPreemptionBuffer", tenure.Config{Preemption: timebased.Config{TimestampPreemptionBuffer: true}}},
		{"engine.defaultDelay", tenure.Config{Engine: requeue.EngineConfig{DefaultDelay: neg}}},
		{"preemptorDelay", tenure.Config{PreemptorDelay: preemptordelay.Delay{Delay: neg}}},
		{"evictionBudget.window", tenure.Config{EvictionBudget: evictionbudget.Budget{Window: neg}}},
		{"preemptionProtection.reclaimWithinCohort.minAdmitDuration", tenure.Config{Protection: admitprotect.Protection{ReclaimWithinCohort: &neg}}},
	} {
		_, err := tenure.MarshalConfig(tc.cfg)
		var ce *tenure.ConfigError
		if !errors.As(err, &ce) || ce.Key != tc.key {
			t.Errorf("Marshal: errors.As found %v, want Key %q; error: %v", ce, tc.key, err)
		}
	}
}

// TestConfigErrorTolerant: the problems New repairs, and the
// error of UpdateQueues, are
// *ConfigErrors keyed by the entry and field.
func TestConfigErrorTolerant(t *testing.T) {
	queues := []tenure.Queue{{Name: "a"}, {Name: "b", Parent: "zz"}, {Name: "a"}, {Name: "c", PreemptMinRuntime: "-1m"}}
	want := []string{"queues[1].parentQueue", "queues[2].name", "queues[3].preemptMinRuntime"}
	p, err := tenure.New(tenure.Config{Queues: queues})
	problems := problemsOf(err)
	if p == nil {
		t.Fatal("New gave no Policy")
	}
	got := configErrorKeys(t, errors.Join(problems...))
	for _, k := range want {
		if !slices.Contains(got, k) {
			t.Errorf("New: no problem under %s: %v", k, got)
		}
	}
	clean, err := tenure.New(tenure.Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = clean.UpdateQueues(queues)
	got = configErrorKeys(t, err)
	for _, k := range want {
		if !slices.Contains(got, k) {
			t.Errorf("UpdateQueues: no problem under %s: %v", k, got)
		}
	}
	// With the rest of the Config bad, New reports that too.
	_, err = tenure.New(tenure.Config{Queues: queues, Engine: requeue.EngineConfig{MaxVictims: -1}})
	problems = problemsOf(err)
	if got := configErrorKeys(t, errors.Join(problems...)); !slices.Contains(got, "engine.maxVictims") || !slices.Contains(got, "queues[2].name") {
		t.Errorf("New of a bad Config: keys %v", got)
	}
}

// Every problem of a Config is a *tenure.ConfigError keyed as the file
// spells it, all of them joined in one error.
func ExampleConfigError() {
	_, err := tenure.New(tenure.Config{
		Queues:    []tenure.Queue{{Name: "a", PreemptMinRuntime: "20x"}},
		Engine:    requeue.EngineConfig{MaxChecks: -1},
		Requeuing: backoff.Strategy{Backoff: backoff.Config{Base: 2 * time.Hour}},
	})
	var first *tenure.ConfigError
	if errors.As(err, &first) {
		fmt.Println("first:", first.Key)
	}
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		fmt.Println(e)
	}
	// Output:
	// first: queues[0].preemptMinRuntime
	// tenure: config.queues[0].preemptMinRuntime: runtime: queue "a": preemptMinRuntime: invalid duration "20x": unknown unit "x" (want ns, us, ms, s, m, h, d or w)
	// tenure: config.engine.maxChecks: requeue: negative MaxChecks -1 (0 means the default, 20000000)
	// tenure: config.requeuingStrategy.backoffBaseSeconds: backoff: base 2h0m0s exceeds max 1h0m0s
}

// TestConfigErrorKueueBlockEveryProblem: the problems inside a Kueue block
// of a file are each reported under its own full key, all at once.
func TestConfigErrorKueueBlockEveryProblem(t *testing.T) {
	for file, want := range map[string][]string{
		`{"preemptionProtection":{"fairSharing":{"minAdmitDuration":"x","y":1},"reclaimWithinCohort":{"minAdmitDuration":3},"z":{}}}`: {
			"preemptionProtection.fairSharing.minAdmitDuration", "preemptionProtection.fairSharing.y",
			"preemptionProtection.reclaimWithinCohort.minAdmitDuration", "preemptionProtection.z"},
		`{"preemption":{"withinClusterQueue":1,"withinClusterQueueConfig":{"minAdmitDuration":"-1m","y":1},"z":2}}`: {
			"preemption.withinClusterQueue", "preemption.withinClusterQueueConfig.minAdmitDuration",
			"preemption.withinClusterQueueConfig.y", "preemption.z"},
	} {
		var c tenure.Config
		got := configErrorKeys(t, json.Unmarshal([]byte(file), &c))
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: keys %q, want %q", file, got, want)
		}
	}
}
