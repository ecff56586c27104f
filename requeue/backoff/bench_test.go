package backoff_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/requeue/backoff"
)

var backoffSink time.Duration

// BenchmarkBackoffDelay measures Delay over n = 1..64 (below, at and far
// above the default cap). Expect 0 allocs/op.
func BenchmarkBackoffDelay(b *testing.B) {
	c := backoff.Config{Limit: backoff.Limit(10)}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		backoffSink += c.Delay(i&63+1, 0)
	}
}

// backoffShared is a config an embedder keeps in its own struct.
var backoffShared = backoff.Config{Limit: backoff.Limit(10)}

// BenchmarkBackoffDelayShared is BenchmarkBackoffDelay with the config read
// from memory on every call, as an embedder holding it in a struct does:
// nothing can be folded at compile time.
func BenchmarkBackoffDelayShared(b *testing.B) {
	c := &backoffShared
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		backoffSink += c.Delay(i&63+1, 0)
	}
}

// BenchmarkBackoffDelayNaiveBig is the baseline: the same delay computed
// with big-integer arithmetic (the property tests' reference).
func BenchmarkBackoffDelayNaiveBig(b *testing.B) {
	max := big.NewInt(int64(backoff.DefaultMax))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		d := new(big.Int).Lsh(big.NewInt(int64(backoff.DefaultBase)), uint(i&63))
		if d.Cmp(max) > 0 {
			d = max
		}
		backoffSink += time.Duration(d.Int64())
	}
}

// BenchmarkRequeueStateTimeout measures one readiness-timeout transition.
func BenchmarkRequeueStateTimeout(b *testing.B) {
	c := backoff.Config{Limit: backoff.Limit(1 << 30)}
	s := backoff.State{}
	now := backoffT0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		next, _ := s.Timeout(c, now, 0.5)
		backoffSink += next.RequeueAt.Sub(now)
		s.Count = i & 31
	}
}

// BenchmarkBackoffDelayJitter adds the jitter from a caller-supplied draw.
func BenchmarkBackoffDelayJitter(b *testing.B) {
	c := backoff.Config{}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		backoffSink += c.Delay(i&63+1, 0.5)
	}
}
