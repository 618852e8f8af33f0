// See include/CPTYShim.h: glibc's PTY calls, declared with _GNU_SOURCE.
#ifdef __linux__
#define _GNU_SOURCE
#include <spawn.h>
#include <stdlib.h>

#include "CPTYShim.h"

int cpty_openpt(int flags) { return posix_openpt(flags); }

int cpty_grantpt(int fd) { return grantpt(fd); }

int cpty_unlockpt(int fd) { return unlockpt(fd); }

int cpty_ptsname(int fd, char *buffer, size_t length) { return ptsname_r(fd, buffer, length); }

short cpty_spawn_setsid_flag(void) {
#ifdef POSIX_SPAWN_SETSID
    return POSIX_SPAWN_SETSID;
#else
    return 0;
#endif
}
#endif
