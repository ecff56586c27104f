// Package kueuejson reads the JSON of Kueue's configuration blocks for the
// eligibility policies: objects whose keys are matched exactly (an unknown
// key, one in another letter case included, is an error naming it) and
// durations in runtime.ParseDuration's grammar. Each problem is a
// configkey error keyed relative to the block, as the policies' Validate
// errors are, so that tenure reports it under its full key path.
package kueuejson

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/internal/configkey"
	"github.com/tenurepolicy/tenure/runtime"
)

// Object decodes data, which must be a JSON object or null, into its
// members, and reports every key (in sorted order, joined) that is not one
// of keys, exactly, letter case included. The object is the value at key
// in its block ("" for the block itself, "fairSharing"), named what in
// messages ("preemptionProtection.fairSharing"); each problem is a
// configkey error under its own key relative to the block: the object's
// key when it is no object, the unknown key's path for an unknown key.
// The members are returned with the unknown keys' error, so that a caller
// can go on and report the other problems too. A null gives a nil map.
func Object(data []byte, what, key string, keys ...string) (map[string]json.RawMessage, error) {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, configkey.Errorf(key, "eligibility: %s: want an object with keys %s: %w", what, strings.Join(keys, ", "), err)
	}
	names := slices.Sorted(maps.Keys(m))
	var errs []error
	for _, k := range names {
		if !slices.Contains(keys, k) {
			errs = append(errs, configkey.Errorf(Key(key, k), "eligibility: %s: unknown key %q (want %s)", what, k, strings.Join(keys, ", ")))
		}
	}
	return m, errors.Join(errs...)
}

// Key returns the key sub inside the object at key, both relative to the
// block ("" the block itself).
func Key(key, sub string) string {
	if key == "" {
		return sub
	}
	return key + "." + sub
}

// Duration decodes a duration string (or null, giving nil), the value at
// key in its block, named what in messages; its problem is a configkey
// error under key.
func Duration(raw json.RawMessage, what, key string) (*time.Duration, error) {
	var s *string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, configkey.Errorf(key, "eligibility: %s: want a duration string such as \"10m\": %w", what, err)
	}
	if s == nil {
		return nil, nil
	}
	d, err := runtime.ParseDuration(*s)
	if err != nil {
		return nil, configkey.Errorf(key, "eligibility: %s: %w", what, err)
	}
	return &d, nil
}
