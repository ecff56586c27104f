package backoff

// The package's defaults and a *int literal, for its tests.
const (
	DefaultBase   = defaultBase
	DefaultMax    = defaultMax
	DefaultJitter = defaultJitter
	UncappedMax   = uncappedMax
)

func Limit(n int) *int { return &n }

// KueueStrategy is the JSON form of a Strategy, field for field, for the
// tests of the conversions Strategy's UnmarshalJSON and MarshalJSON make.
type KueueStrategy = kueueStrategy

// UnmarshalJSON is the decoding half of Strategy.UnmarshalJSON: keys and
// JSON types, not the values.
func (k *kueueStrategy) UnmarshalJSON(data []byte) error { return k.decode(data) }

// Strategy is the converting half of Strategy.UnmarshalJSON.
func (k kueueStrategy) Strategy() (Strategy, error) { return k.strategy(false) }

// Kueue is the converting half of Strategy.MarshalJSON.
func (s Strategy) Kueue() (KueueStrategy, error) { return s.kueue() }

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

// Validate is validate, the checks Strategy.Validate makes of its Backoff.
func (c Config) Validate() error { return c.validate() }
