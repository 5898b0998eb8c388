/* HTTP/1.1 client connections of the load generator (games_load_conn.h). */
#include "games_load_conn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

static struct {
	int ep, port;
	conn_done_fn done;
	conn_failed_fn failed;
	uint64_t connections, reconnects;
} K;

void conn_setup(int ep, int port, conn_done_fn done, conn_failed_fn failed)
{
	K.ep = ep;
	K.port = port;
	K.done = done;
	K.failed = failed;
}

uint64_t conn_opened(void)
{
	return K.connections;
}

uint64_t conn_reconnects(void)
{
	return K.reconnects;
}

void conn_close(conn *c)
{
	if (c->fd >= 0) {
		epoll_ctl(K.ep, EPOLL_CTL_DEL, c->fd, NULL);
		close(c->fd);
	}
	c->fd = -1;
	c->used = false;
}

void conn_free(conn *c)
{
	conn_close(c);
	free(c->body);
	c->body = NULL;
}

/* The request in flight is lost: c is idle, the caller hears why. */
static void conn_fail(conn *c, const char *why)
{
	c->busy = false;
	K.failed(c, why);
}

static int conn_open(conn *c)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)K.port)};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* loopback: a blocking connect returns at once; the socket is non-blocking afterwards */
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		close(fd);
		return -1;
	}
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (fcntl(fd, F_SETFL, O_NONBLOCK) != 0) {
		close(fd);
		return -1;
	}
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
	if (epoll_ctl(K.ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
		close(fd);
		return -1;
	}
	c->fd = fd;
	c->used = false;
	K.connections++;
	return 0;
}

static void conn_want_out(conn *c, bool on)
{
	struct epoll_event ev = {.events = EPOLLIN | (on ? EPOLLOUT : 0u), .data.ptr = c};
	epoll_ctl(K.ep, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Writes what remains of the request; 0, or -1 (connection broken). */
static int conn_flush(conn *c)
{
	while (c->outoff < c->outlen) {
		ssize_t n = write(c->fd, c->out + c->outoff, c->outlen - c->outoff);
		if (n > 0) {
			c->outoff += (size_t)n;
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			conn_want_out(c, true);
			return 0;
		} else {
			return -1;
		}
	}
	return 0;
}

static void conn_reset_response(conn *c)
{
	c->hlen = 0;
	c->in_body = false;
	c->status = 0;
	c->close_after = false;
	c->body_left = 0;
	c->blen = 0;
	c->got = 0;
}

/* (Re)sends c->out on c, opening the connection if needed. 0, or -1 (nothing in flight). */
static int conn_send(conn *c)
{
	conn_reset_response(c);
	c->outoff = 0;
	if (c->fd < 0 && conn_open(c) != 0)
		return -1;
	if (conn_flush(c) != 0) {
		conn_close(c);
		if (conn_open(c) != 0 || (c->outoff = 0, conn_flush(c)) != 0)
			return -1;
		K.reconnects++;
	}
	return 0;
}

const char *conn_request(conn *c, const char *path, const char *token, const char *body, int expect,
                         bool want_body)
{
	size_t blen = strlen(body);
	int n = snprintf(c->out, sizeof c->out,
	                 "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
	                 "application/json\r\nContent-Length: %zu\r\n%s%s%s\r\n%s",
	                 path, blen, token ? "Authorization: Bearer " : "", token ? token : "",
	                 token ? "\r\n" : "", body);
	c->expect = expect;
	c->want_body = want_body;
	c->retried = false;
	if (n < 0 || (size_t)n >= sizeof c->out)
		return "request too large";
	c->outlen = (size_t)n;
	if (conn_send(c) != 0)
		return "cannot connect/send";
	c->busy = true;
	return NULL;
}

static int body_append(conn *c, const char *p, size_t n)
{
	if (c->blen + n + 1 > c->bcap) {
		size_t cap = c->bcap ? c->bcap : 16384;
		while (cap < c->blen + n + 1)
			cap *= 2;
		char *nb = realloc(c->body, cap);
		if (nb == NULL)
			return -1;
		c->body = nb;
		c->bcap = cap;
	}
	memcpy(c->body + c->blen, p, n);
	c->blen += n;
	c->body[c->blen] = '\0';
	return 0;
}

/* Parses the status line and the headers we need. 0, or -1. */
static int parse_head(conn *c, size_t hend)
{
	c->hdr[hend] = '\0';
	if (strncmp(c->hdr, "HTTP/1.", 7) != 0)
		return -1;
	const char *sp = strchr(c->hdr, ' ');
	if (sp == NULL)
		return -1;
	c->status = atoi(sp + 1);
	bool has_len = false;
	for (char *line = strstr(c->hdr, "\r\n"); line && line[2];
	     line = strstr(line + 2, "\r\n")) {
		const char *h = line + 2;
		if (strncasecmp(h, "Content-Length:", 15) == 0) {
			c->body_left = (size_t)strtoull(h + 15, NULL, 10);
			has_len = true;
		} else if (strncasecmp(h, "Connection:", 11) == 0) {
			const char *v = h + 11;
			while (*v == ' ')
				v++;
			if (strncasecmp(v, "close", 5) == 0)
				c->close_after = true;
		} else if (strncasecmp(h, "Transfer-Encoding:", 18) == 0) {
			return -1; /* chunked replies are not expected */
		}
	}
	return has_len ? 0 : -1;
}

/* A whole reply arrived: c is idle (closed first when the server said so), the caller has it. */
static void conn_done(conn *c)
{
	c->busy = false;
	c->used = true;
	if (c->close_after)
		conn_close(c);
	K.done(c);
}

/* Feeds received bytes; returns -1 on a protocol error. */
static int conn_feed(conn *c, const char *p, size_t n)
{
	c->got += n;
	while (n > 0) {
		if (!c->in_body) {
			size_t take = n;
			if (c->hlen + take > CONN_HDR_MAX - 1)
				take = CONN_HDR_MAX - 1 - c->hlen;
			if (take == 0)
				return -1;
			size_t old = c->hlen;
			memcpy(c->hdr + c->hlen, p, take);
			c->hlen += take;
			c->hdr[c->hlen] = '\0';
			/* look for the blank line, starting a little before the new bytes */
			size_t from = old > 3 ? old - 3 : 0;
			char *e = strstr(c->hdr + from, "\r\n\r\n");
			if (e == NULL) {
				p += take;
				n -= take;
				continue;
			}
			size_t hend = (size_t)(e - c->hdr) + 4;
			size_t used = hend - old;
			p += used;
			n -= used;
			if (parse_head(c, hend - 2) != 0)
				return -1;
			c->in_body = true;
			if (c->status != c->expect)
				c->want_body = true;
		}
		if (c->in_body) {
			size_t take = n < c->body_left ? n : c->body_left;
			if (c->want_body && body_append(c, p, take) != 0)
				return -1;
			c->body_left -= take;
			p += take;
			n -= take;
			if (c->body_left == 0) {
				if (n != 0)
					return -1; /* no pipelining: nothing may follow */
				conn_done(c);
				return 0;
			}
		}
	}
	return 0;
}

static void conn_readable(conn *c)
{
	char buf[65536];
	for (;;) {
		ssize_t n = read(c->fd, buf, sizeof buf);
		if (n > 0) {
			if (!c->busy) { /* unsolicited bytes */
				conn_close(c);
				return;
			}
			if (conn_feed(c, buf, (size_t)n) != 0) {
				conn_close(c);
				conn_fail(c, "malformed response");
				return;
			}
			if (c->fd < 0)
				return;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		/* EOF or error */
		bool stale = c->used && c->got == 0 && !c->retried;
		conn_close(c);
		if (!c->busy)
			return;
		if (stale) { /* the keep-alive race: resend once on a fresh connection */
			c->retried = true;
			K.reconnects++;
			if (conn_send(c) == 0)
				return;
		}
		conn_fail(c, "connection closed");
		return;
	}
}

void conn_event(conn *c, uint32_t events)
{
	if (c->fd < 0)
		return;
	if ((events & EPOLLOUT) && c->busy) {
		if (conn_flush(c) != 0) {
			conn_close(c);
			conn_fail(c, "write failed");
			return;
		}
		if (c->outoff == c->outlen)
			conn_want_out(c, false);
	}
	if (events & (EPOLLIN | EPOLLERR | EPOLLHUP))
		conn_readable(c);
}
