package sim

import (
	"errors"
	"strings"

	"github.com/tenurepolicy/tenure"
)

// SettingError is a problem tenure.New found in the run's tenure.Config,
// attributed to the simulator flag that set the field: an eviction
// budget's zero window is -eviction-budget's problem, not -min-runtime's.
type SettingError struct {
	// Flag is the flag's name without the dash ("eviction-budget"), or ""
	// for a field no single flag sets.
	Flag string
	Err  error
}

// Error returns "simulate: -<Flag>: " and Err's message.
func (e *SettingError) Error() string {
	if e.Flag == "" {
		return "simulate: settings: " + e.Err.Error()
	}
	return "simulate: -" + e.Flag + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *SettingError) Unwrap() error { return e.Err }

// configFlags maps a tenure.Config key, or the part of it before the
// first '.' or '[', to the flag that sets it (see policies.TenureConfig).
var configFlags = map[string]string{
	"queues":              "min-runtime",
	"minRuntimeArgs":      "reclaim-method",
	"engine.defaultDelay": "requeue-delay",
	"engine.maxLostWork":  "max-lost-work",
	"preemptorDelay":      "preemptor-delay",
	"evictionBudget":      "eviction-budget",
}

// settingErrors splits err, tenure.New's, into one *SettingError per
// problem, each naming the flag its key belongs to. Cost O(problems).
func settingErrors(err error) []error {
	var out []error
	for _, e := range Unjoin(err) {
		var ce *tenure.ConfigError
		flag := ""
		if errors.As(e, &ce) {
			flag = flagOfKey(ce.Key)
		}
		out = append(out, &SettingError{Flag: flag, Err: e})
	}
	return out
}

// flagOfKey returns the flag that sets the tenure.Config field key, or "".
func flagOfKey(key string) string {
	if f, ok := configFlags[key]; ok {
		return f
	}
	if i := strings.IndexAny(key, ".["); i >= 0 {
		return configFlags[key[:i]]
	}
	return ""
}

// Unjoin returns the errors errors.Join joined (at any depth), or err
// alone; none for nil.
func Unjoin(err error) []error {
	if err == nil {
		return nil
	}
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, Unjoin(e)...)
	}
	return out
}
