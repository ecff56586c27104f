// Package runtime holds tenure's duration grammar and its min-runtime
// resolver: how long a running job is protected from in-queue preemption
// and from reclaims by other queues, and which queue's setting says so.
// The rules follow KAI-Scheduler's min-runtime plugin (docs/plugins/minruntime.md) and its
// design document (docs/developer/designs/min-runtime/README.md, PR #126);
// the root package's semantics table is the contract.
//
// The package name matches the standard library's; a file that needs both
// imports this one as tenureruntime "github.com/tenurepolicy/tenure/runtime",
// the one alias tenure's docs use.
//
// # Durations
//
// [ParseDuration] reads the one duration grammar used everywhere in tenure
// (queue settings, defaults, annotations):
//
//	duration  = ["+"] ( "0" | component { component } )
//	component = number unit
//	number    = digits ["." [digits]] | "." digits
//	unit      = "ns" | "us" | "µs" | "ms" | "s" | "m" | "h" | "d" | "w"
//
// The µ of "µs" may be U+00B5 or U+03BC, as in [time.ParseDuration]. A
// day is 24h and a week 7d. Components combine in any order and may be
// fractional: "1w2d3h", "2d4h30m", "1.5d", "90s". It rejects, with an error
// quoting the input: "" (empty), "5" (a bare number: only "0" may omit the
// unit), "1h2" (a trailing number), "1h-30m" (a sign inside), "-5m" and
// "-0" (negatives), "5x" or "1 h" (unknown units, spaces included) and
// anything above the largest [time.Duration] (about 292 years). Fractions
// are exact: "0.3333333333333333333333333333333d" is 8h minus 1ns,
// truncated, never rounded up. Every string without "-", "d" or "w" that
// [time.ParseDuration] accepts means the same here (up to that function's
// float rounding of long fractions). (KAI accepts d and w in
// plugin arguments but not in queue fields; tenure accepts them in both.)
//
// [FormatDuration] writes the canonical form, the decomposition into w, d,
// h, m, s, ms, us and ns, largest first, without zero components: 52h is
// "2d4h", 600s is "10m", 1.5s is "1s500ms", zero is "0s". It is canonical
// rather than always the shortest string (90s prints as "1m30s", not
// "90s"), and ParseDuration(FormatDuration(d)) == d for every d >= 0.
//
// # Configuration
//
// A [Config] has two node-pool defaults (DefaultPreempt, DefaultReclaim,
// both 0 unless set: "0s means instantly" evictable), the reclaim [Method]
// and a list of [QueueSetting]. Each queue's Preempt and Reclaim are
// optional: nil (unset) inherits from the parent; an explicit value — even
// 0 — applies to the queue and its descendants and stops inheritance from
// above. [Explicit] writes one inline.
//
// [ParseConfig] builds a Config from the string forms of KAI-Scheduler:
// the plugin arguments defaultPreemptMinRuntime, defaultReclaimMinRuntime
// and reclaimResolveMethod, and each queue's preemptMinRuntime and
// reclaimMinRuntime ([QueueFields]). [ParseMethod] accepts exactly "lca"
// and "queue": on anything else KAI-Scheduler's plugin logs an error and
// uses lca (pkg/scheduler/plugins/minruntime/minruntime.go, New), tenure
// returns the error. [NewResolver] reports every problem at once
// ([errors.Join]): negative values, an unknown method, a queue listed twice
// or with an empty name, a queue the tree does not have; ParseConfig adds
// unparsable strings and unknown argument keys, each message naming the
// argument, or the queue and the field.
//
// # Resolution rules
//
// Queues form a [queuetree.Tree]; an implicit root joins the top-level
// queues and plays the node-pool level, so any two queues meet somewhere.
//
//   - Preempt (preemptor and victim in the same leaf queue): walk from the
//     victim's queue up to the first queue that sets Preempt; else the
//     default.
//   - Reclaim with [MethodQueue]: the same walk using Reclaim.
//   - Reclaim with [MethodLCA] (the default): let l be the lowest common
//     ancestor of the reclaimer's and the victim's queues and c the child
//     of l toward the victim (the victim's queue itself when it is l); walk
//     from c up to the first queue that sets Reclaim; else the default. A
//     setting thus protects a queue against its siblings' subtrees but not
//     against queues further away: queues under different top-level queues
//     meet at the root, so c is the victim's top-level queue.
//
// [Resolver.Resolve] answers all three, given the action, the preemptor's
// queue and the victim's.
//
// The example of KAI-Scheduler's min-runtime design (PR #126), with reclaim
// settings on
//
//	A ─ B (600s) ─┬─ C ─────────┬─ leaf1 (0s)
//	              │             └─ leaf2 (180s)
//	              └─ D (60s) ──── leaf3
//
// resolves as follows:
//
//	reclaimer → victim   l   c       method lca              method queue
//	leaf1 → leaf3        B   D       60s from D              60s from D
//	leaf1 → leaf2        C   leaf2   180s from leaf2         180s from leaf2
//	leaf3 → leaf1        B   C       600s from B (C unset)   0s from leaf1
//
// The last line is where the methods differ: leaf1's explicit 0 makes it
// instantly evictable by its sibling leaf2 under both methods, but under
// lca a reclaimer from D's side sees C, which inherits B's 600s.
//
// Every answer is a [Resolution]: the duration, the queue whose setting
// applied (queuetree.None and "default" otherwise), the action and the
// method. Its String method is the explanation a decision can carry:
// "reclaim min-runtime 10m from queue B (lca)".
//
// # Protection window
//
// A job that last started at start is protected by a min-runtime d while
// now < start+d ([Protected]); [ProtectedUntil] returns start+d, the first
// instant it is evictable, which a scheduler can use to wake up instead of
// polling.
//
//	case                       Protected                ProtectedUntil
//	now == start+d - 1ns       true                     start+d
//	now == start+d             false (evictable)        start+d
//	d == 0 (or negative)       false                    zero Time
//	zero start (never started) false                    zero Time
//	start after now (skew)     true until start+d       start+d
//
// The design document's prose makes a job evictable when "currentTime >
// startTime + min-runtime", which would keep it protected at exactly
// start+d; the KAI plugin evicts at exactly start+d, and so does tenure.
//
// The default a reclaim falls back to differs between KAI revisions. In
// kai-scheduler/KAI-Scheduler at 521a99aa (pkg/scheduler/plugins/
// minruntime/resolver.go), a reclaim with nothing set on its walk uses
// defaultReclaimMinRuntime under both methods, as tenure does. Another
// revision of that file, still in circulation, uses
// defaultPreemptMinRuntime in one case: the LCA method, with the two
// queues under the same top-level queue. A fork of such a revision that
// sets the two defaults differently sees that case answered with the
// reclaim default here.
//
// One difference from the KAI plugin is deliberate: a min-runtime of 0
// never protects, even when the start lies in the future. The plugin
// (pkg/scheduler/plugins/minruntime/minruntime.go) protects a job while now
// is before start + min-runtime, so with 0 it still protects a job whose
// recorded start is ahead of the scheduler's clock, until that start. Since
// 0 means "instantly evictable" in the plugin's own documentation, tenure
// reads it so everywhere; with d > 0 a future start protects until
// start+d, as in KAI.
//
// # Cost
//
//	ParseDuration, FormatDuration    O(len) / O(1); allocate the error or the string
//	ParseConfig                      O(a log a + q) for a plugin arguments (sorted, so
//	                                 errors come in a stable order) and q queues;
//	                                 allocates the config and errors
//	NewResolver, NewResolverTolerant O(n + q) time and memory for n queues, q settings
//	Resolver.Resolve                 preempt, or reclaim with MethodQueue: O(1), an
//	                                 index read and a table read; reclaim with
//	                                 MethodLCA: O(1) when the queues are under
//	                                 different top-level queues, else O(log depth);
//	                                 no allocation
//	Protected, ProtectedUntil        O(1); no allocation
//
// NewResolver precomputes, in one pass in increasing ID order (queuetree
// IDs are preorder, so parents come first), which setting every queue
// inherits for each action: a pointer-free index per queue into a table
// of one Resolution per configured queue (and the default's), so a query
// is one index read and one copy, and a build writes pointers only for
// the settings, not for every queue. A Config without any problem (the
// common case) is checked on the way, one name lookup per setting, which
// also finds a repeated name. There is no per-pair cache, so memory stays
// O(queues + settings) however many pairs are asked. KAI-Scheduler's
// plugin kept a cache per (pending job, victim job) pair, about 16 million
// entries at 4,000 × 4,000 jobs in its own 500-node benchmark; removing it
// (KAI-Scheduler PR #1809, which kept the cache of durations per queue
// pair) cut that benchmark's live heap from 940 MB to 95 MB. To find c, a
// reclaim asks [queuetree.Tree.ChildOfLCA]: one climb from the victim over
// skew-binary jump pointers (Myers 1983) to the highest ancestor whose
// subtree does not contain the reclaimer, checked in queuetree against a
// naive ancestor-list oracle.
//
// KAI-Scheduler builds its min-runtime resolver afresh in every session
// (framework.Session); a scheduler embedding tenure does the same, with a
// new tree (queuetree.New) and a new resolver: at 4,000 queues the two cost
// about a millisecond together, within a small factor of the two naive
// maps (parents and settings) a plugin would build per session instead,
// which answer no query in O(1). The root package's Policy.UpdateQueues
// skips the build when the session's list is unchanged. The benchmarks in
// bench_test.go and session_bench_test.go (run with -benchmem) include a
// naive walk-per-query resolver and that naive per-session build; the
// README gives the figures and the command.
//
// # Robustness
//
// A [Resolver] is immutable and safe for concurrent use. A nil *Resolver,
// like the zero Resolver, resolves everything to a zero duration from the
// default; [NewResolver] rejects a nil or zero queue tree. An ID the tree
// did not issue (queuetree.None, the zero ID, included), for the victim or
// (with MethodLCA) the reclaimer, resolves to the default here; the
// decisions of package eligibility check IDs before resolving and fail
// closed instead (a name that Tree().Lookup does not find is None).
package runtime
