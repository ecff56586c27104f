// Package configkey is the keyed configuration error of eligibility's
// policy packages: a problem with one field of a policy's configuration,
// whose message is the one a direct user reads and whose Key names the
// field in the spelling of tenure's configuration file, relative to the
// policy's part ("maxEvictions", "fairSharing.minAdmitDuration"; "" for
// the value itself). The tenure package reads Key through an interface and
// prefixes the key of the policy's part, to build its *ConfigError.
package configkey

import "fmt"

// Error is a problem with the field Key of a policy's configuration.
type Error struct {
	key string
	err error
}

// Error returns the problem's message, for a direct user.
func (e *Error) Error() string { return e.err.Error() }

// Unwrap returns the problem.
func (e *Error) Unwrap() error { return e.err }

// Key names the field, relative to the policy's configuration.
func (e *Error) Key() string { return e.key }

// Errorf returns an *Error for key with the message of fmt.Errorf.
func Errorf(key, format string, args ...any) error {
	return &Error{key: key, err: fmt.Errorf(format, args...)}
}
