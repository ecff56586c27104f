package expectedruntime_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
)

// ExampleKeys configures the nominator for a fork that renames some of
// KAI's annotations; the others keep KAI's keys.
func ExampleKeys() {
	n := expectedruntime.Nominator{Name: "maxruntime", Keys: expectedruntime.Keys{
		ExpectedRuntime:  "example.com/expected-runtime",
		RequeueNotBefore: "example.com/requeue-not-before",
	}}
	fmt.Println(n.Validate())
	// Output:
	// <nil>
}

// ExampleNomination_lastCheckpoint: a nomination carries the job's last
// checkpoint, from which the requeue engine counts the work an eviction
// loses; a checkpoint after now is not believed, and a bad value is a skip.
func ExampleNomination_lastCheckpoint() {
	start := time.Date(2025, 1, 15, 10, 0, 0, 0, time.UTC)
	now := start.Add(5 * time.Hour)
	job := func(id, checkpoint string) eligibility.Job {
		return eligibility.Job{ID: id, Running: true, Preemptible: true, Start: start, Annotations: map[string]string{
			expectedruntime.AnnotationExpectedRuntime: "4h",
			expectedruntime.AnnotationLastCheckpoint:  checkpoint,
		}}
	}
	res := (&expectedruntime.Nominator{}).Nominate([]eligibility.Job{
		job("saved", "2025-01-15T14:45:00+01:00"),
		job("ahead", "2025-01-15T16:00:00Z"),
		job("garbled", "a while ago"),
	}, now)
	for _, n := range res.Nominations {
		fmt.Println(n.ID, n.LastCheckpoint.IsZero(), n.LastCheckpoint)
	}
	for _, s := range res.Skips {
		fmt.Println(s.Job, s.Reason)
	}
	// Output:
	// saved false 2025-01-15 13:45:00 +0000 UTC
	// ahead true 0001-01-01 00:00:00 +0000 UTC
	// garbled invalid_last_checkpoint
}
