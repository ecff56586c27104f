package backoff

// The package's defaults and a *int literal, for its tests.
const (
	DefaultBase   = defaultBase
	DefaultMax    = defaultMax
	DefaultJitter = defaultJitter
	UncappedMax   = uncappedMax
)

func Limit(n int) *int { return &n }

// ClampedStrategy reads k as Kueue releases before pkg/util/wait
// NewBackoff did (Config.ClampToMax).
func (k KueueStrategy) ClampedStrategy() (Strategy, error) { return k.strategy(true) }

// QueueOrder returns the queue order s selects.
func (s Strategy) QueueOrder() QueueOrder {
	if s.Timestamp == nil {
		return QueueOrder{}
	}
	return QueueOrder{Strategy: *s.Timestamp}
}

func (s TimestampStrategy) String() string { return s.kueueName() }
