package tenure_test

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// cfgSet reports, rarely enough that most drawn Configs are writable,
// whether to set a field.

// kueueJitter is Kueue's fixed jitter fraction, backoff.Config's default.
const kueueJitter = 0.0001

func cfgSet(t *rapid.T, label string) bool { return rapid.IntRange(0, 4).Draw(t, label+".set") == 0 }

func cfgGenDur(t *rapid.T, label string) time.Duration {
	if !cfgSet(t, label) {
		return 0
	}
	return rapid.SampledFrom([]time.Duration{1, time.Second, 1500 * time.Millisecond, time.Minute, 24 * time.Hour, -time.Second}).Draw(t, label)
}

func cfgGenDurPtr(t *rapid.T, label string) *time.Duration {
	if rapid.Bool().Draw(t, label+".nil") {
		return nil
	}
	d := cfgGenDur(t, label)
	return &d
}

// cfgGen draws a Config with every file-borne field, valid or not.
func cfgGen(t *rapid.T) tenure.Config {
	var c tenure.Config
	for i, n := 0, rapid.IntRange(0, 3).Draw(t, "queues"); i < n; i++ {
		c.Queues = append(c.Queues, tenure.Queue{Name: rapid.StringN(0, 3, -1).Draw(t, "name"), Parent: rapid.StringN(0, 3, -1).Draw(t, "parent"),
			PreemptMinRuntime: rapid.SampledFrom([]string{"", "0s", "1h", "x"}).Draw(t, "p"), ReclaimMinRuntime: rapid.SampledFrom([]string{"", "1d"}).Draw(t, "r")})
	}
	if rapid.Bool().Draw(t, "args") {
		c.MinRuntimeArgs = map[string]string{rapid.SampledFrom([]string{"reclaimResolveMethod", "typo"}).Draw(t, "argk"): rapid.StringN(0, 3, -1).Draw(t, "argv")}
	}
	c.AnnotationKeys = expectedruntime.Keys{ExpectedRuntime: rapid.SampledFrom([]string{"", "e"}).Draw(t, "ake"),
		RequeueDelay: rapid.SampledFrom([]string{"", "k"}).Draw(t, "ak"), RequeueNotBefore: rapid.SampledFrom([]string{"", "n"}).Draw(t, "akn"),
		LastCheckpoint: rapid.SampledFrom([]string{"", "c", "k"}).Draw(t, "akc")}
	c.NominatorName = rapid.SampledFrom([]string{"", "n"}).Draw(t, "nom")
	bound := func(label string) int { return rapid.IntRange(-1, 3).Draw(t, label) }
	c.Engine = requeue.EngineConfig{Name: rapid.SampledFrom([]string{"", "e"}).Draw(t, "en"), DefaultDelay: cfgGenDur(t, "dd"),
		MaxVictims: bound("mv"), MaxAttempts: bound("ma"), MaxFillFailures: bound("mff"), MaxChecks: bound("mc")}
	if cfgSet(t, "mlw") {
		c.Engine.MaxLostWork = rapid.SampledFrom([]float64{0.1, 3600, 1e300, -1, math.NaN(), math.Inf(1)}).Draw(t, "mlwv")
	}
	c.AllowProtectedRequeue = rapid.Bool().Draw(t, "allow")
	c.FailOpenUnknownQueues = rapid.Bool().Draw(t, "failopen")
	if rapid.Bool().Draw(t, "ts") {
		ts := backoff.TimestampStrategy(rapid.IntRange(0, 2).Draw(t, "tsv"))
		c.Requeuing.Timestamp = &ts
	}
	c.Requeuing.Backoff = backoff.Config{Base: cfgGenDur(t, "base"), Max: cfgGenDur(t, "max"),
		NoDelay: cfgSet(t, "nodelay"), Uncapped: cfgSet(t, "uncapped"), NoJitter: cfgSet(t, "nojitter"), ClampToMax: cfgSet(t, "clamp")}
	if cfgSet(t, "jit") {
		c.Requeuing.Backoff.Jitter = rapid.SampledFrom([]float64{kueueJitter, 0.5}).Draw(t, "jitv")
	}
	if rapid.Bool().Draw(t, "limit") {
		limit := rapid.IntRange(-1, 3).Draw(t, "limitv")
		c.Requeuing.Backoff.Limit = &limit
	}
	c.Preemption = timebased.Config{Policy: timebased.Policy(rapid.IntRange(0, 3).Draw(t, "pol")), MinAdmitDuration: cfgGenDurPtr(t, "mad"),
		TimestampPreemptionBuffer: cfgSet(t, "buf")}
	c.Protection = admitprotect.Protection{FairSharing: cfgGenDurPtr(t, "fs"), ReclaimWithinCohort: cfgGenDurPtr(t, "rc")}
	c.PreemptorDelay.Delay = cfgGenDur(t, "delay")
	c.EvictionBudget = evictionbudget.Budget{Max: rapid.IntRange(-1, 3).Draw(t, "bmax"), Window: cfgGenDur(t, "bw"), Key: rapid.SampledFrom([]string{"", "k"}).Draw(t, "bk")}
	return c
}

// TestConfigJSONNeverLosesSilently: for any Config, writing it either
// fails or reads back to exactly the same Config; and a Config New
// accepts is always writable unless it uses one of the documented
// settings the file form cannot hold.
func TestConfigJSONNeverLosesSilently(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := cfgGen(t)
		data, err := tenure.MarshalConfig(c)
		if err != nil {
			return
		}
		var back tenure.Config
		if err := json.Unmarshal(data, &back); err != nil {
			if _, nerr := tenure.New(c); nerr == nil {
				t.Fatalf("a valid Config wrote %s, which does not read back: %v", data, err)
			}
			return
		}
		// Kueue's jitter is fixed: an explicit 0.0001 reads back as
		// 0, which means the same.
		if c.Requeuing.Backoff.Jitter == kueueJitter {
			c.Requeuing.Backoff.Jitter = 0
		}
		if diff := cmp.Diff(c, back, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s reads back differently (-want +got):\n%s", data, diff)
		}
	})
}
