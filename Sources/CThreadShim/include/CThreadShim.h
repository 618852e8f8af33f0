// The thread placement calls of the C library that Swift's Glibc module
// leaves out: glibc declares sched_getcpu, sched_getaffinity and
// sched_setaffinity only for _GNU_SOURCE, which the module does not define.
// This shim is compiled with _GNU_SOURCE. Used on Linux only.
#ifndef CTHREADSHIM_H
#define CTHREADSHIM_H

#ifdef __cplusplus
extern "C" {
#endif

/// The CPU the calling thread runs on (sched_getcpu(3)), or -1.
int cthread_current_cpu(void);

/// Keeps the calling thread off `cpu`: its affinity becomes the CPUs it may
/// run on now, less that one, when any other is left (sched_setaffinity(2)).
/// Returns 0 when it changed the affinity, -1 when it left it as it was.
int cthread_avoid_cpu(int cpu);

/// Gives the calling thread the affinity of the process's main thread again
/// (after `cthread_avoid_cpu`, before a pooled thread goes back to its
/// pool). Returns 0, or -1 when it could not.
int cthread_restore_affinity(void);

/// 1 when the calling thread's affinity allows `cpu`, 0 when it does not,
/// -1 when it cannot be read (for the tests of the two calls above).
int cthread_may_run_on(int cpu);

#ifdef __cplusplus
}
#endif

#endif
