/* Rate limits (src/http/ratelimit.c) and which clients are local (src/http/addresses.c):
 * address groups (IPv6 by its /64, IPv4 alone), a limited bucket that no amount of other keys
 * pushes out of the table, the table's bound, and the local/public table of addresses. */
#include "http/ratelimit.h"
#include "http/ratelimit_table.h" /* how many buckets the table holds */
#include "test.h"

#include <arpa/inet.h>
#include <stdlib.h>

typedef struct {
	const char *addr;
	unsigned prefix;
	const char *want, *why;
} group_case;

static const group_case GROUPS[] = {
    {"2001:db8:1:2:aaaa:bbbb:cccc:dddd", 64, "2001:db8:1:2::/64", "the /64 of an address"},
    {"2001:db8:1:2::1", 64, "2001:db8:1:2::/64", "another address of the same /64"},
    {"2001:db8:1:3::1", 64, "2001:db8:1:3::/64", "the next /64 is another group"},
    {"2001:db8:1:2:ffff::1", 56, "2001:db8:1::/56", "a /56"},
    {"2001:db8:1:2:ffff::1", 60, "2001:db8:1::/60", "a /60: the nibble beyond is cleared"},
    {"2001:db8:1:ff::1", 61, "2001:db8:1:f8::/61", "a /61: bits inside a byte"},
    {"2001:db8::1", 128, "2001:db8::1", "prefix 128: the address itself"},
    {"::1", 64, "::/64", "IPv6 loopback"},
    {"203.0.113.7", 64, "203.0.113.7", "IPv4: the address itself"},
    {"::ffff:203.0.113.7", 64, "::ffff:203.0.113.7", "IPv4-mapped: the address itself"},
    {"", 64, "", "unknown: empty"},
    {"not an address", 64, "not an address", "not an address: as it is"},
};

static void test_groups(void)
{
	for (size_t i = 0; i < sizeof GROUPS / sizeof GROUPS[0]; i++) {
		char out[RATELIMIT_GROUP];
		ratelimit_group_of(GROUPS[i].addr, GROUPS[i].prefix, out, sizeof out);
		if (strcmp(out, GROUPS[i].want) != 0)
			printf("  %s: %s/%u gave %s\n", GROUPS[i].why, GROUPS[i].addr,
			       GROUPS[i].prefix, out);
		CHECK_STR(out, GROUPS[i].want);
	}
}

static struct in6_addr addr6(const char *text)
{
	struct in6_addr a;
	struct in_addr v4;
	memset(&a, 0, sizeof a);
	if (inet_pton(AF_INET, text, &v4) == 1) {
		a.s6_addr[10] = a.s6_addr[11] = 0xff;
		memcpy(a.s6_addr + 12, &v4, 4);
	} else if (inet_pton(AF_INET6, text, &a) != 1) {
		abort();
	}
	return a;
}

/* The connection caps' comparison: one /64 is one client, IPv4 addresses each their own. */
static void test_same_group(void)
{
	CHECK_EQ_INT(ratelimit_ipv6_prefix(), 64); /* IPV6_PREFIX unset in the tests */
	struct in6_addr a = addr6("2001:db8:1:2::a"), b = addr6("2001:db8:1:2:ffff::b"),
	                c = addr6("2001:db8:1:3::a"), d = addr6("203.0.113.7"),
	                e = addr6("203.0.113.8");
	CHECK(ratelimit_same_group(&a, &b));
	CHECK(!ratelimit_same_group(&a, &c));
	CHECK(ratelimit_same_group(&d, &d));
	CHECK(!ratelimit_same_group(&d, &e));
	CHECK(!ratelimit_same_group(&a, &d));
}

/* A limited key stays limited after 2,000 other keys each took a token (the table used to
 * forget its least recently seen key after 1,024 others). */
static void test_limited_key_survives_other_traffic(void)
{
	ratelimit *rl = ratelimit_new(5, 1.0 / 3600);
	int retry = 0;
	for (int i = 0; i < 5; i++)
		CHECK(ratelimit_take_key(rl, "victim", &retry));
	CHECK(!ratelimit_take_key(rl, "victim", &retry));
	CHECK(retry > 3000);
	char key[32];
	for (int i = 0; i < 2000; i++) {
		snprintf(key, sizeof key, "other-%d", i);
		CHECK(ratelimit_take_key(rl, key, &retry));
	}
	retry = 0;
	CHECK(!ratelimit_take_key(rl, "victim", &retry));
	CHECK(retry > 3000);
	CHECK_EQ_INT(rl->used, 2001);
	ratelimit_free(rl);
}

/* Beyond the table's bound: refilled buckets go first (nothing lost), so a limited one stays
 * while the others refill; the table never holds more than RATELIMIT_CAP. */
static void test_bound_drops_refilled_buckets_first(void)
{
	ratelimit *rl = ratelimit_new(1, 1e6); /* refills within a microsecond */
	int retry = 0;
	char key[32];
	for (int i = 0; i < RATELIMIT_CAP + 500; i++) {
		snprintf(key, sizeof key, "k%d", i);
		CHECK(ratelimit_take_key(rl, key, &retry));
	}
	CHECK(rl->used <= RATELIMIT_CAP);
	ratelimit_free(rl);

	/* a table full of limited buckets (more limited groups at once than it holds): the
	 * fullest go to make room, one sweep at a time, and the bound holds */
	rl = ratelimit_new(1, 1.0 / 3600);
	for (int i = 0; i < RATELIMIT_CAP + 10; i++) {
		snprintf(key, sizeof key, "k%d", i);
		CHECK(ratelimit_take_key(rl, key, &retry));
	}
	CHECK(rl->used <= RATELIMIT_CAP);
	CHECK(!ratelimit_take_key(rl, key, &retry)); /* the newest is still limited */
	ratelimit_free(rl);
}

typedef struct {
	const char *addr;
	bool local;
} local_case;

static const local_case LOCAL[] = {
    {"127.0.0.1", true},
    {"127.9.9.9", true},
    {"::1", true},
    {"10.1.2.3", true},
    {"172.16.0.1", true},
    {"172.31.255.255", true},
    {"192.168.1.20", true},
    {"169.254.3.4", true},
    {"fd00::2", true},
    {"fc12::1", true},
    {"fe80::1", true},
    {"::ffff:192.168.1.2", true},
    {"172.32.0.1", false},
    {"172.15.255.255", false},
    {"192.169.0.1", false},
    {"8.8.8.8", false},
    {"203.0.113.7", false},
    {"100.64.0.1", false},
    {"2001:db8::1", false},
    {"2a00:1450::1", false},
    {"::ffff:8.8.8.8", false},
    {"fec0::1", false},
    {"::", false},
    {"", false},
    {"localhost", false},
    {"11.0.0.1", false},
};

static void test_local_addresses(void)
{
	for (size_t i = 0; i < sizeof LOCAL / sizeof LOCAL[0]; i++) {
		if (http_addr_is_local(LOCAL[i].addr) != LOCAL[i].local)
			printf("  %s should be %s\n", LOCAL[i].addr,
			       LOCAL[i].local ? "local" : "public");
		CHECK(http_addr_is_local(LOCAL[i].addr) == LOCAL[i].local);
	}
	CHECK(!http_addr_is_local(NULL));
}

int main(void)
{
	TEST("ratelimit: address groups (IPv6 by prefix, IPv4 alone)", test_groups);
	TEST("ratelimit: connection caps compare groups", test_same_group);
	TEST("ratelimit: a limited key survives 2,000 other keys",
	     test_limited_key_survives_other_traffic);
	TEST("ratelimit: the table's bound drops refilled buckets first",
	     test_bound_drops_refilled_buckets_first);
	TEST("addresses: loopback and private networks are local, the rest public",
	     test_local_addresses);
	TEST_MAIN_END();
}
