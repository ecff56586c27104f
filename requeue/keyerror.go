package requeue

import "fmt"

// keyError is a problem with one field of an [EngineConfig]. Its message is
// the one a direct user reads; key names the field in the spelling of
// tenure's configuration file, relative to the engine's part ("maxChecks",
// "filters[2]"), for the tenure package, which reads it through its Key
// method and prefixes the part's own key.
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
