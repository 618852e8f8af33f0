// A small shim over OpenSSL for TermAttach's wss:// client on Linux.
// Swift sees only these functions and an opaque handle, never OpenSSL's
// macros. Every call is non-blocking: the socket is O_NONBLOCK and the
// caller waits with poll() on TLS_SHIM_WANT_READ / TLS_SHIM_WANT_WRITE.
// A handle is not thread-safe: the caller serialises calls on one handle.
#ifndef CTLSSHIM_H
#define CTLSSHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Return codes besides byte counts.
enum {
    TLS_SHIM_ERROR = -1,
    TLS_SHIM_WANT_READ = -2,
    TLS_SHIM_WANT_WRITE = -3,
};

typedef struct tls_shim_conn tls_shim_conn;

/// A client connection over the connected socket `fd` to `host` (DNS name or
/// IP literal): TLS 1.2 or later, the peer certificate verified against
/// `ca_file` (PEM; NULL = the system's trust store) and its name or address
/// checked against `host`. NULL on failure, with a reason in `error`.
tls_shim_conn *tls_shim_new(int fd, const char *host, const char *ca_file, char *error, size_t error_size);

/// Advances the handshake: 1 when done, WANT_READ/WANT_WRITE to wait, ERROR
/// with a reason (certificate verification failures name the check).
int tls_shim_handshake(tls_shim_conn *conn, char *error, size_t error_size);

/// Reads decrypted bytes: a count > 0, 0 at the peer's close, WANT_* or ERROR.
long tls_shim_read(tls_shim_conn *conn, void *buffer, size_t size, char *error, size_t error_size);

/// Writes bytes: a count > 0 (possibly partial), WANT_* or ERROR.
long tls_shim_write(tls_shim_conn *conn, const void *buffer, size_t size, char *error, size_t error_size);

/// Sends close_notify (best effort, never waits).
void tls_shim_shutdown(tls_shim_conn *conn);

/// Frees the connection (the socket stays open: its owner closes it).
void tls_shim_free(tls_shim_conn *conn);

#ifdef __cplusplus
}
#endif

#endif
