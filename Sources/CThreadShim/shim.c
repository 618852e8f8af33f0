// See include/CThreadShim.h: glibc's thread placement calls, declared with
// _GNU_SOURCE.
#ifdef __linux__
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>

#include "CThreadShim.h"

int cthread_current_cpu(void) { return sched_getcpu(); }

int cthread_avoid_cpu(int cpu) {
    cpu_set_t set;
    if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    if (!CPU_ISSET(cpu, &set) || CPU_COUNT(&set) < 2) return -1;
    CPU_CLR(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : -1;
}

int cthread_restore_affinity(void) {
    cpu_set_t set;
    if (sched_getaffinity(getpid(), sizeof set, &set) != 0) return -1;
    return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : -1;
}

int cthread_may_run_on(int cpu) {
    cpu_set_t set;
    if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    return CPU_ISSET(cpu, &set) ? 1 : 0;
}
#endif
