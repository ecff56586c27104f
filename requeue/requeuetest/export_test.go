package requeuetest

// Failure is the error TestModel returns for a failed check, for the
// external tests to read its fields.
type Failure = failure
