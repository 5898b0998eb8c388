/* The libmicrohttpd daemon, started and stopped: the configuration's defaults, TLS key pair,
 * the listening socket, the daemon's options (thread pool, limits, the callbacks of request.c
 * and conns.c), the job pool and the waiting threads, the deadline reaper and the event-stream
 * probe; and the graceful stop (no new connection, event streams ended, in-flight requests
 * drained for up to DRAIN_S, pools drained, reaper joined). A request's life is request.c's,
 * a connection's conns.c's. */
#include "http/server_internal.h"

/* Reads a whole (small) file into a NUL-terminated string; NULL (logged) on failure. */
static char *read_pem(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		log_warn("http: cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	char *buf = xmalloc(256 * 1024);
	size_t n = fread(buf, 1, 256 * 1024 - 1, f);
	bool bad = ferror(f) || n == 0;
	fclose(f);
	if (bad) {
		log_warn("http: %s is empty or unreadable", path);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* The listening socket: cfg.listen (numeric address) or every interface (IPv6 dual stack,
 * else IPv4). No SO_REUSEPORT: a second server on the same port fails with "address in use"
 * instead of silently taking half the traffic. Returns the socket or -1 (logged). */
static int open_listener(const http_config *cfg)
{
	struct sockaddr_storage ss;
	memset(&ss, 0, sizeof ss);
	struct sockaddr_in *v4 = (struct sockaddr_in *)(void *)&ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)(void *)&ss;
	bool any = !cfg->listen || !*cfg->listen;
	if (any || inet_pton(AF_INET6, cfg->listen, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(cfg->port);
		if (any)
			v6->sin6_addr = in6addr_any;
	} else if (inet_pton(AF_INET, cfg->listen, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons(cfg->port);
	} else {
		log_warn("http: LISTEN=%s is not a numeric IPv4 or IPv6 address", cfg->listen);
		return -1;
	}
	int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 && any) { /* no IPv6 on this machine: IPv4 only */
		memset(&ss, 0, sizeof ss);
		v4->sin_family = AF_INET;
		v4->sin_port = htons(cfg->port);
		v4->sin_addr.s_addr = htonl(INADDR_ANY);
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	}
	if (fd < 0) {
		log_warn("http: socket: %s", strerror(errno));
		return -1;
	}
	int on = 1, off = 0;
	/* SO_REUSEADDR only lets a restart bind over connections in TIME_WAIT; Linux still
	 * refuses a second listener on the same address and port. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, any ? &off : &on, sizeof on);
	socklen_t len = ss.ss_family == AF_INET6 ? sizeof *v6 : sizeof *v4;
	if (bind(fd, (struct sockaddr *)&ss, len) != 0 || listen(fd, SOMAXCONN) != 0) {
		int e = errno;
		log_warn("http: cannot listen on %s port %u: %s",
		         any ? "every interface" : cfg->listen, (unsigned)cfg->port,
		         e == EADDRINUSE ? "address in use (another server?)" : strerror(e));
		close(fd);
		return -1;
	}
	return fd;
}

static void free_server(http_server *srv)
{
	pthread_mutex_destroy(&srv->mu);
	pthread_cond_destroy(&srv->cv);
	pthread_mutex_destroy(&srv->cmu);
	pthread_cond_destroy(&srv->rcv);
	free(srv->tls_cert);
	free(srv->tls_key);
	free(srv);
}

/* The daemon on the listening socket fd. MHD owns fd from this call on, whatever its outcome:
 * a failed start has closed it already (libmicrohttpd 0.9.75 does so when the TLS set-up or
 * the descriptors for its inter-thread channels fail; tests/unit/test_http_start.c). */
static struct MHD_Daemon *start_daemon(http_server *srv, int fd, unsigned mhd_limit)
{
	/* ITC: needed by MHD_quiesce_daemon; suspend/resume: server-sent events (http/sse.c).
	 * poll(), not epoll: with a thread pool on epoll, libmicrohttpd 0.9.75's
	 * MHD_quiesce_daemon() marks each worker quiesced and then removes the listening socket
	 * from the worker's epoll set, while the woken worker may remove it first; the loser's
	 * epoll_ctl(DEL) fails and the library aborts ("Failed to remove listen FD from epoll
	 * set", seen in the suite under ASan). With poll() quiescing only signals the workers.
	 * At this service's connection counts (≤ 1024, a few per phone) poll costs nothing
	 * measurable (README, benchmarks). */
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME;
	if (MHD_is_feature_supported(MHD_FEATURE_POLL) == MHD_YES)
		flags |= MHD_USE_POLL; /* else select() */
	if (srv->tls_cert)
		flags |= MHD_USE_TLS;
	struct MHD_OptionItem opts[] = {
	    {MHD_OPTION_LISTEN_SOCKET, fd, NULL},
	    {MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)srv->cfg.threads, NULL},
	    {MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)srv->cfg.conn_timeout_s, NULL},
	    {MHD_OPTION_CONNECTION_LIMIT, (intptr_t)mhd_limit, NULL},
	    {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)MEMORY_LIMIT, NULL},
	    {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)request_completed, srv},
	    {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)conn_notify, srv},
	    {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)request_uri_log, srv},
	    {MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)target_mhd_logger, srv},
	    {srv->tls_cert ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, srv->tls_cert},
	    {MHD_OPTION_HTTPS_MEM_KEY, 0, srv->tls_key},
	    {MHD_OPTION_END, 0, NULL},
	};
	return MHD_start_daemon(flags, 0, NULL, NULL, request_access, srv, MHD_OPTION_ARRAY, opts,
	                        MHD_OPTION_END);
}

/* Job threads when none are configured: one less than the CPUs this process may run on, at
 * least one. Heavy jobs are CPU-bound (a password hash, a PDF) and memory-hungry (Argon2id
 * takes 19 MiB): with one CPU left to the connection threads and the database, cheap
 * requests keep their latency while the heavy ones queue (tests/bench/jobs.sh). */
static unsigned default_job_threads(void)
{
	cpu_set_t set;
	int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 2;
	return n > 1 ? (unsigned)n - 1 : 1;
}

http_server *http_start(const http_config *cfg)
{
	if (!cfg || (!cfg->routes && cfg->nroutes))
		return NULL;
	http_server *srv = xcalloc(1, sizeof *srv);
	srv->cfg = *cfg;
	if (srv->cfg.threads == 0)
		srv->cfg.threads = 4;
	if (srv->cfg.conn_timeout_s == 0)
		srv->cfg.conn_timeout_s = 30;
	if (srv->cfg.per_addr == 0)
		srv->cfg.per_addr = PER_ADDR_DEFAULT;
	if (srv->cfg.deadline_s == 0)
		srv->cfg.deadline_s = DEADLINE_DEFAULT_S;
	if (srv->cfg.job_threads == 0)
		srv->cfg.job_threads = default_job_threads();
	if (srv->cfg.job_queue == 0)
		srv->cfg.job_queue = JOB_QUEUE_DEFAULT;
	if (srv->cfg.wait_threads == 0)
		srv->cfg.wait_threads = srv->cfg.threads;
	if (srv->cfg.wait_queue == 0)
		srv->cfg.wait_queue = WAIT_QUEUE_DEFAULT;
	if (cfg->static_dir && !realpath(cfg->static_dir, srv->root)) {
		log_warn("http: static dir %s unusable (%s); static files answer 404",
		         cfg->static_dir, strerror(errno));
		srv->root[0] = '\0';
	}
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&srv->mu, NULL);
	pthread_cond_init(&srv->cv, &ca);
	pthread_mutex_init(&srv->cmu, NULL);
	pthread_cond_init(&srv->rcv, &ca);
	pthread_condattr_destroy(&ca);
	atomic_init(&srv->stopping, false);

	if (conn_parse_trusted(srv, cfg->trust_proxy) != 0) {
		free_server(srv);
		return NULL;
	}
	bool tls = (cfg->tls_cert && *cfg->tls_cert) || (cfg->tls_key && *cfg->tls_key);
	if (tls) {
		if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
			log_warn("http: this libmicrohttpd has no TLS support");
			free_server(srv);
			return NULL;
		}
		srv->tls_cert = cfg->tls_cert && *cfg->tls_cert ? read_pem(cfg->tls_cert) : NULL;
		srv->tls_key =
		    srv->tls_cert && cfg->tls_key && *cfg->tls_key ? read_pem(cfg->tls_key) : NULL;
		if (!srv->tls_cert || !srv->tls_key) {
			log_warn(
			    "http: HTTPS needs both TLS_CERT and TLS_KEY (readable PEM files)");
			free_server(srv);
			return NULL;
		}
	}
	unsigned mhd_limit;
	conn_fit_fd_limit(&srv->cfg, &mhd_limit);
	int fd = open_listener(&srv->cfg);
	if (fd < 0) {
		free_server(srv);
		return NULL;
	}
	srv->d = start_daemon(srv, fd, mhd_limit);
	if (!srv->d) { /* fd is closed: start_daemon */
		log_warn("http: cannot start the HTTP daemon%s",
		         tls ? " (is the key pair valid?)" : "");
		free_server(srv);
		return NULL;
	}
	srv->jobs = jobs_start("jobs", srv->cfg.job_threads, srv->cfg.job_queue, true,
	                       srv->cfg.pool_thread_start);
	if (!srv->jobs)
		log_warn("http: no job threads: slow requests run on the connection threads");
	srv->waits = jobs_start("waits", srv->cfg.wait_threads, srv->cfg.wait_queue, false,
	                        srv->cfg.pool_thread_start);
	if (!srv->waits)
		log_warn("http: no waiting threads: a request that must wait gets 503");
	srv->reaper_run = true;
	if (pthread_create(&srv->reaper, NULL, conn_reaper, srv) != 0) {
		log_warn("http: cannot start the deadline thread: no request deadline");
		srv->reaper_run = false;
	}
	sse_limits lim = {.per_topic = srv->cfg.sse_per_topic, .per_owner = srv->cfg.sse_per_owner};
	if (sse_start(&lim) != 0)
		log_warn("http: cannot start the event-stream probe: dead streams are found late");
	return srv;
}

uint16_t http_port(const http_server *srv)
{
	if (!srv || !srv->d)
		return 0;
	const union MHD_DaemonInfo *i = MHD_get_daemon_info(srv->d, MHD_DAEMON_INFO_LISTEN_FD);
	struct sockaddr_storage ss;
	socklen_t len = sizeof ss;
	if (!i || getsockname(i->listen_fd, (struct sockaddr *)&ss, &len) != 0)
		return 0;
	return ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)(void *)&ss)->sin6_port
	                                      : ((struct sockaddr_in *)(void *)&ss)->sin_port);
}

bool http_tls(const http_server *srv)
{
	return srv && srv->tls_cert;
}

void http_stop(http_server *srv)
{
	if (!srv)
		return;
	atomic_store(&srv->stopping, true);
	MHD_socket ls = MHD_quiesce_daemon(srv->d);
	if (ls != MHD_INVALID_SOCKET)
		close(ls);
	if (srv->cfg.on_quiesce)
		srv->cfg.on_quiesce();
	sse_stop(); /* ends the event streams so the drain can finish */
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += DRAIN_S;
	pthread_mutex_lock(&srv->mu);
	while (srv->active > 0) {
		if (pthread_cond_timedwait(&srv->cv, &srv->mu, &deadline) == ETIMEDOUT) {
			log_warn("http: %u request(s) still in flight after %d s; closing them",
			         srv->active, (int)DRAIN_S);
			break;
		}
	}
	pthread_mutex_unlock(&srv->mu);
	/* Jobs still queued after the drain are answered 503, running ones finish; either way
	 * their connections are resumed before MHD_stop_daemon, which must find none suspended. */
	jobs_stop(srv->jobs);
	srv->jobs = NULL;
	jobs_stop(srv->waits);
	srv->waits = NULL;
	/* Parked replies are finished by their holders, which stop after the server. */
	while (atomic_load(&srv->parked) > 0)
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
	pthread_mutex_lock(&srv->cmu);
	bool joined = srv->reaper_run;
	srv->reaper_run = false;
	pthread_cond_broadcast(&srv->rcv);
	pthread_mutex_unlock(&srv->cmu);
	if (joined)
		pthread_join(srv->reaper, NULL);
	MHD_stop_daemon(srv->d);
	free_server(srv);
}
