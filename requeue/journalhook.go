package requeue

import "github.com/tenurepolicy/tenure/requeue/internal/journalhook"

func init() {
	journalhook.Len = func(j any) int { return j.(*Journal).len() }
	journalhook.Valid = func(j, cp any) bool { return j.(*Journal).check(cp.(Checkpoint)) == nil }
}
