package evictionbudget

// Internals for the external tests.
var (
	ParseRecord  = parseRecord
	FormatRecord = formatRecord
)

const MaxEvictions = maxEvictions
