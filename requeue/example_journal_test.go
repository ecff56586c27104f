package requeue_test

import (
	"fmt"

	"github.com/tenurepolicy/tenure/requeue"
)

// A state operation records its undo step right after changing the state;
// checkpoints nest, and a rollback past a checkpoint makes it stale.
func ExampleJournal() {
	var j requeue.Journal
	balance := 100
	withdraw := func(n int) {
		balance -= n
		j.Record(func() { balance += n })
	}

	withdraw(10)
	outer := j.Checkpoint()
	withdraw(20)
	inner := j.Checkpoint()
	withdraw(30)
	fmt.Println("balance:", balance)

	_ = j.Rollback(inner)
	fmt.Println("after inner rollback:", balance)
	_ = j.Rollback(outer)
	fmt.Println("after outer rollback:", balance)
	fmt.Println("inner again:", j.Rollback(inner))

	withdraw(5)
	j.Commit()
	fmt.Println("committed:", balance, "log length:", j.Len())
	fmt.Println("outer after commit:", j.Rollback(outer))
	// Output:
	// balance: 40
	// after inner rollback: 70
	// after outer rollback: 90
	// inner again: requeue: invalid checkpoint
	// committed: 85 log length: 0
	// outer after commit: requeue: invalid checkpoint
}
