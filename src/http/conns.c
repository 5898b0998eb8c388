/* Connections: a slot per TCP connection from STARTED to CLOSED, per-address caps, the head
 * deadline and its shortening when slow heads crowd the slots, eviction of the slowest head at
 * the limit, the reaper thread, trusted proxies and the client's address. */
#include "http/server_internal.h"
#include "base/clock.h"

#include "http/ratelimit.h"

/* ---- connections: deadlines and per-address caps ---- */

static long long ms_since(const struct timespec *t0, const struct timespec *t1)
{
	return (long long)(t1->tv_sec - t0->tv_sec) * 1000 + (t1->tv_nsec - t0->tv_nsec) / 1000000;
}

/* An address as IPv6 (IPv4 as IPv4-mapped), so one comparison covers both. */
static void addr_from_sockaddr(const struct sockaddr *sa, struct in6_addr *out)
{
	memset(out, 0, sizeof *out);
	if (sa && sa->sa_family == AF_INET) {
		out->s6_addr[10] = out->s6_addr[11] = 0xff;
		memcpy(out->s6_addr + 12, &((const struct sockaddr_in *)(const void *)sa)->sin_addr,
		       4);
	} else if (sa && sa->sa_family == AF_INET6) {
		*out = ((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
	}
}

static void addr_to_text(const struct in6_addr *a, char *buf, size_t len)
{
	if (IN6_IS_ADDR_V4MAPPED(a))
		inet_ntop(AF_INET, a->s6_addr + 12, buf, (socklen_t)len);
	else
		inet_ntop(AF_INET6, a, buf, (socklen_t)len);
}

/* A numeric IPv4 or IPv6 address; false when text is not one. */
static bool addr_parse(const char *text, struct in6_addr *out)
{
	struct in_addr v4;
	memset(out, 0, sizeof *out);
	if (inet_pton(AF_INET, text, &v4) == 1) {
		out->s6_addr[10] = out->s6_addr[11] = 0xff;
		memcpy(out->s6_addr + 12, &v4, 4);
		return true;
	}
	return inet_pton(AF_INET6, text, out) == 1;
}

/* Is a inside the network net/bits? */
static bool in_network(const struct in6_addr *a, const struct in6_addr *net, unsigned bits)
{
	unsigned whole = bits / 8, rest = bits % 8;
	if (memcmp(a->s6_addr, net->s6_addr, whole) != 0)
		return false;
	if (rest == 0)
		return true;
	unsigned char mask = (unsigned char)(0xff << (8 - rest));
	return (a->s6_addr[whole] & mask) == (net->s6_addr[whole] & mask);
}

/* Is a one of the TRUST_PROXY addresses or networks? */
static bool addr_trusted(const http_server *srv, const struct in6_addr *a)
{
	for (int i = 0; i < srv->ntrusted; i++)
		if (in_network(a, &srv->trusted[i], srv->trusted_bits[i]))
			return true;
	return false;
}

conn_slot *conn_slot_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *i =
	    conn ? MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT) : NULL;
	return i ? i->socket_context : NULL;
}

/* Logs a refusal at most once a second (an attack must not flood the log). */
static void log_refusal(const char *addr, int status, unsigned count)
{
	static atomic_llong last;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	long long now = (long long)t.tv_sec, prev = atomic_load(&last);
	if (now != prev && atomic_compare_exchange_strong(&last, &prev, now))
		log_client("http: refusing connections (%d) from %s, which has %u open", status,
		           addr, count);
}

/* Shuts a connection's socket (libmicrohttpd sees the hang-up and closes it). cmu held. */
static void cut_slot(http_server *srv, conn_slot *sl)
{
	if (sl->cut || sl->fd < 0)
		return;
	shutdown(sl->fd, SHUT_RDWR);
	sl->cut = true;
	srv->ncut++;
}

/* At the connection limit: shuts the connection that has waited longest for a request's head
 * (a refused one first), so that a new connection which sends its request whole is served
 * rather than refused. A slow-header client loses its slot to a prompt one, an idle
 * keep-alive connection (nothing in flight) too; a request whose head is in is never
 * touched. No grace period: a new connection is only at risk after conn_limit newer ones
 * arrived before its head did. Returns false when no connection waits for a head. cmu held. */
static bool evict_slowest_head(http_server *srv)
{
	conn_slot *victim = NULL;
	for (conn_slot *sl = srv->conns; sl; sl = sl->next) {
		if (!sl->head || sl->cut || sl->fd < 0)
			continue;
		bool older = !victim || sl->since.tv_sec < victim->since.tv_sec ||
		             (sl->since.tv_sec == victim->since.tv_sec &&
		              sl->since.tv_nsec < victim->since.tv_nsec);
		if (!victim || (sl->refuse && !victim->refuse) ||
		    (!sl->refuse == !victim->refuse && older))
			victim = sl;
	}
	if (!victim)
		return false;
	cut_slot(srv, victim);
	return true;
}

/* Logs at most once a second that connections are being evicted. */
static void log_eviction(unsigned limit)
{
	static atomic_llong last;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	long long now = (long long)t.tv_sec, prev = atomic_load(&last);
	if (now != prev && atomic_compare_exchange_strong(&last, &prev, now))
		log_client("http: %u connections: closing those that waited longest for a request",
		           limit);
}

/* STARTED: a slot in the list. Over the per-address cap (an IPv6 address counts as its
 * network of IPV6_PREFIX bits, ratelimit.h), the connection is marked to be
 * refused (its first request gets 429 and it must send it within REFUSED_DEADLINE_S), far
 * over it shut at once. At the connection limit the slowest connection still waiting for a
 * head makes room (evict_slowest_head); when there is none, 503 the same way as 429.
 * CLOSED: the slot goes. */
void conn_notify(void *cls, struct MHD_Connection *conn, void **sctx,
                 enum MHD_ConnectionNotificationCode toe)
{
	http_server *srv = cls;
	if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
		conn_slot *sl = *sctx;
		if (!sl)
			return;
		pthread_mutex_lock(&srv->cmu);
		if (sl->prev)
			sl->prev->next = sl->next;
		else
			srv->conns = sl->next;
		if (sl->next)
			sl->next->prev = sl->prev;
		srv->nconns--;
		if (sl->cut)
			srv->ncut--;
		pthread_mutex_unlock(&srv->cmu);
		free(sl);
		*sctx = NULL;
		return;
	}
	const union MHD_ConnectionInfo *fi =
	    MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	const union MHD_ConnectionInfo *ai =
	    MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	conn_slot *sl = xcalloc(1, sizeof *sl);
	sl->srv = srv;
	sl->fd = fi ? fi->connect_fd : -1;
	addr_from_sockaddr(ai ? ai->client_addr : NULL, &sl->addr);
	addr_to_text(&sl->addr, sl->addr_text, sizeof sl->addr_text);
	sl->trusted = addr_trusted(srv, &sl->addr);
	sl->receiving = true;
	sl->head = true;
	sl->deadline_s = srv->cfg.deadline_s;
	clock_gettime(CLOCK_MONOTONIC, &sl->since);

	pthread_mutex_lock(&srv->cmu);
	unsigned same = 0;
	for (const conn_slot *o = srv->conns; o && !sl->trusted; o = o->next)
		same += !o->cut && ratelimit_same_group(&o->addr, &sl->addr); /* IPv6: per /64 */
	bool hangup = false, evicted = false;
	if (!sl->trusted && same >= srv->cfg.per_addr) {
		sl->refuse = 429;
		hangup = same >= 2 * srv->cfg.per_addr;
	} else if (srv->nconns - srv->ncut >= srv->cfg.conn_limit) {
		evicted = evict_slowest_head(srv);
		if (!evicted)
			sl->refuse = 503;
	}
	if (sl->refuse)
		sl->deadline_s = REFUSED_DEADLINE_S;
	sl->next = srv->conns;
	if (srv->conns)
		srv->conns->prev = sl;
	srv->conns = sl;
	srv->nconns++;
	if (hangup)
		cut_slot(srv, sl);
	unsigned live = srv->nconns - srv->ncut;
	pthread_mutex_unlock(&srv->cmu);
	if (sl->refuse)
		log_refusal(sl->addr_text, sl->refuse, sl->refuse == 429 ? same + 1 : live);
	if (evicted)
		log_eviction(srv->cfg.conn_limit);
	*sctx = sl;
}

/* The request's head is in: from now on the connection is not evictable. */
void conn_head_in(http_server *srv, struct MHD_Connection *conn)
{
	conn_slot *sl = conn_slot_of(conn);
	if (!sl)
		return;
	pthread_mutex_lock(&srv->cmu);
	sl->head = false;
	pthread_mutex_unlock(&srv->cmu);
}

/* The request's head and body are in (or it was answered early): no deadline while the
 * response goes out (a stream may last for hours). */
void conn_head_done(http_server *srv, struct MHD_Connection *conn)
{
	conn_slot *sl = conn_slot_of(conn);
	if (!sl)
		return;
	pthread_mutex_lock(&srv->cmu);
	sl->receiving = false;
	pthread_mutex_unlock(&srv->cmu);
}

/* A response is done: the connection waits for its next request, within the deadline (so an
 * idle keep-alive connection is closed after it too, like Apache's KeepAliveTimeout). */
void conn_next_request(http_server *srv, struct MHD_Connection *conn)
{
	conn_slot *sl = conn_slot_of(conn);
	if (!sl)
		return;
	pthread_mutex_lock(&srv->cmu);
	sl->receiving = true;
	sl->head = true;
	clock_gettime(CLOCK_MONOTONIC, &sl->since);
	pthread_mutex_unlock(&srv->cmu);
}

/* The deadline for a request's head, in ms: the configured one while at most half the slots
 * wait for a head, then shorter in proportion down to CROWDED_HEAD_MS when all of them do
 * (slow-header clients from many addresses, each under its cap, would otherwise hold the
 * slots for the whole deadline). cmu held. */
static long long head_deadline_ms(const http_server *srv)
{
	long long full = (long long)srv->cfg.deadline_s * 1000, lim = srv->cfg.conn_limit;
	long long heads = 0;
	for (const conn_slot *sl = srv->conns; sl; sl = sl->next)
		heads += sl->head && !sl->cut && !sl->refuse;
	if (full <= CROWDED_HEAD_MS || 2 * heads <= lim)
		return full;
	long long over = 2 * heads - lim > lim ? lim : 2 * heads - lim; /* 0 … lim */
	return full - (full - CROWDED_HEAD_MS) * over / lim;
}

/* Every REAP_MS: shuts the socket of each connection past its deadline (libmicrohttpd sees
 * the hang-up and closes it); a head's deadline shortens when heads crowd the slots
 * (head_deadline_ms). MHD's own timeout restarts on every byte, so a client sending one
 * header byte a second would otherwise hold its slot for ever. */
void *conn_reaper(void *arg)
{
	http_server *srv = arg;
	pthread_setname_np(pthread_self(), "conn-reaper"); /* in top, perf and gdb */
	pthread_mutex_lock(&srv->cmu);
	while (srv->reaper_run) {
		struct timespec until = clock_in_ms(REAP_MS);
		pthread_cond_timedwait(&srv->rcv, &srv->cmu, &until);
		if (!srv->reaper_run)
			break;
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		long long head_ms = head_deadline_ms(srv);
		for (conn_slot *sl = srv->conns; sl; sl = sl->next) {
			long long ms = (long long)sl->deadline_s * 1000;
			if (sl->head && head_ms < ms)
				ms = head_ms;
			if (sl->receiving && ms_since(&sl->since, &now) >= ms)
				cut_slot(srv, sl);
		}
	}
	pthread_mutex_unlock(&srv->cmu);
	return NULL;
}

bool http_req_via_trusted_proxy(const http_req *req)
{
	conn_slot *sl = req ? conn_slot_of(req->conn) : NULL;
	return sl && sl->trusted;
}

/* A port after an address in X-Forwarded-For: 1 to 5 digits. */
static bool port_ok(const char *p)
{
	size_t n = strspn(p, "0123456789");
	return n >= 1 && n <= 5 && p[n] == '\0';
}

/* One hop of X-Forwarded-For, the bytes [from, to) with blanks around them: an IPv4 or IPv6
 * address, bare, or with a port as v4:port or [v6]:port, or bracketed as [v6]. false when the
 * hop is none of these (empty, a name, "unknown", an obfuscated identifier). */
static bool hop_parse(const char *from, const char *to, struct in6_addr *out)
{
	while (from < to && (*from == ' ' || *from == '\t'))
		from++;
	while (to > from && (to[-1] == ' ' || to[-1] == '\t'))
		to--;
	char tmp[INET6_ADDRSTRLEN + 8];
	size_t n = (size_t)(to - from);
	if (n == 0 || n >= sizeof tmp)
		return false;
	memcpy(tmp, from, n);
	tmp[n] = '\0';
	char *a = tmp, *colon = strchr(tmp, ':');
	if (*a == '[') {
		char *close = strchr(a, ']');
		if (!close || (close[1] && (close[1] != ':' || !port_ok(close + 2))))
			return false;
		*close = '\0';
		a++;
		if (!strchr(a, ':'))
			return false;
	} else if (colon && !strchr(colon + 1, ':')) {
		if (!port_ok(colon + 1))
			return false;
		*colon = '\0';
		if (strchr(a, ':') || !strchr(a, '.'))
			return false;
	}
	return addr_parse(a, out);
}

void conn_forwarded_client(const http_server *srv, const struct in6_addr *peer, const char *xff,
                           char *buf, size_t len)
{
	struct in6_addr client = *peer; /* the farthest hop whose word counts so far */
	if (!addr_trusted(srv, peer))
		xff = NULL;
	/* from the right: each hop was appended by the one after it; a trusted proxy's hop names
	 * the address it heard from, anything to the left of an untrusted hop is that hop's say */
	for (const char *end = xff ? xff + strlen(xff) : NULL; end;) {
		const char *start = end;
		while (start > xff && start[-1] != ',')
			start--;
		struct in6_addr hop;
		if (!hop_parse(start, end, &hop))
			break;
		client = hop;
		if (!addr_trusted(srv, &hop))
			break;
		end = start > xff ? start - 1 : NULL;
	}
	addr_to_text(&client, buf, len);
}

/* Every X-Forwarded-For line of the request joined by commas, in the order received (a proxy
 * may add its own line rather than extend the first). Owned by the caller; NULL when none. */
typedef struct {
	char *text;
	size_t len;
} xff_lines;

static enum MHD_Result xff_collect(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
	(void)kind;
	xff_lines *x = cls;
	if (!key || !value || strcasecmp(key, "X-Forwarded-For") != 0)
		return MHD_YES;
	size_t n = strlen(value);
	x->text = xrealloc(x->text, x->len + n + 2);
	if (x->len)
		x->text[x->len++] = ',';
	memcpy(x->text + x->len, value, n + 1);
	x->len += n;
	return MHD_YES;
}

void http_client_addr(const http_req *req, char *buf, size_t len)
{
	if (!buf || !len)
		return;
	buf[0] = '\0';
	conn_slot *sl = req ? conn_slot_of(req->conn) : NULL;
	if (!sl)
		return;
	if (!sl->trusted) {
		snprintf(buf, len, "%s", sl->addr_text);
		return;
	}
	xff_lines x = {NULL, 0};
	MHD_get_connection_values(req->conn, MHD_HEADER_KIND, xff_collect, &x);
	conn_forwarded_client(sl->srv, &sl->addr, x.text, buf, len);
	free(x.text);
}

/* Parses cfg.trust_proxy ("addr, addr/prefix …") into srv->trusted. -1 (logged) when an item
 * is not an address or a network. */
int conn_parse_trusted(http_server *srv, const char *list)
{
	char item[INET6_ADDRSTRLEN + 1];
	for (const char *p = list; p && *p;) {
		p += strspn(p, ", \t");
		size_t n = strcspn(p, ", \t");
		if (n == 0)
			break;
		if (n >= sizeof item || srv->ntrusted == MAX_TRUSTED) {
			log_warn("http: TRUST_PROXY: too many or too long addresses");
			return -1;
		}
		memcpy(item, p, n);
		item[n] = '\0';
		char *slash = strchr(item, '/');
		long bits = -1;
		if (slash) {
			char *end;
			*slash = '\0';
			bits = strtol(slash + 1, &end, 10);
			if (end == slash + 1 || *end)
				bits = 999;
		}
		struct in6_addr *net = &srv->trusted[srv->ntrusted];
		bool v4 = strchr(item, ':') == NULL;
		long max = v4 ? 32 : 128;
		if (!addr_parse(item, net) || bits > max || (slash && bits < 0)) {
			log_warn("http: TRUST_PROXY: %s is not an IP address or network", item);
			return -1;
		}
		srv->trusted_bits[srv->ntrusted] = (unsigned)(bits < 0 ? 128
		                                              : v4     ? 96 + bits
		                                                       : bits);
		srv->ntrusted++;
		p += n;
	}
	return 0;
}

/* Makes the connection limit and RLIMIT_NOFILE agree: raises the soft limit up to the hard
 * one when the connections need more, else lowers the connection limit. Says which. With no
 * configured limit (0) the soft limit goes as high as the hard one allows and the connection
 * limit is what then fits, up to AUTO_CONN_MAX: slow clients from many addresses have to hold
 * that many sockets before anyone is refused. */
void conn_fit_fd_limit(http_config *cfg, unsigned *mhd_limit)
{
	struct rlimit rl = {RLIM_INFINITY, RLIM_INFINITY}; /* unknown: nothing to fit */
	bool autosize = cfg->conn_limit == 0;
	if (autosize)
		cfg->conn_limit = AUTO_CONN_MAX;
	unsigned margin = cfg->conn_limit / 8 + 4; /* slots that only answer 503 */
	rlim_t need = (rlim_t)cfg->conn_limit + margin + FD_RESERVE + 2 * cfg->threads;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need) {
		rlim_t old = rl.rlim_cur;
		rl.rlim_cur =
		    rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need ? need : rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0 || getrlimit(RLIMIT_NOFILE, &rl) != 0)
			rl.rlim_cur = old;
		if (rl.rlim_cur > old)
			log_info("http: raised the file descriptor limit from %llu to %llu",
			         (unsigned long long)old, (unsigned long long)rl.rlim_cur);
	}
	if (rl.rlim_cur < need) {
		rlim_t room = rl.rlim_cur > FD_RESERVE + 2 * cfg->threads + 8
		                  ? rl.rlim_cur - FD_RESERVE - 2 * cfg->threads
		                  : 8;
		unsigned lim = (unsigned)(room * 8 / 9);
		if (!autosize)
			log_warn("http: CONN_LIMIT %u lowered to %u: the file descriptor limit is "
			         "%llu (raise it with ulimit -n)",
			         cfg->conn_limit, lim ? lim : 1, (unsigned long long)rl.rlim_cur);
		cfg->conn_limit = lim ? lim : 1;
		margin = cfg->conn_limit / 8 + 4;
	}
	*mhd_limit = cfg->conn_limit + margin;
	log_info("http: up to %u connections (%s%u per address, beyond: 429; %u more answered "
	         "503), file descriptor limit %llu",
	         cfg->conn_limit, autosize ? "sized from the file descriptor limit; " : "",
	         cfg->per_addr, margin, (unsigned long long)rl.rlim_cur);
}
