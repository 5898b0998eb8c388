/* Deferred requests (src/http/request.c, http_defer): a handler that would wait, called on a
 * libmicrohttpd thread, defers; the server runs it again on a waiting thread, where it may
 * wait, while the one connection thread keeps answering; a full queue of waiting requests is
 * answered 503 with Retry-After at once. */
#include "http/http.h"
#include "test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static sem_t g_go;            /* posted by the test: a waiting handler may answer */
static sem_t g_waiting;       /* posted by a handler as it starts waiting */
static atomic_int g_deferred; /* calls that deferred */
static atomic_int g_waited;   /* calls that waited, on a thread that may wait */

static int h_wait(const http_req *req, http_resp *resp)
{
	(void)req;
	if (!http_may_wait()) {
		atomic_fetch_add(&g_deferred, 1);
		http_reply_json_text(resp, 200, "{\"early\":true}", 14); /* dropped by the defer */
		return http_defer(resp);
	}
	atomic_fetch_add(&g_waited, 1);
	sem_post(&g_waiting);
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 20;
	while (sem_timedwait(&g_go, &t) != 0 && errno == EINTR)
		;
	return http_reply_json_text(resp, 200, "{\"ok\":true}", 11);
}

static int h_fast(const http_req *req, http_resp *resp)
{
	(void)req;
	return http_reply_json_text(resp, 200, "{\"ok\":true}", 11);
}

static const http_route ROUTES[] = {
    {"GET", "/wait", h_wait, false, 0, false, false, NULL},
    {"GET", "/fast", h_fast, false, 0, false, false, NULL},
};

/* GET path on a fresh connection; the reply's bytes in buf (NUL-terminated), or "" */
static void get(uint16_t port, const char *path, char *buf, size_t cap)
{
	buf[0] = '\0';
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	struct timeval tv = {.tv_sec = 30};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		close(fd);
		return;
	}
	char req[128];
	int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
	                 path);
	if (write(fd, req, (size_t)n) != n) {
		close(fd);
		return;
	}
	size_t len = 0;
	ssize_t r;
	while (len + 1 < cap && (r = read(fd, buf + len, cap - 1 - len)) > 0)
		len += (size_t)r;
	buf[len] = '\0';
	close(fd);
}

typedef struct {
	uint16_t port;
	char buf[2048];
} getter;

static void *get_wait(void *arg)
{
	getter *g = arg;
	get(g->port, "/wait", g->buf, sizeof g->buf);
	return NULL;
}

/* Until a handler is waiting on a waiting thread (20 s at most). */
static bool handler_waits(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 20;
	int rc;
	while ((rc = sem_timedwait(&g_waiting, &t)) != 0 && errno == EINTR)
		;
	return rc == 0;
}

static http_server *start(void)
{
	http_config cfg = {
	    .port = 0,
	    .threads = 1, /* one connection thread: were it waiting, /fast could not answer */
	    .conn_limit = 16,
	    .conn_timeout_s = 5,
	    .listen = "127.0.0.1",
	    .routes = ROUTES,
	    .nroutes = sizeof ROUTES / sizeof ROUTES[0],
	    .job_threads = 1,
	    .job_queue = 4,
	    .wait_threads = 1,
	    .wait_queue = 1,
	};
	return http_start(&cfg);
}

static void t_defer(void)
{
	atomic_store(&g_deferred, 0);
	atomic_store(&g_waited, 0);
	http_server *srv = start();
	CHECK(srv != NULL);
	if (!srv)
		return;
	getter a = {.port = http_port(srv)}, b = {.port = http_port(srv)};
	pthread_t ta, tb;
	CHECK(pthread_create(&ta, NULL, get_wait, &a) == 0);
	CHECK(handler_waits()); /* a's handler deferred, then waits on the waiting thread */
	char buf[2048];
	get(http_port(srv), "/fast", buf, sizeof buf); /* the connection thread is free */
	CHECK(strncmp(buf, "HTTP/1.1 200", 12) == 0);
	/* b defers too and takes the one place in the queue; a third finds it full */
	CHECK(pthread_create(&tb, NULL, get_wait, &b) == 0);
	for (int i = 0; i < 2000 && atomic_load(&g_deferred) < 2; i++)
		usleep(5000);
	CHECK_EQ_INT(atomic_load(&g_deferred), 2);
	get(http_port(srv), "/wait", buf, sizeof buf);
	CHECK(strncmp(buf, "HTTP/1.1 503", 12) == 0);
	CHECK(strstr(buf, "Retry-After: ") != NULL);
	CHECK_EQ_INT(atomic_load(&g_deferred), 3);
	sem_post(&g_go); /* a answers; then b runs on the waiting thread, and answers */
	CHECK(handler_waits());
	sem_post(&g_go);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	CHECK(strncmp(a.buf, "HTTP/1.1 200", 12) == 0 && strstr(a.buf, "{\"ok\":true}"));
	CHECK(strncmp(b.buf, "HTTP/1.1 200", 12) == 0 && strstr(b.buf, "{\"ok\":true}"));
	CHECK(strstr(a.buf, "early") == NULL && strstr(b.buf, "early") == NULL);
	CHECK_EQ_INT(atomic_load(&g_waited), 2);
	http_stop(srv);
}

int main(void)
{
	sem_init(&g_go, 0, 0);
	sem_init(&g_waiting, 0, 0);
	TEST("http: a deferred request waits on a waiting thread, the connection thread serves on; "
	     "a full queue is 503 with Retry-After",
	     t_defer);
	sem_destroy(&g_go);
	sem_destroy(&g_waiting);
	TEST_MAIN_END();
}
