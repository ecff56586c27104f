package eligibility_test

import (
	"testing"

	"github.com/tenurepolicy/tenure/eligibility"
)

func TestJobLoadSubgroups(t *testing.T) {
	sgs := []eligibility.Subgroup{{Name: "a", MinAvailable: 2, Active: 2}}
	calls := 0
	lazy := eligibility.Job{SubgroupsFunc: func() []eligibility.Subgroup { calls++; return sgs }}
	if got := lazy.LoadSubgroups(); len(got) != 1 || calls != 1 {
		t.Errorf("lazy: %v after %d calls", got, calls)
	}
	eager := eligibility.Job{Subgroups: sgs, SubgroupsFunc: func() []eligibility.Subgroup { t.Error("SubgroupsFunc called although Subgroups is set"); return nil }}
	if got := eager.LoadSubgroups(); len(got) != 1 {
		t.Errorf("eager: %v", got)
	}
	var zero eligibility.Job
	if zero.LoadSubgroups() != nil {
		t.Error("zero job has subgroups")
	}
}
