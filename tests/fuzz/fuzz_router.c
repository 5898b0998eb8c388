/* libFuzzer target: the router (http/router.c) against the real route table (api/routes.c).
 * The first byte picks the method, the rest is the raw path. A match must name a route of the
 * table whose method fits, with one non-empty parameter per {…} of its pattern, none holding
 * '/'; a wrong method must list the allowed ones. Corpus: tests/fuzz/corpus/router/. */
#include "api/api.h"
#include "http/http.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check(int ok)
{
	if (!ok)
		abort();
}

static int pattern_params(const char *p)
{
	int n = 0;
	for (; *p; p++)
		n += *p == '{';
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const methods[] = {"GET",    "HEAD",  "POST",   "PUT",
	                                      "DELETE", "PATCH", "OPTIONS"};
	enum { NM = sizeof methods / sizeof methods[0] };
	if (size < 1 || size > 2 * HTTP_MAX_URL)
		return 0;
	const char *method = methods[data[0] % NM];
	char *path = malloc(size);
	memcpy(path, data + 1, size - 1);
	path[size - 1] = '\0'; /* a NUL inside ends the path, as in a C string from the server */
	const http_route *route = NULL;
	const char *params[HTTP_MAX_PARAMS];
	int np = -1;
	char buf[HTTP_MAX_URL], allow[256] = "";
	route_match m = router_match(api_routes, api_nroutes, method, path, &route, params, &np,
	                             buf, sizeof buf, allow, sizeof allow);
	if (m == ROUTE_FOUND) {
		check(route >= api_routes && route < api_routes + api_nroutes);
		check(strcmp(route->method, method) == 0 ||
		      (strcmp(method, "HEAD") == 0 && strcmp(route->method, "GET") == 0));
		check(np == pattern_params(route->pattern));
		for (int i = 0; i < np; i++)
			check(params[i] >= buf && params[i] < buf + sizeof buf &&
			      params[i][0] != '\0' && strchr(params[i], '/') == NULL);
	} else if (m == ROUTE_BAD_METHOD) {
		check(allow[0] != '\0');
	} else {
		check(m == ROUTE_NOT_FOUND);
	}
	free(path);
	return 0;
}
