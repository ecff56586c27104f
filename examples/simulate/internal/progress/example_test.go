package progress_test

import (
	"os"
	"time"

	"github.com/tenurepolicy/tenure/clock/clocktest"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/progress"
)

func ExampleMeter() {
	clk := clocktest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	m := progress.New(os.Stdout, progress.Always, clk) // stdout here is no terminal
	clk.Step(20 * time.Second)
	m.Update("priority", 40, 100)
	m.Finish()
	// Output: simulate: priority  40%  30s left (20s so far)
}
