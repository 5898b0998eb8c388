/* The client's address behind reverse proxies (src/http/conns.c, conn_forwarded_client):
 * X-Forwarded-For read from the right, past every hop that is a TRUST_PROXY address, the first
 * untrusted hop being the client; the header is ignored from an untrusted peer. A table of
 * cases: the trusted list, the connection's peer, the header, the address expected. */
#include "http/server_internal.h"
#include "test.h"

typedef struct {
	const char *trust, *peer, *xff, *want, *why;
} proxy_case;

static const proxy_case CASES[] = {
    /* one proxy (nginx on loopback) */
    {"127.0.0.1", "127.0.0.1", NULL, "127.0.0.1", "no header: the peer"},
    {"127.0.0.1", "127.0.0.1", "203.0.113.7", "203.0.113.7", "the hop the proxy appended"},
    {"127.0.0.1", "127.0.0.1", "198.51.100.1, 203.0.113.7", "203.0.113.7",
     "a forged first hop does not count"},
    {"127.0.0.1", "192.0.2.9", "203.0.113.7", "192.0.2.9", "untrusted peer: header ignored"},
    {"", "127.0.0.1", "203.0.113.7", "127.0.0.1", "no TRUST_PROXY: header ignored"},
    /* two proxies: a TLS proxy (10.0.0.5) in front of nginx (127.0.0.1) */
    {"127.0.0.1, 10.0.0.5", "127.0.0.1", "203.0.113.7, 10.0.0.5", "203.0.113.7",
     "the outer proxy's hop is skipped"},
    {"127.0.0.1, 10.0.0.5", "127.0.0.1", "198.51.100.1, 203.0.113.7, 10.0.0.5", "203.0.113.7",
     "the client's own claim is left of the client"},
    {"127.0.0.1, 10.0.0.5", "127.0.0.1", "203.0.113.8, 10.0.0.5", "203.0.113.8",
     "another client behind the same proxies"},
    {"127.0.0.1", "127.0.0.1", "203.0.113.7, 10.0.0.5", "10.0.0.5",
     "an outer proxy not trusted is the client"},
    {"127.0.0.0/8, 10.0.0.0/8", "127.0.0.1", "203.0.113.7, 10.1.2.3, 10.9.9.9", "203.0.113.7",
     "networks, several trusted hops"},
    {"127.0.0.1, 10.0.0.5", "127.0.0.1", "10.0.0.5, 10.0.0.5", "10.0.0.5",
     "every hop trusted: the leftmost"},
    {"127.0.0.1, 10.0.0.0/8", "127.0.0.1", "10.0.0.7, 10.0.0.5", "10.0.0.7",
     "every hop trusted: the leftmost one"},
    /* hops that are not addresses */
    {"127.0.0.1, 10.0.0.5", "127.0.0.1", "unknown, 10.0.0.5", "10.0.0.5",
     "not an address: the trusted hop after it"},
    {"127.0.0.1", "127.0.0.1", "203.0.113.7, ", "127.0.0.1", "empty last hop: the peer"},
    {"127.0.0.1", "127.0.0.1", "203.0.113.7, garbage", "127.0.0.1", "garbage: the peer"},
    {"127.0.0.1", "127.0.0.1", "", "127.0.0.1", "empty header: the peer"},
    {"127.0.0.1", "127.0.0.1", "1.2.3.4.5", "127.0.0.1", "not an IPv4 address"},
    /* ports and IPv6 */
    {"127.0.0.1", "127.0.0.1", "203.0.113.7:51234", "203.0.113.7", "v4:port"},
    {"127.0.0.1", "127.0.0.1", "203.0.113.7:", "127.0.0.1", "v4: without a port"},
    {"127.0.0.1", "127.0.0.1", "203.0.113.7:123456", "127.0.0.1", "v4:port too long"},
    {"127.0.0.1", "127.0.0.1", "2001:db8::7", "2001:db8::7", "bare IPv6"},
    {"127.0.0.1", "127.0.0.1", "[2001:db8::7]:443", "2001:db8::7", "[v6]:port"},
    {"127.0.0.1", "127.0.0.1", "[2001:db8::7]", "2001:db8::7", "[v6]"},
    {"127.0.0.1", "127.0.0.1", "[203.0.113.7]", "127.0.0.1", "[v4] is no IPv6"},
    {"::1, 2001:db8:1::/48", "::1", "2001:db8::7,2001:db8:1::2", "2001:db8::7",
     "IPv6 proxies, no blanks"},
    {"127.0.0.1", "127.0.0.1", "\t203.0.113.7\t", "203.0.113.7", "tabs around a hop"},
    {"127.0.0.1", "127.0.0.1", "::ffff:203.0.113.7", "203.0.113.7", "IPv4-mapped as IPv4"},
};

/* An address as the server keeps it (IPv4 as IPv4-mapped IPv6). */
static struct in6_addr addr(const char *text)
{
	struct in6_addr a;
	struct in_addr v4;
	memset(&a, 0, sizeof a);
	if (inet_pton(AF_INET, text, &v4) == 1) {
		a.s6_addr[10] = a.s6_addr[11] = 0xff;
		memcpy(a.s6_addr + 12, &v4, 4);
	} else if (inet_pton(AF_INET6, text, &a) != 1) {
		printf("  bad peer in the table: %s\n", text);
	}
	return a;
}

static void t_table(void)
{
	for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
		const proxy_case *c = &CASES[i];
		http_server *srv = xcalloc(1, sizeof *srv);
		CHECK_EQ_INT(conn_parse_trusted(srv, c->trust), 0);
		struct in6_addr peer = addr(c->peer);
		char got[INET6_ADDRSTRLEN];
		conn_forwarded_client(srv, &peer, c->xff, got, sizeof got);
		if (strcmp(got, c->want) != 0) {
			printf("  %s: TRUST_PROXY \"%s\", peer %s, X-Forwarded-For \"%s\": %s, not "
			       "%s\n",
			       c->why, c->trust, c->peer, c->xff ? c->xff : "(none)", got, c->want);
			test_failed_now = 1;
		}
		free(srv);
	}
}

/* A long header of trusted hops with the client at the far left: read to the end, in bounds. */
static void t_long_header(void)
{
	http_server *srv = xcalloc(1, sizeof *srv);
	CHECK_EQ_INT(conn_parse_trusted(srv, "10.0.0.0/8, 127.0.0.1"), 0);
	size_t cap = 16 * 1024;
	char *xff = xmalloc(cap);
	size_t n = (size_t)snprintf(xff, cap, "203.0.113.9");
	while (n + 16 < cap)
		n += (size_t)snprintf(xff + n, cap - n, ", 10.0.%u.%u", (unsigned)(n / 256 % 256),
		                      (unsigned)(n % 256));
	struct in6_addr peer = addr("127.0.0.1");
	char got[INET6_ADDRSTRLEN];
	conn_forwarded_client(srv, &peer, xff, got, sizeof got);
	CHECK_STR(got, "203.0.113.9");
	free(xff);
	free(srv);
}

int main(void)
{
	TEST("proxy: X-Forwarded-For read from the right past trusted hops (table)", t_table);
	TEST("proxy: a long header of trusted hops", t_long_header);
	TEST_MAIN_END();
}
