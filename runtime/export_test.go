package runtime

// ParseMethod is parseMethod, for the tests of the method names
// ParseConfig accepts.
var ParseMethod = parseMethod

// Validate is validate, Config's checks that need no tree, for the tests
// of NewResolver's first errors and of ParseConfig's results.
func (c Config) Validate() error { return c.validate() }
