/* http_resp.after (src/http/request.c): work a handler leaves for after its reply — on a light
 * route and on a heavy one — runs once, and the client has its whole reply before that work
 * ends. Each after() below waits until the test has read the reply (10 s at most); a reply
 * held back until after() returned would make it wait those 10 s and say so. */
#include "http/http.h"
#include "test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static sem_t g_read;        /* posted by the test once it has the reply */
static sem_t g_ran;         /* posted by after() as it ends */
static atomic_int g_runs;   /* after() calls */
static atomic_int g_waited; /* after() calls that gave up waiting for the client */

static void after(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 10;
	int rc;
	while ((rc = sem_timedwait(&g_read, &t)) != 0 && errno == EINTR)
		;
	if (rc != 0)
		atomic_fetch_add(&g_waited, 1);
	atomic_fetch_add(&g_runs, 1);
	sem_post(&g_ran);
}

static int h_after(const http_req *req, http_resp *resp)
{
	(void)req;
	http_reply_json_text(resp, 200, "{\"ok\":true}", 11);
	resp->after = after;
	return 0;
}

static const http_route ROUTES[] = {
    {"GET", "/light", h_after, false, 0, false, false, NULL},
    {"GET", "/heavy", h_after, false, 0, false, true, NULL},
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
	/* the reply is whole once its body is in (Connection: close ends it too) */
	while (len + 1 < cap && (r = read(fd, buf + len, cap - 1 - len)) > 0) {
		len += (size_t)r;
		buf[len] = '\0';
		if (strstr(buf, "{\"ok\":true}"))
			break;
	}
	buf[len] = '\0';
	close(fd);
}

static http_server *start(void)
{
	http_config cfg = {
	    .port = 0,
	    .threads = 2,
	    .conn_limit = 16,
	    .conn_timeout_s = 5,
	    .listen = "127.0.0.1",
	    .routes = ROUTES,
	    .nroutes = sizeof ROUTES / sizeof ROUTES[0],
	    .job_threads = 1,
	    .job_queue = 4,
	};
	return http_start(&cfg);
}

/* A server with ROUTES, a GET of path, and its after() checked; the server stopped. */
static void check_route(const char *path)
{
	http_server *srv = start();
	CHECK(srv != NULL);
	if (!srv)
		return;
	char buf[2048];
	atomic_store(&g_runs, 0);
	atomic_store(&g_waited, 0);
	get(http_port(srv), path, buf, sizeof buf);
	CHECK(strncmp(buf, "HTTP/1.1 200", 12) == 0);
	CHECK(strstr(buf, "{\"ok\":true}") != NULL);
	sem_post(&g_read);
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 30;
	CHECK(sem_timedwait(&g_ran, &t) == 0);
	CHECK_EQ_INT(atomic_load(&g_runs), 1);
	CHECK_EQ_INT(atomic_load(&g_waited), 0);
	http_stop(srv);
}

static void t_light(void)
{
	check_route("/light");
}

static void t_heavy(void)
{
	check_route("/heavy");
}

int main(void)
{
	sem_init(&g_read, 0, 0);
	sem_init(&g_ran, 0, 0);
	TEST("http: a light route's after() runs once, after the client has its reply", t_light);
	TEST("http: a heavy route's after() runs once on its job thread, after the client has its "
	     "reply",
	     t_heavy);
	sem_destroy(&g_read);
	sem_destroy(&g_ran);
	TEST_MAIN_END();
}
