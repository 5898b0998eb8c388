/* The addresses other phones reach this server at (http.h: http_addresses_init, http_lan_urls,
 * http_share_lan, http_share_origin).
 *
 * A page opened on the host's own machine (http://localhost:8080/) would give other phones links
 * and QR codes to themselves; what they can open is PUBLIC_URL, or the machine's IPv4 addresses
 * on its networks (as `make run` prints them: up, not loopback, not link-local) with the port
 * the server listens on, or only the LISTEN address when LISTEN names one (none when that is a
 * loopback address). Behind a trusted proxy the machine's own addresses are not what clients
 * reach: none then. The interfaces are read at each call, since a laptop changes networks.
 *
 * Only a client on loopback or a private network is told them (http_client_is_local): to
 * anyone else on the Internet they would be a map of the host's internal networks.
 *
 * State: set once before the server starts (main.c), then only read by request threads. */
#include "http/http.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static _Atomic unsigned g_port = 8080;
static atomic_bool g_https, g_proxied;
static char g_listen[64]; /* written before the server starts, then only read */

void http_addresses_init(unsigned port, bool https, const char *listen, bool proxied)
{
	atomic_store(&g_port, port);
	atomic_store(&g_https, https);
	atomic_store(&g_proxied, proxied);
	snprintf(g_listen, sizeof g_listen, "%s", listen ? listen : "");
}

void http_addresses_port(unsigned port)
{
	atomic_store(&g_port, port);
}

static void url_of(char out[HTTP_URL_MAX], bool https, const char *host, bool v6, unsigned port)
{
	snprintf(out, HTTP_URL_MAX, "%s://%s%s%s:%u/", https ? "https" : "http", v6 ? "[" : "",
	         host, v6 ? "]" : "", port);
}

size_t http_lan_urls(const struct ifaddrs *ifa, unsigned port, bool https,
                     char (*out)[HTTP_URL_MAX], size_t max)
{
	size_t n = 0;
	for (const struct ifaddrs *i = ifa; i && n < max; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP) ||
		    (i->ifa_flags & IFF_LOOPBACK))
			continue;
		const struct sockaddr_in *sin =
		    (const struct sockaddr_in *)(const void *)i->ifa_addr;
		uint32_t a = ntohl(sin->sin_addr.s_addr);
		if ((a >> 24) == 127 || (a >> 16) == 0xa9fe) /* loopback, link-local 169.254/16 */
			continue;
		char host[INET_ADDRSTRLEN];
		if (!inet_ntop(AF_INET, &sin->sin_addr, host, sizeof host))
			continue;
		url_of(out[n++], https, host, false, port);
	}
	return n;
}

/* Is a (IPv4 as IPv4-mapped) in the network net/bits, net given by its first bytes? */
static bool in_net(const struct in6_addr *a, const unsigned char *net, unsigned bits)
{
	for (unsigned i = 0; i < 16 && bits > 0; i++, bits = bits > 8 ? bits - 8 : 0) {
		unsigned char m = (unsigned char)(bits >= 8 ? 0xff : 0xff00u >> bits);
		if ((a->s6_addr[i] & m) != (net[i] & m))
			return false;
	}
	return true;
}

bool http_addr_is_local(const char *addr)
{
	static const struct {
		unsigned char net[16];
		unsigned bits;
	} local[] = {
	    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127}, 96 + 8},       /* 127/8 */
	    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10}, 96 + 8},        /* 10/8 */
	    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 172, 16}, 96 + 12},  /* 172.16/12 */
	    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 168}, 96 + 16}, /* 192.168/16 */
	    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 169, 254}, 96 + 16}, /* link-local */
	    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 128},         /* ::1 */
	    {{0xfc}, 7},                                                     /* unique local */
	    {{0xfe, 0x80}, 10},                                              /* link-local */
	};
	struct in6_addr a;
	struct in_addr v4;
	if (addr == NULL)
		return false;
	if (inet_pton(AF_INET, addr, &v4) == 1) {
		memset(&a, 0, sizeof a);
		a.s6_addr[10] = a.s6_addr[11] = 0xff;
		memcpy(a.s6_addr + 12, &v4, 4);
	} else if (inet_pton(AF_INET6, addr, &a) != 1) {
		return false;
	}
	for (size_t i = 0; i < sizeof local / sizeof local[0]; i++)
		if (in_net(&a, local[i].net, local[i].bits))
			return true;
	return false;
}

bool http_client_is_local(const http_req *req)
{
	char addr[INET6_ADDRSTRLEN];
	http_client_addr(req, addr, sizeof addr);
	return http_addr_is_local(addr);
}

bool http_host_is_loopback(const char *host)
{
	if (!host)
		return false;
	if (strcmp(host, "::1") == 0 || strncmp(host, "[::1]", 5) == 0)
		return true;
	size_t len = strcspn(host, ":"); /* the name without its port */
	return (len >= 4 && strncmp(host, "127.", 4) == 0) ||
	       (len == 9 && strncasecmp(host, "localhost", 9) == 0);
}

size_t http_share_lan(char (*out)[HTTP_URL_MAX], size_t max)
{
	const char *pub = getenv("PUBLIC_URL");
	if ((pub && *pub) || atomic_load(&g_proxied) || max == 0)
		return 0;
	unsigned port = atomic_load(&g_port);
	bool https = atomic_load(&g_https);
	if (!*g_listen || strcmp(g_listen, "0.0.0.0") == 0 || strcmp(g_listen, "::") == 0) {
		struct ifaddrs *ifa = NULL;
		if (getifaddrs(&ifa) != 0)
			return 0;
		size_t n = http_lan_urls(ifa, port, https, out, max);
		freeifaddrs(ifa);
		return n;
	}
	if (http_host_is_loopback(g_listen) || strlen(g_listen) >= HTTP_URL_MAX - 16)
		return 0;
	url_of(out[0], https, g_listen, strchr(g_listen, ':') != NULL, port);
	return 1;
}

/* Is every character of host one a Host header may carry (name, IPv4, [IPv6], port)? */
static bool host_ok(const char *host)
{
	if (!host || !*host || strlen(host) >= 200)
		return false;
	for (const char *p = host; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr(".-:[]", *p)))
			return false;
	return true;
}

void http_share_origin(const http_req *req, char *out, size_t cap)
{
	const char *pub = getenv("PUBLIC_URL"), *host = http_header(req, "Host");
	if (pub && *pub) {
		size_t n = strlen(pub);
		while (n > 0 && pub[n - 1] == '/')
			n--;
		snprintf(out, cap, "%.*s", (int)n, pub);
		return;
	}
	if ((!host_ok(host) || http_host_is_loopback(host)) && http_client_is_local(req)) {
		char lan[1][HTTP_URL_MAX];
		if (http_share_lan(lan, 1) == 1) {
			size_t n = strlen(lan[0]);
			snprintf(out, cap, "%.*s", (int)(n - 1), lan[0]); /* without its slash */
			return;
		}
	}
	snprintf(out, cap, "%s://%s", http_req_tls(req) ? "https" : "http",
	         host_ok(host) ? host : "localhost");
}
