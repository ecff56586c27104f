package stats

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func waits(n int) ([]Wait, []Value) {
	r := rand.New(rand.NewPCG(3, 4))
	ws, vs := make([]Wait, n), make([]Value, n)
	for i := range ws {
		x := float64(r.IntN(86400))
		c := r.IntN(10) == 0
		ws[i], vs[i] = Wait{x, !c}, Value{x, c}
	}
	return ws, vs
}

func BenchmarkQuantiles(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		ws, vs := waits(n)
		b.Run(fmt.Sprintf("KaplanMeier/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				KaplanMeierQuantile(ws, 0.95)
			}
		})
		b.Run(fmt.Sprintf("Percentile/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Percentile(vs, 0.95)
			}
		})
	}
}

func BenchmarkBootstrap(b *testing.B) {
	for _, n := range []int{10, 100} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(i * i % 97)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Bootstrap(xs, 2000, 0.95, 1)
			}
		})
	}
}
