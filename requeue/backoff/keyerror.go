package backoff

import "fmt"

// keyError is a problem with one field of a [Strategy] or its [Config].
// Its message is the one a direct user reads; key names the field in
// Kueue's spelling of the requeuing strategy ("backoffBaseSeconds"; "jitter"
// for the one field Kueue does not have), for the tenure package, which
// reads it through its Key method and prefixes the key of its own part.
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
