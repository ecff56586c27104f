package runtime

import "fmt"

// keyError is a problem with one setting [ParseConfig] reads. Its message
// is the one a direct user reads; key names the setting in KAI-Scheduler's
// spelling, relative to the argument that holds it: a plugin argument's
// name ("defaultPreemptMinRuntime") or a queue entry's index and field
// ("[3].preemptMinRuntime"), for the tenure package, which reads it
// through its Key method and prefixes the key of its own part.
type keyError struct {
	key string
	err error
}

func (e *keyError) Error() string { return e.err.Error() }
func (e *keyError) Unwrap() error { return e.err }
func (e *keyError) Key() string   { return e.key }

// keyErrorf returns a *keyError for key with the message of fmt.Errorf.
func keyErrorf(key, format string, args ...any) error {
	return &keyError{key: key, err: fmt.Errorf(format, args...)}
}
