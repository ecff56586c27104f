package eligibility_test

import (
	"errors"
	"fmt"

	"github.com/tenurepolicy/tenure/eligibility"
)

// ExampleAnnotationKeys_Parse reads a job's requeue annotations the way the
// nominator does; bad values come back as *AnnotationError.
func ExampleAnnotationKeys_Parse() {
	a := eligibility.DefaultAnnotationKeys().Parse(map[string]string{
		eligibility.AnnotationExpectedRuntime:  "1d12h",
		eligibility.AnnotationRequeueDelay:     "0s",
		eligibility.AnnotationRequeueNotBefore: "2025-01-15T10:30:00+02:00",
	})
	fmt.Println(a.Expected, a.HasDelay, a.Delay, a.NotBefore.UTC())

	bad := eligibility.DefaultAnnotationKeys().Parse(map[string]string{eligibility.AnnotationExpectedRuntime: "0s"})
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
	n := eligibility.Nominator{Name: "maxruntime", Keys: eligibility.KeysWithPrefix("example.com/")}
	fmt.Println(n.Keys.ExpectedRuntime, n.Keys.RequeueNotBefore, n.Validate())
	// Output:
	// example.com/expected-runtime example.com/requeue-not-before <nil>
}
