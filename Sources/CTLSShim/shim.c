// See include/CTLSShim.h. Linux only: Apple platforms use their own TLS.
#include "CTLSShim.h"

#ifdef __linux__

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tls_shim_conn {
    SSL_CTX *ctx;
    SSL *ssl;
};

static void put_error(char *error, size_t size, const char *what) {
    if (error == NULL || size == 0) return;
    unsigned long code = ERR_get_error();
    if (code != 0) {
        char detail[256];
        ERR_error_string_n(code, detail, sizeof detail);
        snprintf(error, size, "%s: %s", what, detail);
    } else {
        snprintf(error, size, "%s", what);
    }
    ERR_clear_error();
}

tls_shim_conn *tls_shim_new(int fd, const char *host, const char *ca_file, char *error, size_t error_size) {
    ERR_clear_error();
    tls_shim_conn *conn = calloc(1, sizeof *conn);
    if (conn == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    conn->ctx = SSL_CTX_new(TLS_client_method());
    if (conn->ctx == NULL) {
        put_error(error, error_size, "cannot create a TLS context");
        goto fail;
    }
    SSL_CTX_set_min_proto_version(conn->ctx, TLS1_2_VERSION);
    SSL_CTX_set_verify(conn->ctx, SSL_VERIFY_PEER, NULL);
    if (ca_file != NULL) {
        if (SSL_CTX_load_verify_locations(conn->ctx, ca_file, NULL) != 1) {
            char what[512];
            snprintf(what, sizeof what, "cannot load the CA file %s", ca_file);
            put_error(error, error_size, what);
            goto fail;
        }
    } else if (SSL_CTX_set_default_verify_paths(conn->ctx) != 1) {
        put_error(error, error_size, "cannot load the system's trusted certificates");
        goto fail;
    }
    conn->ssl = SSL_new(conn->ctx);
    if (conn->ssl == NULL) {
        put_error(error, error_size, "cannot create a TLS session");
        goto fail;
    }
    SSL_set_mode(conn->ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    unsigned char address[16];
    int is_ip = inet_pton(AF_INET, host, address) == 1 || inet_pton(AF_INET6, host, address) == 1;
    if (is_ip) {
        // RFC 6066 §3: no SNI for IP literals; check the certificate's IP SAN.
        if (X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(conn->ssl), host) != 1) {
            put_error(error, error_size, "cannot set the expected IP address");
            goto fail;
        }
    } else {
        if (SSL_set_tlsext_host_name(conn->ssl, host) != 1 || SSL_set1_host(conn->ssl, host) != 1) {
            put_error(error, error_size, "cannot set the expected host name");
            goto fail;
        }
    }
    if (SSL_set_fd(conn->ssl, fd) != 1) {
        put_error(error, error_size, "cannot attach the socket");
        goto fail;
    }
    return conn;
fail:
    tls_shim_free(conn);
    return NULL;
}

// Maps SSL_get_error to the shim's codes; fills `error` for real failures.
static long classify(tls_shim_conn *conn, int result, char *error, size_t error_size, const char *what) {
    int reason = SSL_get_error(conn->ssl, result);
    switch (reason) {
    case SSL_ERROR_WANT_READ: return TLS_SHIM_WANT_READ;
    case SSL_ERROR_WANT_WRITE: return TLS_SHIM_WANT_WRITE;
    case SSL_ERROR_ZERO_RETURN: return 0;
    case SSL_ERROR_SYSCALL:
        if (ERR_peek_error() == 0) {
            snprintf(error, error_size, "%s: the connection was closed or reset by the peer", what);
            return TLS_SHIM_ERROR;
        }
        put_error(error, error_size, what);
        return TLS_SHIM_ERROR;
    default:
        put_error(error, error_size, what);
        return TLS_SHIM_ERROR;
    }
}

int tls_shim_handshake(tls_shim_conn *conn, char *error, size_t error_size) {
    ERR_clear_error();
    int result = SSL_connect(conn->ssl);
    if (result == 1) return 1;
    long verify = SSL_get_verify_result(conn->ssl);
    if (verify != X509_V_OK) {
        snprintf(error, error_size, "certificate verification failed: %s",
                 X509_verify_cert_error_string(verify));
        ERR_clear_error();
        return TLS_SHIM_ERROR;
    }
    return (int)classify(conn, result, error, error_size, "TLS handshake failed");
}

long tls_shim_read(tls_shim_conn *conn, void *buffer, size_t size, char *error, size_t error_size) {
    ERR_clear_error();
    int chunk = size > 1 << 30 ? 1 << 30 : (int)size;
    int result = SSL_read(conn->ssl, buffer, chunk);
    if (result > 0) return result;
    return classify(conn, result, error, error_size, "TLS read failed");
}

long tls_shim_write(tls_shim_conn *conn, const void *buffer, size_t size, char *error, size_t error_size) {
    ERR_clear_error();
    int chunk = size > 1 << 30 ? 1 << 30 : (int)size;
    int result = SSL_write(conn->ssl, buffer, chunk);
    if (result > 0) return result;
    long code = classify(conn, result, error, error_size, "TLS write failed");
    return code == 0 ? TLS_SHIM_ERROR : code;
}

void tls_shim_shutdown(tls_shim_conn *conn) {
    if (conn == NULL || conn->ssl == NULL) return;
    ERR_clear_error();
    (void)SSL_shutdown(conn->ssl);
    ERR_clear_error();
}

void tls_shim_free(tls_shim_conn *conn) {
    if (conn == NULL) return;
    if (conn->ssl != NULL) SSL_free(conn->ssl);
    if (conn->ctx != NULL) SSL_CTX_free(conn->ctx);
    free(conn);
}

#endif
