/* GET /api/v1/addresses: which interfaces give a LAN address (http_lan_urls, addresses.c), on a
 * made-up interface list: up, IPv4, neither loopback nor link-local; the port and the scheme. */
#include "http/http.h"
#include "test.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

enum { N = 7 };
static struct ifaddrs ifs[N];
static struct sockaddr_in v4[N];
static struct sockaddr_in6 v6;

static void add(int i, const char *name, unsigned flags, const char *addr)
{
	ifs[i].ifa_name = (char *)name;
	ifs[i].ifa_flags = flags;
	ifs[i].ifa_next = i + 1 < N ? &ifs[i + 1] : NULL;
	if (addr) {
		v4[i].sin_family = AF_INET;
		inet_pton(AF_INET, addr, &v4[i].sin_addr);
		ifs[i].ifa_addr = (struct sockaddr *)&v4[i];
	}
}

static void make_list(void)
{
	add(0, "lo", IFF_UP | IFF_LOOPBACK, "127.0.0.1");
	add(1, "eth0", IFF_UP, "192.168.1.20");
	add(2, "wlan0", 0, "10.0.0.5");        /* down */
	add(3, "eth1", IFF_UP, "169.254.3.4"); /* link-local */
	add(4, "tun0", IFF_UP, NULL);          /* no address */
	add(5, "eth0", IFF_UP, NULL);          /* IPv6, below */
	add(6, "docker0", IFF_UP, "172.17.0.1");
	v6.sin6_family = AF_INET6;
	inet_pton(AF_INET6, "fe80::1", &v6.sin6_addr);
	ifs[5].ifa_addr = (struct sockaddr *)&v6;
}

static void t_lan_urls(void)
{
	make_list();
	char out[8][HTTP_URL_MAX];
	size_t n = http_lan_urls(ifs, 8080, false, out, 8);
	CHECK_EQ_INT(n, 2);
	CHECK_STR(out[0], "http://192.168.1.20:8080/");
	CHECK_STR(out[1], "http://172.17.0.1:8080/");
	n = http_lan_urls(ifs, 8443, true, out, 1); /* at most max */
	CHECK_EQ_INT(n, 1);
	CHECK_STR(out[0], "https://192.168.1.20:8443/");
	CHECK_EQ_INT(http_lan_urls(NULL, 8080, false, out, 8), 0);
}

static void t_loopback_hosts(void)
{
	const char *yes[] = {"localhost",    "localhost:8080", "LocalHost:1", "127.0.0.1",
	                     "127.1.2.3:80", "[::1]",          "[::1]:8080",  "::1"};
	const char *no[] = {
	    "",           "192.168.1.20:8080", "localhost.example:8080", "mylocalhost",
	    "[::2]:8080", "1270.0.0.1",        "dice.example",           "[2001:db8::1]:80"};
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
		CHECK(http_host_is_loopback(yes[i]));
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		CHECK(!http_host_is_loopback(no[i]));
	CHECK(!http_host_is_loopback(NULL));
}

int main(void)
{
	TEST("addresses: the LAN URLs of the interfaces that are up, IPv4, not loopback or "
	     "link-local",
	     t_lan_urls);
	TEST("addresses: a Host that is the machine itself (localhost, 127/8, [::1]) with or "
	     "without "
	     "its port",
	     t_loopback_hosts);
	TEST_MAIN_END();
}
