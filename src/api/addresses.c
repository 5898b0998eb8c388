/* GET /api/v1/addresses: the addresses other phones can open, for a page opened on localhost
 * (its links and QR codes would point other phones at themselves).
 *
 *   200 {"public_url": PUBLIC_URL or null, "lan": ["http://192.168.1.20:8080/", …]}
 *
 * "lan" lists the machine's IPv4 addresses on its networks (as `make run` prints them: up, not
 * loopback, not link-local) with the port the server listens on; only the LISTEN address when
 * LISTEN names one (none when it is a loopback address). It stays empty when PUBLIC_URL is set
 * (that is the address to give) or TRUST_PROXY is (a proxy's clients do not reach the machine's
 * own addresses). Read at each request: a laptop changes networks. Never cached. */
#include "api/api.h"

#include "json/jx.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <json-c/json.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LAN_MAX = 8 };

/* Set once at start (main.c), read by every request. */
static _Atomic unsigned g_port = 8080;
static atomic_bool g_https, g_proxied;
static char g_listen[64]; /* written before the server starts, then only read */

void api_addresses_init(unsigned port, bool https, const char *listen, bool proxied)
{
	atomic_store(&g_port, port);
	atomic_store(&g_https, https);
	atomic_store(&g_proxied, proxied);
	snprintf(g_listen, sizeof g_listen, "%s", listen ? listen : "");
}

void api_addresses_port(unsigned port)
{
	atomic_store(&g_port, port);
}

static void url_of(char out[API_URL_MAX], bool https, const char *host, bool v6, unsigned port)
{
	snprintf(out, API_URL_MAX, "%s://%s%s%s:%u/", https ? "https" : "http", v6 ? "[" : "", host,
	         v6 ? "]" : "", port);
}

size_t api_lan_urls(const struct ifaddrs *ifa, unsigned port, bool https, char (*out)[API_URL_MAX],
                    size_t max)
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

/* LISTEN names a loopback address: other phones cannot reach it. */
static bool loopback(const char *host)
{
	return strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0 ||
	       strcmp(host, "localhost") == 0;
}

/* The LAN URLs into lan (a JSON array). */
static void lan_urls(json_object *lan)
{
	char urls[LAN_MAX][API_URL_MAX];
	size_t n = 0;
	unsigned port = atomic_load(&g_port);
	bool https = atomic_load(&g_https);
	if (!*g_listen || strcmp(g_listen, "0.0.0.0") == 0 || strcmp(g_listen, "::") == 0) {
		struct ifaddrs *ifa = NULL;
		if (getifaddrs(&ifa) == 0) {
			n = api_lan_urls(ifa, port, https, urls, LAN_MAX);
			freeifaddrs(ifa);
		}
	} else if (!loopback(g_listen) && strlen(g_listen) < API_URL_MAX - 16) {
		url_of(urls[n++], https, g_listen, strchr(g_listen, ':') != NULL, port);
	}
	for (size_t i = 0; i < n; i++)
		jx_push(lan, jx_str(urls[i]));
}

int api_addresses(const http_req *req, http_resp *resp)
{
	(void)req;
	const char *pub = getenv("PUBLIC_URL");
	bool has_pub = pub && *pub;
	json_object *o = jx_obj(), *lan = jx_arr();
	jx_set(o, "public_url", has_pub ? jx_str(pub) : jx_null());
	if (!has_pub && !atomic_load(&g_proxied))
		lan_urls(lan);
	jx_set(o, "lan", lan);
	int rc = http_reply_json(resp, 200, o); /* takes o */
	if (rc == 0)
		rc = http_resp_header(resp, "Cache-Control", "no-store");
	return rc;
}
