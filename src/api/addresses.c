/* GET /api/v1/addresses: the addresses other phones can open, for a page opened on localhost
 * (its links and QR codes would point other phones at themselves).
 *
 *   200 {"public_url": PUBLIC_URL or null, "lan": ["http://192.168.1.20:8080/", …]}
 *
 * "lan" is http_share_lan (src/http/addresses.c): the machine's IPv4 addresses on its networks
 * with the server's port, or the LISTEN address; empty when PUBLIC_URL is set or a proxy is
 * trusted, and for a client that is not on loopback or a private network
 * (http_client_is_local): the Internet learns nothing of the host's networks. Read at each
 * request: a laptop changes networks. Never cached. */
#include "api/api.h"

#include "json/jx.h"

#include <json-c/json.h>
#include <stdlib.h>

enum { LAN_MAX = 8 };

int api_addresses(const http_req *req, http_resp *resp)
{
	const char *pub = getenv("PUBLIC_URL");
	bool has_pub = pub && *pub;
	json_object *o = jx_obj(), *lan = jx_arr();
	jx_set(o, "public_url", has_pub ? jx_str(pub) : jx_null());
	char urls[LAN_MAX][HTTP_URL_MAX];
	size_t n = http_client_is_local(req) ? http_share_lan(urls, LAN_MAX) : 0;
	for (size_t i = 0; i < n; i++)
		jx_push(lan, jx_str(urls[i]));
	jx_set(o, "lan", lan);
	int rc = http_reply_json(resp, 200, o); /* takes o */
	if (rc == 0)
		rc = http_resp_header(resp, "Cache-Control", "no-store");
	return rc;
}
