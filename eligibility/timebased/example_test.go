package timebased_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/timebased"
)

// KEP-8522's story 1: with minAdmitDuration 4h, a job admitted at 09:00 is
// protected from an equal-priority job that arrived later until strictly
// after 13:00.
func ExampleConfig_Classify() {
	minAdmit := 4 * time.Hour
	cfg := timebased.Config{
		Policy:           timebased.LowerOrNewerEqualPriority,
		MinAdmitDuration: &minAdmit,
	}
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	t0 := time.Date(2026, 2, 2, 9, 0, 0, 0, time.UTC)
	running := timebased.Candidate{ID: "team-a/train", Priority: 10, Reserved: t0}
	pending := timebased.Request{Priority: 10, Timestamp: t0.Add(5 * time.Minute)}

	for _, now := range []time.Time{t0.Add(time.Hour), t0.Add(4 * time.Hour), t0.Add(4*time.Hour + time.Second)} {
		d := cfg.Classify(pending, running, now)
		fmt.Printf("%s: %v preemptible=%v", now.Format("15:04:05"), d.Reason, d.Allowed)
		if !d.Until.IsZero() {
			fmt.Printf(" until %s", d.Until.Format(time.RFC3339Nano))
		}
		fmt.Println()
	}
	// Output:
	// 10:00:00: protected preemptible=false until 2026-02-02T13:00:00.000000001Z
	// 13:00:00: protected preemptible=false until 2026-02-02T13:00:00.000000001Z
	// 13:00:01: expired preemptible=true
}

// Sort puts the preemptible candidates in preemption order; each
// decision's Reason is its class's label.
func ExampleSort() {
	minAdmit := 2 * time.Hour
	cfg := timebased.Config{
		Policy:           timebased.LowerOrNewerEqualPriority,
		MinAdmitDuration: &minAdmit,
	}
	t0 := time.Date(2026, 2, 2, 9, 0, 0, 0, time.UTC)
	now := t0.Add(6 * time.Hour)
	pending := timebased.Request{Priority: 10, Timestamp: t0.Add(3 * time.Hour)}
	running := []timebased.Candidate{
		{ID: "newer-1", Priority: 10, Reserved: t0.Add(5 * time.Hour)},
		{ID: "newer-2", Priority: 10, Reserved: t0.Add(5*time.Hour + 30*time.Minute)},
		{ID: "long-1", Priority: 10, Reserved: t0},
		{ID: "long-2", Priority: 10, Reserved: t0.Add(time.Hour)},
		{ID: "batch", Priority: 1, Reserved: t0.Add(5 * time.Hour)},
		{ID: "fresh-old", Priority: 10, Reserved: t0.Add(2 * time.Hour)}, // before the preemptor arrived
		{ID: "urgent", Priority: 50, Reserved: t0},
	}
	var preemptible []timebased.Decision
	for _, c := range running {
		if d := cfg.Classify(pending, c, now); d.Allowed {
			preemptible = append(preemptible, d)
		}
	}
	timebased.Sort(preemptible)
	for _, d := range preemptible {
		fmt.Printf("%-9s %s\n", d.Candidate.ID, d.Reason)
	}
	// Output:
	// batch     lower_priority
	// long-1    expired
	// long-2    expired
	// fresh-old expired
	// newer-2   newer
	// newer-1   newer
}

// Validate applies KEP-8522's validation rules and reports every problem.
func ExampleConfig_Validate() {
	minAdmit := 30 * time.Second
	cfg := timebased.Config{
		Policy:           timebased.LowerPriority,
		MinAdmitDuration: &minAdmit,
	}
	fmt.Println(cfg.Validate())
	// Output:
	// eligibility: minAdmitDuration must be at least 1m0s, got 30s
	// eligibility: minAdmitDuration is only valid with policy LowerOrNewerEqualPriority, not LowerPriority
}

// A Config reads Kueue's shape, where KEP-8522's rule 3
// applies: the withinClusterQueueConfig block is an error unless the policy
// is LowerOrNewerEqualPriority, even when it sets nothing.
func ExampleConfig_UnmarshalJSON() {
	var cfg timebased.Config
	err := json.Unmarshal([]byte(`{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"4h"}}`), &cfg)
	fmt.Println(cfg.Policy == timebased.LowerOrNewerEqualPriority, *cfg.MinAdmitDuration, err)

	err = json.Unmarshal([]byte(`{"withinClusterQueue":"LowerPriority","withinClusterQueueConfig":{}}`), &cfg)
	fmt.Println(err)
	// Output:
	// true 4h0m0s <nil>
	// eligibility: withinClusterQueueConfig is only valid with withinClusterQueue LowerOrNewerEqualPriority, not LowerPriority
}
