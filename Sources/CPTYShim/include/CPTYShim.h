// The PTY calls of the C library that Swift's Glibc module leaves out:
// glibc declares posix_openpt, grantpt, unlockpt and ptsname_r only for
// _XOPEN_SOURCE or _GNU_SOURCE, and POSIX_SPAWN_SETSID only for
// _GNU_SOURCE, none of which the module defines. This shim is compiled with
// _GNU_SOURCE and passes them through, so TermPTY calls them by their real
// declarations. Used on Linux only; Darwin's module declares them all.
#ifndef CPTYSHIM_H
#define CPTYSHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// posix_openpt(3).
int cpty_openpt(int flags);
/// grantpt(3).
int cpty_grantpt(int fd);
/// unlockpt(3).
int cpty_unlockpt(int fd);
/// ptsname_r(3): 0, or an error number.
int cpty_ptsname(int fd, char *buffer, size_t length);
/// POSIX_SPAWN_SETSID (glibc 2.26 and later), or 0 when the C library has
/// none: the caller then cannot make the child a session leader.
short cpty_spawn_setsid_flag(void);

#ifdef __cplusplus
}
#endif

#endif
