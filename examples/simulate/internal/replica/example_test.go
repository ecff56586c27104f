package replica_test

import (
	"fmt"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/replica"
)

func ExampleFor() {
	base := replica.For(1, 1, 600)
	fmt.Println(base.Identity(), replica.Team("openb-pod-0017", 4, base.TeamSalt) == replica.Team("openb-pod-0017", 4, 0))
	other := replica.For(2, 1, 600)
	fmt.Println(other.Identity(), other.NodeSeed != 0, other.JitterMax)
	// Output:
	// true true
	// false true 600
}
