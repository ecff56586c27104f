package stats_test

import (
	"fmt"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/stats"
)

func ExamplePercentile() {
	waits := []stats.Value{stats.Exact(1), stats.Exact(2), stats.AtLeast(3), stats.Exact(9)}
	fmt.Println(stats.Percentile(waits, 0.5).Format(0))
	fmt.Println(stats.Percentile(waits, 0.75).Format(0))
	// Output:
	// 2
	// ≥3
}

func ExampleHolm() {
	// Three of four comparisons pass 0.05 alone; Holm keeps two.
	_, rejected := stats.Holm([]float64{0.04, 0.01, 0.03, 0.005}, 0.05)
	fmt.Println(rejected)
	// Output: [false true false true]
}

func ExampleKaplanMeierQuantile() {
	ws := []stats.Wait{{Len: 1, Ended: true}, {Len: 2, Ended: false}, {Len: 3, Ended: true}, {Len: 4, Ended: false}}
	fmt.Println(stats.KaplanMeierQuantile(ws, 0.25).Format(0))
	fmt.Println(stats.KaplanMeierQuantile(ws, 0.9).Format(0))
	// Output:
	// 1
	// ≥4
}
