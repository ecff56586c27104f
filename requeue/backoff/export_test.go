package backoff

// The package's defaults and a *int literal, for its tests.
const (
	DefaultBase   = defaultBase
	DefaultMax    = defaultMax
	DefaultJitter = defaultJitter
	UncappedMax   = uncappedMax
)

func Limit(n int) *int { return &n }
