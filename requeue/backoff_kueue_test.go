package requeue_test

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/requeue"
)

func backoffI32(v int32) *int32 { return &v }

func TestBackoffKueueFieldsConfig(t *testing.T) {
	tests := []struct {
		name    string
		f       requeue.BackoffKueueFields
		want    requeue.BackoffConfig
		wantErr []string
	}{
		{"all unset is the defaults", requeue.BackoffKueueFields{}, requeue.BackoffConfig{}, nil},
		{"all set", requeue.BackoffKueueFields{BackoffBaseSeconds: backoffI32(10), BackoffMaxSeconds: backoffI32(600), BackoffLimitCount: backoffI32(5)},
			requeue.BackoffConfig{Base: 10 * time.Second, Max: 10 * time.Minute, Limit: requeue.BackoffLimit(5)}, nil},
		{"limit zero kept", requeue.BackoffKueueFields{BackoffLimitCount: backoffI32(0)},
			requeue.BackoffConfig{Limit: requeue.BackoffLimit(0)}, nil},
		{"largest values", requeue.BackoffKueueFields{BackoffBaseSeconds: backoffI32(math.MaxInt32), BackoffMaxSeconds: backoffI32(math.MaxInt32)},
			requeue.BackoffConfig{Base: math.MaxInt32 * time.Second, Max: math.MaxInt32 * time.Second}, nil},
		{"explicit zero base", requeue.BackoffKueueFields{BackoffBaseSeconds: backoffI32(0)}, requeue.BackoffConfig{},
			[]string{"requeue: backoffBaseSeconds must be at least 1, got 0"}},
		{"explicit zero max", requeue.BackoffKueueFields{BackoffMaxSeconds: backoffI32(0)}, requeue.BackoffConfig{},
			[]string{"requeue: backoffMaxSeconds must be at least 1, got 0"}},
		{"base above default max", requeue.BackoffKueueFields{BackoffBaseSeconds: backoffI32(7200)}, requeue.BackoffConfig{},
			[]string{"requeue: backoff base 2h0m0s exceeds max 1h0m0s"}},
		{"all negative", requeue.BackoffKueueFields{BackoffBaseSeconds: backoffI32(-1), BackoffMaxSeconds: backoffI32(-2), BackoffLimitCount: backoffI32(-3)},
			requeue.BackoffConfig{}, []string{
				"requeue: backoff base must not be negative, got -1s",
				"requeue: backoff max must not be negative, got -2s",
				"requeue: backoff limit must not be negative, got -3",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.f.Config()
			backoffCheckErrors(t, err, tt.wantErr)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Config() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBackoffFromKueueMap(t *testing.T) {
	tests := []struct {
		name    string
		m       map[string]string
		want    requeue.BackoffConfig
		wantErr []string
	}{
		{"nil map is the defaults", nil, requeue.BackoffConfig{}, nil},
		{"all keys", map[string]string{"backoffBaseSeconds": "30", "backoffMaxSeconds": "900", "backoffLimitCount": "10"},
			requeue.BackoffConfig{Base: 30 * time.Second, Max: 15 * time.Minute, Limit: requeue.BackoffLimit(10)}, nil},
		{"plus sign accepted", map[string]string{"backoffLimitCount": "+2"}, requeue.BackoffConfig{Limit: requeue.BackoffLimit(2)}, nil},
		{"unknown key and bad values, sorted by key", map[string]string{
			"backoffMaxSeconds": "1h", "backoffbaseseconds": "3", "backoffLimitCount": "4294967296",
		}, requeue.BackoffConfig{}, []string{
			`requeue: backoffLimitCount: "4294967296" is not a 32-bit integer`,
			`requeue: backoffMaxSeconds: "1h" is not a 32-bit integer`,
			`requeue: unknown backoff setting "backoffbaseseconds"`,
		}},
		{"empty value", map[string]string{"backoffBaseSeconds": ""}, requeue.BackoffConfig{},
			[]string{`requeue: backoffBaseSeconds: "" is not a 32-bit integer`}},
		{"spaces rejected", map[string]string{"backoffBaseSeconds": " 5"}, requeue.BackoffConfig{},
			[]string{`requeue: backoffBaseSeconds: " 5" is not a 32-bit integer`}},
		{"parse and validation errors together", map[string]string{"backoffBaseSeconds": "0", "backoffMaxSeconds": "x"}, requeue.BackoffConfig{}, []string{
			`requeue: backoffMaxSeconds: "x" is not a 32-bit integer`,
			"requeue: backoffBaseSeconds must be at least 1, got 0",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := requeue.BackoffFromKueueMap(tt.m)
			backoffCheckErrors(t, err, tt.wantErr)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("BackoffFromKueueMap mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzBackoffFromKueueMap checks the string form against an independent
// oracle: an accepted map holds exactly the three keys with positive base and
// max, a non-negative limit and base <= max (after defaults), and the config
// holds exactly those values; anything else is an error naming the package.
func FuzzBackoffFromKueueMap(f *testing.F) {
	f.Add("60", "3600", "10", "")
	f.Add("", "", "", "")
	f.Add("0", "-1", "x", "backoffFoo")
	f.Add("7200", "", "2147483648", "")
	f.Add("+1", "1", "0", "")
	f.Fuzz(func(t *testing.T, base, max, limit, extraKey string) {
		// An empty value here means "key absent"; extraKey (if any) is set
		// to "1", overriding a known key.
		known := true
		switch extraKey {
		case "":
		case requeue.BackoffKeyBaseSeconds:
			base = "1"
		case requeue.BackoffKeyMaxSeconds:
			max = "1"
		case requeue.BackoffKeyLimitCount:
			limit = "1"
		default:
			known = false
		}
		m := map[string]string{}
		for k, v := range map[string]string{
			requeue.BackoffKeyBaseSeconds: base,
			requeue.BackoffKeyMaxSeconds:  max,
			requeue.BackoffKeyLimitCount:  limit,
		} {
			if v != "" {
				m[k] = v
			}
		}
		if !known {
			m[extraKey] = "1"
		}
		got, err := requeue.BackoffFromKueueMap(m)

		// Oracle.
		parse := func(s string, def int64) (int64, bool) {
			if s == "" {
				return def, true
			}
			v, err := strconv.ParseInt(s, 10, 32)
			return v, err == nil
		}
		b, okB := parse(base, 60)
		x, okX := parse(max, 3600)
		l, okL := parse(limit, 0)
		valid := known && okB && okX && okL && b > 0 && x > 0 && b <= x && l >= 0

		if err != nil {
			if valid {
				t.Fatalf("BackoffFromKueueMap(%q) = error %v, want ok", m, err)
			}
			if !strings.HasPrefix(err.Error(), "requeue: ") {
				t.Fatalf("error %q does not start with the package name", err)
			}
			if diff := cmp.Diff(requeue.BackoffConfig{}, got); diff != "" {
				t.Fatalf("config on error is not zero (-want +got):\n%s", diff)
			}
			return
		}
		if !valid {
			t.Fatalf("BackoffFromKueueMap(%q) = %+v, want an error", m, got)
		}
		if err := got.Validate(); err != nil {
			t.Fatalf("accepted config fails Validate: %v", err)
		}
		e := got.Effective()
		if e.Base != time.Duration(b)*time.Second || e.Max != time.Duration(x)*time.Second {
			t.Fatalf("got base %v max %v, want %ds %ds", e.Base, e.Max, b, x)
		}
		if (got.Limit == nil) != (limit == "") || (got.Limit != nil && int64(*got.Limit) != l) {
			t.Fatalf("got limit %v, want %q", got.Limit, limit)
		}
	})
}

// FuzzBackoffKueueFields checks the typed form: Config succeeds exactly when
// the oracle says the fields are valid, and then its delays are those of the
// stated base and max.
func FuzzBackoffKueueFields(f *testing.F) {
	f.Add(int32(60), int32(3600), int32(10), uint8(7))
	f.Add(int32(0), int32(0), int32(0), uint8(0))
	f.Add(int32(-1), int32(5), int32(-1), uint8(7))
	f.Add(int32(7200), int32(0), int32(3), uint8(1))
	f.Add(int32(math.MaxInt32), int32(math.MaxInt32), int32(math.MaxInt32), uint8(7))
	f.Fuzz(func(t *testing.T, base, max, limit int32, set uint8) {
		var fl requeue.BackoffKueueFields
		b, x := int64(60), int64(3600)
		if set&1 != 0 {
			fl.BackoffBaseSeconds, b = &base, int64(base)
		}
		if set&2 != 0 {
			fl.BackoffMaxSeconds, x = &max, int64(max)
		}
		if set&4 != 0 {
			fl.BackoffLimitCount = &limit
		}
		valid := b > 0 && x > 0 && b <= x && (set&4 == 0 || limit >= 0)
		got, err := fl.Config()
		if (err == nil) != valid {
			t.Fatalf("Config(%+v) error = %v, want valid=%v", fl, err, valid)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "requeue: ") {
				t.Fatalf("error %q does not start with the package name", err)
			}
			return
		}
		if got.Delay(1) != time.Duration(b)*time.Second {
			t.Fatalf("Delay(1) = %v, want %ds", got.Delay(1), b)
		}
		if got.Delay(math.MaxInt) != time.Duration(x)*time.Second {
			t.Fatalf("Delay(MaxInt) = %v, want %ds", got.Delay(math.MaxInt), x)
		}
	})
}
