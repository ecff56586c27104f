// Package kueuejson reads the JSON of Kueue's configuration blocks for the
// eligibility policies: objects whose keys are matched exactly (an unknown
// key, one in another letter case included, is an error naming it) and
// durations in runtime.ParseDuration's grammar.
package kueuejson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/runtime"
)

// Object decodes data, which must be a JSON object or null, into its
// members, and reports every key (in sorted order, joined) that is not one
// of keys, exactly, letter case included. The members are returned with
// that error, so that a caller can go on and report the other problems too.
// A null gives a nil map.
func Object(data []byte, keys ...string) (map[string]json.RawMessage, error) {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("want an object with keys %s: %w", strings.Join(keys, ", "), err)
	}
	names := slices.Sorted(maps.Keys(m))
	var errs []error
	for _, k := range names {
		if !slices.Contains(keys, k) {
			errs = append(errs, fmt.Errorf("unknown key %q (want %s)", k, strings.Join(keys, ", ")))
		}
	}
	return m, errors.Join(errs...)
}

// Prefixed returns err with each of its joined errors on its own line
// Prefixed by prefix (nil for nil), so that a block's problems each name
// where they are.
func Prefixed(prefix string, err error) error {
	if err == nil {
		return nil
	}
	var errs []error
	for _, line := range strings.Split(err.Error(), "\n") {
		errs = append(errs, errors.New(prefix+line))
	}
	return errors.Join(errs...)
}

// Duration decodes a duration string (or null, giving nil).
func Duration(raw json.RawMessage) (*time.Duration, error) {
	var s *string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("want a duration string such as \"10m\": %w", err)
	}
	if s == nil {
		return nil, nil
	}
	d, err := runtime.ParseDuration(*s)
	if err != nil {
		return nil, err
	}
	return &d, nil
}
