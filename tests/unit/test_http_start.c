/* http_start when libmicrohttpd refuses to start on the listening socket it was given (here: a
 * TLS key pair it cannot load): NULL, the socket closed exactly once, no descriptor left.
 *
 * close(2) is interposed for the whole program (this definition comes before libc's, for
 * libmicrohttpd's calls too) to count closes of descriptors that are not open: a second
 * close of the listening socket is one, and in the server it could close whatever descriptor
 * another thread opened in between. */
#include "http/http.h"
#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static atomic_int g_bad_closes; /* close() of a descriptor that was not open */

int close(int fd)
{
	if (fd >= 0 && fcntl(fd, F_GETFD) == -1 && errno == EBADF)
		atomic_fetch_add(&g_bad_closes, 1);
	return (int)syscall(SYS_close, fd);
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static char g_dir[64];

static void write_file(const char *name, const char *text, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", g_dir, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void t_failed_start_closes_once(void)
{
	static const char junk[] = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
	char cert[128], key[128];
	write_file("cert.pem", junk, cert, sizeof cert);
	write_file("key.pem", junk, key, sizeof key);
	http_config cfg = {
	    .port = 0,
	    .threads = 2,
	    .conn_limit = 16,
	    .conn_timeout_s = 5,
	    .listen = "127.0.0.1",
	    .tls_cert = cert,
	    .tls_key = key,
	};
	int before = open_fds();
	atomic_store(&g_bad_closes, 0);
	http_server *srv = http_start(&cfg);
	CHECK(srv == NULL);
	if (srv)
		http_stop(srv);
	CHECK_EQ_INT(atomic_load(&g_bad_closes), 0);
	CHECK_EQ_INT(open_fds(), before);
	unlink(cert);
	unlink(key);
}

int main(void)
{
	if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		printf("PASS http_start: (skipped: this libmicrohttpd has no TLS)\n");
		return 0;
	}
	snprintf(g_dir, sizeof g_dir, "/tmp/test_http_start.XXXXXX");
	if (!mkdtemp(g_dir)) {
		printf("FAIL http_start: mkdtemp\n");
		return 1;
	}
	TEST("http_start: a daemon that fails to start closes its listening socket once",
	     t_failed_start_closes_once);
	rmdir(g_dir);
	TEST_MAIN_END();
}
