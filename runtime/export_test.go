package runtime

// ParseMethod is parseMethod, for the tests of the method names
// ParseConfig accepts.
var ParseMethod = parseMethod
