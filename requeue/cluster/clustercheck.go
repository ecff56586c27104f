package cluster

import "github.com/tenurepolicy/tenure/requeue/internal/clustercheck"

func init() {
	clustercheck.Check = func(m any) error { return m.(*Model).check() }
}
