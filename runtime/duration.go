package runtime

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Unit lengths beyond the standard library's: a day is 24 hours and a week
// is 7 days (calendar effects such as daylight saving do not apply: a
// duration is a count of nanoseconds).
const (
	day  = 24 * time.Hour
	week = 7 * day
)

// maxDuration is the largest representable duration, about 292 years.
const maxDuration = time.Duration(math.MaxInt64)

// units maps every accepted unit suffix to its length. "us", "µs" (U+00B5)
// and "μs" (U+03BC) all mean microseconds, as in [time.ParseDuration].
var units = map[string]time.Duration{
	"ns":      time.Nanosecond,
	"us":      time.Microsecond,
	"\u00b5s": time.Microsecond,
	"\u03bcs": time.Microsecond,
	"ms":      time.Millisecond,
	"s":       time.Second,
	"m":       time.Minute,
	"h":       time.Hour,
	"d":       day,
	"w":       week,
}

// ParseDuration parses a non-negative duration: a sequence of decimal
// numbers, each with an optional fraction and a unit of
// [time.ParseDuration] ("ns", "us" or "µs", "ms", "s", "m", "h") or "d"
// (24h) or "w" (7d), in any order: "90s", "1.5d", "1w2d3h". "0" alone may
// omit the unit; one leading "+" is allowed.
//
// It rejects, with an error starting "runtime: invalid duration" that
// quotes the input: "", a bare number ("5"), a trailing number ("1h2"), an
// inner sign ("1h-30m"), a negative ("-5m", "-0"), an unknown unit ("5x",
// "1 h") and anything above the largest [time.Duration]. Fractions are
// exact, truncated to the nanosecond. A string time.ParseDuration accepts
// without "-", "d" or "w" has the same value here (up to its float
// rounding). O(len(s)); allocates only on error.
func ParseDuration(s string) (time.Duration, error) {
	d, err := parseDuration(s)
	if err != nil {
		return 0, &durationError{input: s, err: err}
	}
	return d, nil
}

// Errors returned by parseDuration, wrapped with the input by callers.
var (
	errEmpty    = errors.New("empty string")
	errNegative = errors.New("negative durations are not allowed")
	errOverflow = fmt.Errorf("larger than the maximum duration %s", FormatDuration(maxDuration))
	errBare     = errors.New("a number needs a unit (such as s, m, h, d); only 0 may omit it")
	errNoNumber = errors.New("missing number")
)

// durationError is ParseDuration's error. It formats its message only when
// asked, so that a scheduler meeting thousands of bad annotations in a cycle
// pays for an allocation, not for fmt, per bad value.
type durationError struct {
	input string
	err   error
}

func (e *durationError) Error() string {
	return "runtime: invalid duration " + strconv.Quote(e.input) + ": " + e.err.Error()
}

func (e *durationError) Unwrap() error { return e.err }

// syntaxKind says what a syntaxError found.
type syntaxKind uint8

const (
	signInside syntaxKind = iota
	invalidNumber
	expectedNumber
	missingUnit
	unknownUnit
)

// syntaxError is a malformed part of a duration, at the text it concerns;
// like durationError it formats lazily.
type syntaxError struct {
	kind syntaxKind
	at   string
}

func (e *syntaxError) Error() string {
	switch e.kind {
	case signInside:
		return fmt.Sprintf("sign %q inside the duration (at %q)", e.at[0], e.at)
	case invalidNumber:
		return fmt.Sprintf("invalid number %q", e.at)
	case expectedNumber:
		return fmt.Sprintf("expected a number at %q", e.at)
	case missingUnit:
		return fmt.Sprintf("missing unit after %q", e.at)
	}
	return fmt.Sprintf("unknown unit %q (want ns, us, ms, s, m, h, d or w)", e.at)
}

// parseDuration is ParseDuration without the "runtime: invalid duration"
// wrapping, so that configuration helpers can name the field instead. It
// checks the sign and the lone "0", then sums the components that
// nextComponent reads one by one.
func parseDuration(s string) (time.Duration, error) {
	switch {
	case s == "":
		return 0, errEmpty
	case s[0] == '-':
		return 0, errNegative
	case s[0] == '+':
		if s = s[1:]; s == "" {
			return 0, errNoNumber
		}
	}
	if s == "0" {
		return 0, nil
	}
	var total time.Duration
	for first := true; s != ""; first = false {
		v, rest, err := nextComponent(s, first)
		if err != nil {
			return 0, err
		}
		if v > maxDuration-total {
			return 0, errOverflow
		}
		total, s = total+v, rest
	}
	return total, nil
}

// nextComponent reads the component (a number and its unit) at the start
// of the non-empty s and returns its value and the rest of s. first says
// that it is the duration's first component: a lone number there is a bare
// number (errBare), elsewhere a missing unit.
func nextComponent(s string, first bool) (time.Duration, string, error) {
	if c := s[0]; c == '+' || c == '-' {
		return 0, "", &syntaxError{kind: signInside, at: s}
	}
	intPart, fracPart, n, err := scanNumber(s)
	if err != nil {
		return 0, "", err
	}
	number, rest := s[:n], s[n:]
	// Unit: everything up to the next number or sign.
	i := 0
	for i < len(rest) && !isDigit(rest[i]) && rest[i] != '.' && rest[i] != '+' && rest[i] != '-' {
		i++
	}
	if i == 0 {
		if first && rest == "" {
			return 0, "", errBare
		}
		return 0, "", &syntaxError{kind: missingUnit, at: number}
	}
	unitName := rest[:i]
	unit, ok := units[unitName]
	if !ok {
		return 0, "", &syntaxError{kind: unknownUnit, at: unitName}
	}
	v, ok := component(intPart, fracPart, unit)
	if !ok {
		return 0, "", errOverflow
	}
	return v, rest[i:], nil
}

// scanNumber reads the number at the start of s: digits, then optionally
// '.' and more digits. It returns the digits before and after the '.' and
// the length of the number; an error when there is no digit at all.
func scanNumber(s string) (intPart, fracPart string, n int, err error) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intPart = s[:i]
	dot := i < len(s) && s[i] == '.'
	if dot {
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		fracPart = s[i+1 : j]
		i = j
	}
	if intPart == "" && fracPart == "" {
		if dot {
			return "", "", 0, &syntaxError{kind: invalidNumber, at: s[:i]}
		}
		return "", "", 0, &syntaxError{kind: expectedNumber, at: s}
	}
	return intPart, fracPart, i, nil
}

// component returns the exact value of intPart.fracPart units, truncated to
// a whole nanosecond, and false if it exceeds maxDuration.
func component(intPart, fracPart string, unit time.Duration) (time.Duration, bool) {
	var n int64
	for i := 0; i < len(intPart); i++ {
		digit := int64(intPart[i] - '0')
		if n > (math.MaxInt64-digit)/10 {
			return 0, false
		}
		n = n*10 + digit
	}
	u := int64(unit)
	if n > math.MaxInt64/u {
		return 0, false
	}
	v := n * u
	// Exact floor(0.f1f2...fk × u), evaluated from the last digit:
	// floor((f_i·u + y)/10) only needs floor(y), and y < u stays small
	// (u ≤ 1 week in ns ≈ 6e14, so 10u fits easily).
	var frac int64
	for i := len(fracPart) - 1; i >= 0; i-- {
		frac = (int64(fracPart[i]-'0')*u + frac) / 10
	}
	if v > math.MaxInt64-frac {
		return 0, false
	}
	return time.Duration(v + frac), true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// formatUnits lists the units of the canonical form, largest first.
var formatUnits = [...]struct {
	name string
	size uint64
}{
	{"w", uint64(week)},
	{"d", uint64(day)},
	{"h", uint64(time.Hour)},
	{"m", uint64(time.Minute)},
	{"s", uint64(time.Second)},
	{"ms", uint64(time.Millisecond)},
	{"us", uint64(time.Microsecond)},
	{"ns", uint64(time.Nanosecond)},
}

// FormatDuration returns the canonical form of d: weeks, days, hours,
// minutes, seconds, ms, us and ns, largest first, zero components left
// out ("0s" for zero): 52h is "2d4h", 90s "1m30s". For every d >= 0,
// ParseDuration(FormatDuration(d)) == d; a negative d gets a leading "-"
// (for logs). O(1); allocates the result.
func FormatDuration(d time.Duration) string {
	if d == 0 {
		return "0s"
	}
	var buf [40]byte
	b := buf[:0]
	mag := uint64(d)
	if d < 0 {
		b = append(b, '-')
		mag = -mag // two's complement magnitude; exact for math.MinInt64
	}
	for _, u := range formatUnits {
		if q := mag / u.size; q > 0 {
			b = strconv.AppendUint(b, q, 10)
			b = append(b, u.name...)
			mag -= q * u.size
		}
	}
	return string(b)
}
