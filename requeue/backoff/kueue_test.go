package backoff_test

import (
	"encoding/json"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/requeue/backoff"
)

func backoffI32(v int32) *int32   { return &v }
func backoffStr(s string) *string { return &s }
func backoffTS(s backoff.TimestampStrategy) *backoff.TimestampStrategy {
	return &s
}

func TestKueueRequeuingStrategyStrategy(t *testing.T) {
	tests := []struct {
		name    string
		k       backoff.KueueStrategy
		want    backoff.Strategy
		wantErr []string
	}{
		{"all unset is the defaults", backoff.KueueStrategy{}, backoff.Strategy{}, nil},
		{"all set", backoff.KueueStrategy{Timestamp: backoffStr("Creation"), BackoffBaseSeconds: backoffI32(10), BackoffMaxSeconds: backoffI32(600), BackoffLimitCount: backoffI32(5)},
			backoff.Strategy{Timestamp: backoffTS(backoff.TimestampCreation),
				Backoff: backoff.Config{Base: 10 * time.Second, Max: 10 * time.Minute, Limit: backoff.Limit(5)}}, nil},
		{"explicit Eviction kept apart from unset", backoff.KueueStrategy{Timestamp: backoffStr("Eviction")},
			backoff.Strategy{Timestamp: backoffTS(backoff.TimestampEviction)}, nil},
		{"limit zero kept", backoff.KueueStrategy{BackoffLimitCount: backoffI32(0)},
			backoff.Strategy{Backoff: backoff.Config{Limit: backoff.Limit(0)}}, nil},
		{"largest values", backoff.KueueStrategy{BackoffBaseSeconds: backoffI32(math.MaxInt32), BackoffMaxSeconds: backoffI32(math.MaxInt32)},
			backoff.Strategy{Backoff: backoff.Config{Base: math.MaxInt32 * time.Second, Max: math.MaxInt32 * time.Second}}, nil},
		{"base 0 is no delay", backoff.KueueStrategy{BackoffBaseSeconds: backoffI32(0)},
			backoff.Strategy{Backoff: backoff.Config{NoDelay: true}}, nil},
		{"max 0 is no cap", backoff.KueueStrategy{BackoffMaxSeconds: backoffI32(0)},
			backoff.Strategy{Backoff: backoff.Config{Uncapped: true}}, nil},
		{"base above max 0 is fine: no cap", backoff.KueueStrategy{BackoffBaseSeconds: backoffI32(7200), BackoffMaxSeconds: backoffI32(0)},
			backoff.Strategy{Backoff: backoff.Config{Base: 2 * time.Hour, Uncapped: true}}, nil},
		{"base and max 0", backoff.KueueStrategy{BackoffBaseSeconds: backoffI32(0), BackoffMaxSeconds: backoffI32(0)},
			backoff.Strategy{Backoff: backoff.Config{NoDelay: true, Uncapped: true}}, nil},
		// The one refusal: Kueue accepts base > max (and then waits longer
		// than max on the first requeue).
		{"base above default max", backoff.KueueStrategy{BackoffBaseSeconds: backoffI32(7200)}, backoff.Strategy{},
			[]string{"backoff: base 2h0m0s exceeds max 1h0m0s"}},
		{"base above max", backoff.KueueStrategy{BackoffBaseSeconds: backoffI32(61), BackoffMaxSeconds: backoffI32(60)}, backoff.Strategy{},
			[]string{"backoff: base 1m1s exceeds max 1m0s"}},
		{"timestamp spelt otherwise", backoff.KueueStrategy{Timestamp: backoffStr("creation")}, backoff.Strategy{},
			[]string{`backoff: timestamp: unsupported value "creation" (want Eviction or Creation)`}},
		{"empty timestamp", backoff.KueueStrategy{Timestamp: backoffStr("")}, backoff.Strategy{},
			[]string{`backoff: timestamp: unsupported value "" (want Eviction or Creation)`}},
		{"all negative and a bad timestamp", backoff.KueueStrategy{Timestamp: backoffStr("Now"), BackoffBaseSeconds: backoffI32(-1), BackoffMaxSeconds: backoffI32(-2), BackoffLimitCount: backoffI32(-3)},
			backoff.Strategy{}, []string{
				`backoff: timestamp: unsupported value "Now"`,
				"backoff: base must not be negative, got -1s",
				"backoff: backoff max must not be negative, got -2s",
				"backoff: backoff limit must not be negative, got -3",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.k.Strategy()
			backoffCheckErrors(t, err, tt.wantErr)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Strategy() mismatch (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			back, err := got.Kueue()
			if err != nil {
				t.Fatalf("Kueue() of an accepted strategy: %v", err)
			}
			if diff := cmp.Diff(tt.k, back); diff != "" {
				t.Errorf("round trip mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRequeuingStrategyKueueRefusals(t *testing.T) {
	tests := []struct {
		name    string
		s       backoff.Strategy
		wantErr []string
	}{
		{"sub-second base", backoff.Strategy{Backoff: backoff.Config{Base: 1500 * time.Millisecond}},
			[]string{"backoff: backoffBaseSeconds cannot express 1.5s"}},
		{"max beyond int32 seconds", backoff.Strategy{Backoff: backoff.Config{Max: (math.MaxInt32 + 1) * time.Second}},
			[]string{"backoff: backoffMaxSeconds cannot express"}},
		{"limit beyond int32", backoff.Strategy{Backoff: backoff.Config{Limit: backoff.Limit(math.MaxInt32 + 1)}},
			[]string{"backoff: backoffLimitCount cannot express 2147483648"}},
		{"no jitter", backoff.Strategy{Backoff: backoff.Config{NoJitter: true}},
			[]string{"backoff: Kueue's jitter is fixed at 0.0001"}},
		{"other jitter", backoff.Strategy{Backoff: backoff.Config{Jitter: 0.5}},
			[]string{"backoff: Kueue's jitter is fixed at 0.0001"}},
		{"unknown timestamp strategy", backoff.Strategy{Timestamp: backoffTS(7)},
			[]string{"backoff: unknown timestamp strategy 7"}},
		{"invalid backoff", backoff.Strategy{Backoff: backoff.Config{Base: 2 * time.Hour}},
			[]string{"backoff: base 2h0m0s exceeds max 1h0m0s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.s.Kueue()
			backoffCheckErrors(t, err, tt.wantErr)
			if diff := cmp.Diff(backoff.KueueStrategy{}, got); diff != "" {
				t.Errorf("Kueue() on error is not zero (-want +got):\n%s", diff)
			}
		})
	}
	// The default jitter spelt out is Kueue's and converts.
	if _, err := (backoff.Strategy{Backoff: backoff.Config{Jitter: backoff.DefaultJitter}}).Kueue(); err != nil {
		t.Errorf("explicit default jitter: %v", err)
	}
}

// kueueGenStrategy draws any Kueue strategy: each field unset or set, with
// valid and invalid values, zeros and extremes overrepresented.
func kueueGenStrategy(t *rapid.T) backoff.KueueStrategy {
	opt := func(label string) *int32 {
		if !rapid.Bool().Draw(t, label+"Set") {
			return nil
		}
		v := rapid.OneOf(
			rapid.Int32Range(-2, 4),
			rapid.Int32Range(0, 7200),
			rapid.SampledFrom([]int32{0, 60, 3600, math.MaxInt32, math.MinInt32}),
			rapid.Int32(),
		).Draw(t, label)
		return &v
	}
	var k backoff.KueueStrategy
	if rapid.Bool().Draw(t, "tsSet") {
		k.Timestamp = backoffStr(rapid.SampledFrom([]string{"Eviction", "Creation", "eviction", "", "Other"}).Draw(t, "ts"))
	}
	k.BackoffBaseSeconds = opt("base")
	k.BackoffMaxSeconds = opt("max")
	k.BackoffLimitCount = opt("limit")
	return k
}

// kueueWaitBackoff models k8s.io/apimachinery's wait.Backoff as Kueue uses
// it, step by step and in float arithmetic like the original: Step returns
// the current duration (plus its jitter), then multiplies the duration by
// the factor, and when the product passes a positive cap it becomes the cap
// and the steps run out; once they have, Step keeps returning the duration
// (plus jitter). The jitter of a duration d is d + u·jitter·d truncated,
// for a draw u in [0, 1) (wait.Jitter). Each of Kueue's steps draws anew;
// the model uses one draw u for all, which changes nothing but the jitter of
// the steps whose result Kueue throws away.
type kueueWaitBackoff struct {
	duration, cap  time.Duration
	factor, jitter float64
	steps          int
}

func (b *kueueWaitBackoff) step(u float64) time.Duration {
	jit := func(d time.Duration) time.Duration {
		if b.jitter <= 0 {
			return d
		}
		return d + time.Duration(u*b.jitter*float64(d))
	}
	if b.steps < 1 {
		return jit(b.duration)
	}
	b.steps--
	d := b.duration
	if b.factor != 0 {
		b.duration = time.Duration(float64(b.duration) * b.factor)
		if b.cap > 0 && b.duration > b.cap {
			b.duration, b.steps = b.cap, 0
		}
	}
	return jit(d)
}

// kueueCurrentDelay models current Kueue: pkg/util/wait NewBackoff(base,
// max, 2, 0.0001), whose cap is max or, when max is 0, MaxInt64 divided by
// the (ceiled) factor, and WaitTime(n), which steps n times (stopping early
// at a step that returns exactly the cap) and returns the last step. Seconds
// in, like UpdateRequeueState.
func kueueCurrentDelay(baseSeconds, maxSeconds int64, n int, u float64) time.Duration {
	const factor = 2.0
	capacity := time.Duration(maxSeconds) * time.Second
	if capacity == 0 {
		capacity = time.Duration(math.MaxInt64 / math.Ceil(factor))
	}
	b := kueueWaitBackoff{duration: time.Duration(baseSeconds) * time.Second, cap: capacity,
		factor: factor, jitter: 0.0001, steps: math.MaxInt}
	var d time.Duration
	for range n {
		if d = b.step(u); d == b.cap {
			break
		}
	}
	return d
}

// kueueClampedDelay models the older releases: a wait.Backoff without a cap
// stepped n times, each result clamped with min(step, max), the last one
// kept. Only valid while base·2^(n−1) stays within 2^62, below the float
// overflow those releases hit.
func kueueClampedDelay(baseSeconds, maxSeconds int64, n int, u float64) time.Duration {
	b := kueueWaitBackoff{duration: time.Duration(baseSeconds) * time.Second, factor: 2, jitter: 0.0001, steps: n}
	var d time.Duration
	for b.steps > 0 {
		d = min(b.step(u), time.Duration(maxSeconds)*time.Second)
	}
	return d
}

// kueueNoOverflow reports whether base·2^(n−1) seconds stays within 2^62 ns,
// where the older releases' float doubling is still exact.
func kueueNoOverflow(baseSeconds int64, n int) bool {
	d := new(big.Int).Lsh(big.NewInt(baseSeconds*int64(time.Second)), uint(n-1))
	return d.Cmp(new(big.Int).Lsh(big.NewInt(1), 62)) <= 0
}

// kueueDrawN draws a requeue count: small ones, and ones past every cap.
func kueueDrawN(t *rapid.T) int {
	return rapid.OneOf(rapid.IntRange(1, 40), rapid.IntRange(41, 140)).Draw(t, "n")
}

// TestKueueRequeuingStrategyRoundTrip is the differential property test of
// the Kueue conversion: Strategy accepts exactly what the oracle says Kueue
// accepts minus the documented refusal (base > max), the round trip
// reproduces the input exactly, and the delays are current Kueue's, jitter
// included (kueueCurrentDelay).
func TestKueueRequeuingStrategyRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := kueueGenStrategy(t)
		val := func(p *int32, def int64) int64 {
			if p == nil {
				return def
			}
			return int64(*p)
		}
		base, max, limit := val(k.BackoffBaseSeconds, 60), val(k.BackoffMaxSeconds, 3600), val(k.BackoffLimitCount, 0)
		tsOK := k.Timestamp == nil || *k.Timestamp == "Eviction" || *k.Timestamp == "Creation"
		kueueAccepts := tsOK && base >= 0 && max >= 0 && limit >= 0
		refused := base > 0 && max > 0 && base > max
		s, err := k.Strategy()
		if (err == nil) != (kueueAccepts && !refused) {
			t.Fatalf("Strategy(%s) error = %v; Kueue accepts %v, tenure refuses base>max %v", kueueFormat(k), err, kueueAccepts, refused)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "backoff: ") {
				t.Fatalf("error %q does not start with the package name", err)
			}
			if refused && kueueAccepts && !strings.Contains(err.Error(), "exceeds max") {
				t.Fatalf("refusal of base > max not explained: %v", err)
			}
			return
		}
		back, err := s.Kueue()
		if err != nil {
			t.Fatalf("Kueue() of %+v: %v", s, err)
		}
		if diff := cmp.Diff(k, back); diff != "" {
			t.Fatalf("round trip of %s mismatch (-want +got):\n%s", kueueFormat(k), diff)
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted strategy fails Validate: %v", err)
		}
		// The delays are current Kueue's, jitter included, to the
		// nanosecond (and, past the cap, constant).
		n, u := kueueDrawN(t), rapid.Float64Range(0, math.Nextafter(1, 0)).Draw(t, "u")
		if got, want := s.Backoff.Delay(n, u), kueueCurrentDelay(base, max, n, u); got != want {
			t.Fatalf("%s: DelayJitter(%d, %v) = %d, Kueue's %d", kueueFormat(k), n, u, got, want)
		}
		if got, want := s.Backoff.Delay(n, 0), kueueCurrentDelay(base, max, n, 0); got != want {
			t.Fatalf("%s: Delay(%d) = %d, Kueue's %d", kueueFormat(k), n, got, want)
		}
		if got, want := s.Backoff.Delay(math.MaxInt, u), kueueCurrentDelay(base, max, 140, u); got != want {
			t.Fatalf("%s: DelayJitter(MaxInt, %v) = %d, Kueue's after 140 steps %d", kueueFormat(k), u, got, want)
		}
		wantTS := backoff.TimestampEviction
		if k.Timestamp != nil && *k.Timestamp == "Creation" {
			wantTS = backoff.TimestampCreation
		}
		if got := s.QueueOrder().Strategy; got != wantTS {
			t.Fatalf("QueueOrder().Strategy = %v, want %v", got, wantTS)
		}
		if (s.Backoff.Limit == nil) != (k.BackoffLimitCount == nil) {
			t.Fatalf("limit set %v, Kueue's %v", s.Backoff.Limit != nil, k.BackoffLimitCount != nil)
		}
	})
}

func kueueFormat(k backoff.KueueStrategy) string {
	f := func(p *int32) string {
		if p == nil {
			return "nil"
		}
		return strconv.Itoa(int(*p))
	}
	ts := "nil"
	if k.Timestamp != nil {
		ts = strconv.Quote(*k.Timestamp)
	}
	return "{timestamp:" + ts + " base:" + f(k.BackoffBaseSeconds) + " max:" + f(k.BackoffMaxSeconds) + " limit:" + f(k.BackoffLimitCount) + "}"
}

// strategyFromJSON reads Kueue's requeuingStrategy object and converts it.
func strategyFromJSON(doc string) (backoff.Strategy, error) {
	var k backoff.KueueStrategy
	if err := json.Unmarshal([]byte(doc), &k); err != nil {
		return backoff.Strategy{}, err
	}
	return k.Strategy()
}

// FuzzKueueStrategyOracle checks Kueue's JSON form against an independent
// oracle: an object is accepted exactly when its keys are Kueue's, its
// numbers are non-negative 32-bit JSON integers, its timestamp is Eviction
// or Creation, and it does not set base > max (after defaults, a zero max
// meaning no cap); an accepted object converts back to the same values.
func FuzzKueueStrategyOracle(f *testing.F) {
	f.Add("60", "3600", "10", "Eviction", "")
	f.Add("", "", "", "", "")
	f.Add("0", "-1", "x", "eviction", "backoffFoo")
	f.Add("7200", "", "2147483648", "Creation", "")
	f.Add("1", "0", "0", "", "")
	f.Fuzz(func(t *testing.T, base, max, limit, ts, extraKey string) {
		// An empty value here means "key absent"; extraKey (if any) is set
		// to 1, overriding a known key.
		known := true
		switch extraKey {
		case "":
		case "backoffBaseSeconds":
			base = "1"
		case "backoffMaxSeconds":
			max = "1"
		case "backoffLimitCount":
			limit = "1"
		case "timestamp":
			ts = "1"
		default:
			known = false
		}
		var members []string
		for _, kv := range [][2]string{{"backoffBaseSeconds", base}, {"backoffMaxSeconds", max}, {"backoffLimitCount", limit}} {
			if kv[1] != "" {
				members = append(members, strconv.Quote(kv[0])+":"+kv[1])
			}
		}
		if ts != "" {
			if ts == "1" && extraKey == "timestamp" {
				members = append(members, `"timestamp":1`)
			} else {
				q, _ := json.Marshal(ts)
				members = append(members, `"timestamp":`+string(q))
			}
		}
		if !known {
			q, _ := json.Marshal(extraKey)
			members = append(members, string(q)+":1")
		}
		doc := "{" + strings.Join(members, ",") + "}"
		got, err := strategyFromJSON(doc)

		// Oracle: encoding/json's reading of a number into an int32.
		parse := func(s string, def int64) (int64, bool) {
			if s == "" {
				return def, true
			}
			var v int32
			err := json.Unmarshal([]byte(s), &v)
			return int64(v), err == nil
		}
		b, okB := parse(base, 60)
		x, okX := parse(max, 3600)
		l, okL := parse(limit, 0)
		okT := ts == "" || (ts == "Eviction" || ts == "Creation") && extraKey != "timestamp"
		valid := known && okB && okX && okL && okT && b >= 0 && x >= 0 && l >= 0 && !(b > 0 && x > 0 && b > x)
		if !utf8.ValidString(extraKey) || !utf8.ValidString(ts) {
			return // json.Marshal replaces invalid UTF-8: the oracle would see another key
		}

		if err != nil {
			if valid {
				t.Fatalf("%s: error %v, want ok", doc, err)
			}
			if diff := cmp.Diff(backoff.Strategy{}, got); diff != "" {
				t.Fatalf("strategy on error is not zero (-want +got):\n%s", diff)
			}
			return
		}
		if !valid {
			t.Fatalf("%s = %+v, want an error", doc, got)
		}
		k, err := got.Kueue()
		if err != nil {
			t.Fatalf("accepted strategy does not convert back: %v", err)
		}
		for _, c := range []struct {
			in  string
			out *int32
		}{{base, k.BackoffBaseSeconds}, {max, k.BackoffMaxSeconds}, {limit, k.BackoffLimitCount}} {
			v, _ := parse(c.in, 0)
			if (c.in == "") != (c.out == nil) || c.out != nil && int64(*c.out) != v {
				t.Fatalf("round trip of %s gave %s", doc, kueueFormat(k))
			}
		}
		if (ts == "") != (k.Timestamp == nil) || k.Timestamp != nil && *k.Timestamp != ts {
			t.Fatalf("round trip of %s gave %s", doc, kueueFormat(k))
		}
	})
}

// TestKueueClampedStrategy is the differential property test of the older
// releases' reading: ClampedStrategy accepts every configuration those
// releases accept (base > max included), and its delays are theirs
// (kueueClampedDelay), jitter included, wherever they did not overflow;
// past the overflow tenure's delay stays at the max. Converted back, the
// fields read the same way.
func TestKueueClampedStrategy(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := kueueGenStrategy(t)
		val := func(p *int32, def int64) int64 {
			if p == nil {
				return def
			}
			return int64(*p)
		}
		base, max, limit := val(k.BackoffBaseSeconds, 60), val(k.BackoffMaxSeconds, 3600), val(k.BackoffLimitCount, 0)
		tsOK := k.Timestamp == nil || *k.Timestamp == "Eviction" || *k.Timestamp == "Creation"
		kueueAccepts := tsOK && base >= 0 && max >= 0 && limit >= 0
		s, err := k.ClampedStrategy()
		if (err == nil) != kueueAccepts {
			t.Fatalf("ClampedStrategy(%s) error = %v; Kueue accepts %v", kueueFormat(k), err, kueueAccepts)
		}
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted strategy fails Validate: %v", err)
		}
		if !s.Backoff.ClampToMax {
			t.Fatalf("ClampedStrategy(%s) does not clamp: %+v", kueueFormat(k), s.Backoff)
		}
		n, u := kueueDrawN(t), rapid.Float64Range(0, math.Nextafter(1, 0)).Draw(t, "u")
		got := s.Backoff.Delay(n, u)
		if base == 0 || kueueNoOverflow(base, n) {
			if want := kueueClampedDelay(base, max, n, u); got != want {
				t.Fatalf("%s: DelayJitter(%d, %v) = %d, the older releases' %d", kueueFormat(k), n, u, got, want)
			}
		} else if got != time.Duration(max)*time.Second {
			t.Fatalf("%s: DelayJitter(%d, %v) = %d past the overflow, want the max", kueueFormat(k), n, u, got)
		}
		back, err := s.Kueue()
		if err != nil {
			t.Fatalf("Kueue() of %+v: %v", s, err)
		}
		again, err := back.ClampedStrategy()
		if err != nil {
			t.Fatalf("ClampedStrategy(Kueue()) of %s: %v", kueueFormat(back), err)
		}
		if diff := cmp.Diff(s, again); diff != "" {
			t.Fatalf("%s -> %s reads differently (-first +again):\n%s", kueueFormat(k), kueueFormat(back), diff)
		}
	})
}

// TestKueueClampedStrategyCases pins the three differences from current
// Kueue's reading.
func TestKueueClampedStrategyCases(t *testing.T) {
	tests := []struct {
		name       string
		k          backoff.KueueStrategy
		clamped    backoff.Config
		current    backoff.Config // zero: Strategy refuses
		n          int
		u          float64
		wantOld    time.Duration
		wantRecent time.Duration
	}{
		{"max 0: no delay, versus no cap", backoff.KueueStrategy{BackoffMaxSeconds: backoffI32(0)},
			backoff.Config{NoDelay: true, ClampToMax: true}, backoff.Config{Uncapped: true},
			3, 0.5, 0, 240*time.Second + 12*time.Millisecond},
		{"base above max: the max, versus refused", backoff.KueueStrategy{BackoffBaseSeconds: backoffI32(600), BackoffMaxSeconds: backoffI32(300)},
			backoff.Config{Base: 600 * time.Second, Max: 300 * time.Second, ClampToMax: true}, backoff.Config{},
			1, 0.5, 300 * time.Second, 0},
		{"capped delay: exactly the max, versus the max plus jitter", backoff.KueueStrategy{},
			backoff.Config{ClampToMax: true}, backoff.Config{},
			9, 0.5, time.Hour, time.Hour + 180*time.Millisecond},
		{"below the cap: the same", backoff.KueueStrategy{},
			backoff.Config{ClampToMax: true}, backoff.Config{},
			2, 0.5, 120*time.Second + 6*time.Millisecond, 120*time.Second + 6*time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.k.ClampedStrategy()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.clamped, s.Backoff); diff != "" {
				t.Errorf("ClampedStrategy backoff (-want +got):\n%s", diff)
			}
			if got := s.Backoff.Delay(tt.n, tt.u); got != tt.wantOld {
				t.Errorf("clamped DelayJitter(%d, %v) = %v, want %v", tt.n, tt.u, got, tt.wantOld)
			}
			cur, err := tt.k.Strategy()
			if tt.wantRecent == 0 {
				if err == nil || !strings.Contains(err.Error(), "exceeds max") {
					t.Errorf("Strategy() = %+v, %v; want the base-above-max refusal", cur, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.current, cur.Backoff); diff != "" {
				t.Errorf("Strategy backoff (-want +got):\n%s", diff)
			}
			if got := cur.Backoff.Delay(tt.n, tt.u); got != tt.wantRecent {
				t.Errorf("current DelayJitter(%d, %v) = %v, want %v", tt.n, tt.u, got, tt.wantRecent)
			}
		})
	}
}

// TestBackoffDocNamesKueueReleases: the package doc says which Kueue
// computation the backoff follows.
func TestBackoffDocNamesKueueReleases(t *testing.T) {
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(strings.ReplaceAll(string(b), "//", " ")), " ")
	for _, p := range []string{
		"tenure follows current Kueue", "pkg/util/wait NewBackoff(base, max, 2, 0.0001)", "UpdateRequeueState (pkg/workload)",
		"a zero max becomes the cap MaxInt64/2", "the jitter is added after the cap",
	} {
		if !strings.Contains(text, p) {
			t.Errorf("doc.go does not say %q", p)
		}
	}
}
