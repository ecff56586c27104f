package expectedruntime_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
)

// ExampleKeys_Parse reads a job's requeue annotations the way the
// nominator does; bad values come back as *AnnotationError.
func ExampleKeys_Parse() {
	a := (expectedruntime.Keys{}).Parse(map[string]string{
		expectedruntime.AnnotationExpectedRuntime: "1d12h",
		expectedruntime.AnnotationRequeueDelay:    "0s",
		eligibility.AnnotationRequeueNotBefore:    "2025-01-15T10:30:00+02:00",
	})
	fmt.Println(a.Expected, a.HasDelay, a.Delay, a.NotBefore.UTC())

	bad := (expectedruntime.Keys{}).Parse(map[string]string{expectedruntime.AnnotationExpectedRuntime: "0s"})
	var ae *eligibility.AnnotationError
	fmt.Println(errors.As(bad.ExpectedErr, &ae), ae.Key, ae.Value)
	fmt.Println(bad.ExpectedErr)
	// Output:
	// 36h0m0s true 0s 2025-01-15 08:30:00 +0000 UTC
	// true kai.scheduler/expected-runtime 0s
	// eligibility: annotation "kai.scheduler/expected-runtime": invalid value "0s": must be positive
}

// ExampleKeysWithPrefix configures the nominator for a fork that uses its
// own annotation prefix.
func ExampleKeysWithPrefix() {
	n := expectedruntime.Nominator{Name: "maxruntime", Keys: expectedruntime.KeysWithPrefix("example.com/")}
	fmt.Println(n.Keys.ExpectedRuntime, n.Keys.RequeueNotBefore, n.Validate())
	// Output:
	// example.com/expected-runtime example.com/requeue-not-before <nil>
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
