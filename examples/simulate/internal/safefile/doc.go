// Package safefile writes the simulator's output files (plots, exports)
// so that a failed or interrupted run never leaves a half-written file, a
// stray temporary file, or a replaced special file behind.
//
// # What happens to each kind of destination
//
//   - A regular file, or a path that does not exist yet: the content goes
//     to a temporary file in the same directory, which is synced and then
//     renamed over the destination. Readers see the old content or the new,
//     never a mix; a run that fails keeps the old file. A replaced file
//     keeps its permission bits; a new one gets 0644.
//   - A symbolic link (or a chain of them): followed to its final target,
//     and the target is what gets replaced (or created, for a dangling
//     link). The link stays a link.
//   - A named pipe (FIFO) or a character device such as /dev/null or a
//     terminal: written directly, exactly as a shell redirection would,
//     and never replaced — replacing /dev/null with a regular file would
//     break every other process on the machine. Opening a FIFO waits for
//     a reader, as the shell does.
//   - A directory, a block device or a socket: refused with an error,
//     before anything is written.
//
// # Interrupts
//
// Every temporary file is listed in a process-wide registry until it is
// committed or discarded. [CleanupOnSignal] removes them all when the
// process receives SIGINT or SIGTERM and then lets the signal end the
// process as it would have, so an interrupted run leaves no ".tmp" file.
// A signal the process was started ignoring stays ignored: the run goes
// on and writes its files.
//
// # Costs
//
// [Create] costs a few system calls (one per symbolic link followed, at
// most 40); writing is buffered by the caller; [File.Commit] is one fsync
// of the file, a rename and an fsync of its directory.
package safefile
