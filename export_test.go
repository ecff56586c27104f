package tenure

import (
	"time"

	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/runtime"
)

// Test-only views of a Policy's pieces, for the tests that check its
// wiring (which pieces an UpdateQueues rebuilds, which filter the engine
// holds). A Policy hands out no piece to its users but its immutable tree.

func (p *Policy) Resolver() *runtime.Resolver          { return p.resolver }
func (p *Policy) Engine() *requeue.Engine              { return p.engine }
func (p *Policy) Filter() minruntime.Filter            { return p.filter }
func (p *Policy) Nominator() expectedruntime.Nominator { return p.nominator }

// NewTolerant is New with its problems one error each, for the README's
// per-session block (readme_session_test.go), which still calls the
// constructor that New absorbed.
func NewTolerant(cfg Config) (*Policy, []error) { return newTolerant(cfg) }

// Now is the cycle's instant, for the tests and for ExamplePolicy (the
// README's embedding block), which still reads it from the Cycle; an
// embedder that needs the instant reads its clock and calls BeginAt.
func (c *Cycle) Now() time.Time { return c.now }
