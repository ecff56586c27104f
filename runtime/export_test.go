package runtime

// Validate exposes Config's validation (what NewResolver reports before
// it looks at the tree) to the tests of its order and wording.
func (c Config) Validate() error { return c.validate() }
