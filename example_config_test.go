package tenure_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
	"github.com/tenurepolicy/tenure/requeue"
)

// A full configuration read from a file (a ConfigMap's data, say): KAI's
// queue fields and plugin arguments, Kueue's requeuing strategy, KEP-8522's
// within-queue preemption and KEP-9876's protection in their own spelling,
// then one cycle that consults every policy.
func ExampleConfig_UnmarshalJSON() {
	file := []byte(`{
	  "queues": [
	    {"name": "org", "reclaimMinRuntime": "1h"},
	    {"name": "team-a", "parentQueue": "org", "preemptMinRuntime": "20m"}
	  ],
	  "minRuntimeArgs": {"defaultPreemptMinRuntime": "5m", "reclaimResolveMethod": "lca"},
	  "engine": {"defaultDelay": "30m", "maxVictims": 8},
	  "requeuingStrategy": {"timestamp": "Eviction", "backoffLimitCount": 5, "backoffBaseSeconds": 60, "backoffMaxSeconds": 3600},
	  "preemption": {"withinClusterQueue": "LowerOrNewerEqualPriority", "withinClusterQueueConfig": {"minAdmitDuration": "4h"}},
	  "preemptionProtection": {"fairSharing": {"minAdmitDuration": "1h"}, "reclaimWithinCohort": {"minAdmitDuration": "10m"}},
	  "preemptorDelay": "30s",
	  "evictionBudget": {"maxEvictions": 3, "window": "6h"}
	}`)
	var cfg tenure.Config
	if err := json.Unmarshal(file, &cfg); err != nil {
		fmt.Println(err)
		return
	}
	cfg.Observer = eligibility.ObserverFunc(func(e eligibility.Event) { /* your metrics */ }) // callbacks are set in code
	p, err := tenure.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	c := p.BeginAt(now)
	fmt.Println("backoff:", cfg.Requeuing.Backoff.Delay(3, 0), "limit", *cfg.Requeuing.Backoff.Limit)
	fmt.Println("reclaim 5m after admission:", c.CheckAdmitted(admitprotect.InCohortReclamation, now.Add(-5*time.Minute), false))
	fmt.Println("contender queued 10s ago:", c.CheckPreemptor(&requeue.Contender{Queued: now.Add(-10 * time.Second)}))
	fmt.Println("wake:", c.Wake().Format(time.TimeOnly))

	var typo tenure.Config
	fmt.Println(json.Unmarshal([]byte(`{"preemptionProtection": {"fairsharing": {}}}`), &typo))

	// Every problem is a *tenure.ConfigError with its key path.
	err = json.Unmarshal([]byte(`{"preemptionProtection": {"fairSharing": {"minAdmitDuration": "0s"}}}`), &typo)
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var ce *tenure.ConfigError
		if errors.As(e, &ce) {
			fmt.Println(ce.Key)
		}
	}
	// Output:
	// backoff: 4m0s limit 5
	// reclaim 5m after admission: denied (min_admit_protected) until 2026-03-02T12:05:00Z
	// contender queued 10s ago: denied (preemptor_delay) until 2026-03-02T12:00:20Z
	// wake: 12:00:20
	// tenure: config.preemptionProtection.fairsharing: eligibility: preemptionProtection: unknown key "fairsharing" (want fairSharing, reclaimWithinCohort)
	// preemptionProtection.fairSharing.minAdmitDuration
}
