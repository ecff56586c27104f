package progress_test

import (
	"os"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/progress"
)

func ExampleMeter() {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := clock.Func(func() time.Time { return now })
	m := progress.New(os.Stdout, progress.Always, clk) // stdout here is no terminal
	now = now.Add(20 * time.Second)
	m.Update("priority", 40, 100)
	m.Finish()
	// Output: simulate: priority  40%  30s left (20s so far)
}
