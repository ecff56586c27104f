package evictionbudget

// Internals for the external tests.
var ParseRecord = parseRecord

const MaxEvictions = maxEvictions
