/* GET /api/v1/health: is the service able to serve? Runs the prepared health_ping on this
 * thread's connection, so it checks the very path a request takes (connection, prepared
 * statements), not just the availability flag.
 *
 *   200 {"status":"ok","database":"ok","version":"…","writes_queued":n}
 *   503 problem+json + Retry-After, with "database":"unavailable","version","writes_queued"
 *       added (the problem's own "status" member is the HTTP status, 503, as RFC 9457 wants)
 *
 * writes_queued: the moves waiting for their write group's statement (engine/writegroup.h), a
 * figure of how far the database is behind. Never cached (Cache-Control: no-store). */
#include "db/db.h"
#include "engine/writegroup.h"
#include "json/jx.h"
#include "http/http.h"

#include <json-c/json.h>
#include <string.h>

#ifndef APP_VERSION
#define APP_VERSION "0.1.0"
#endif

/* Seconds a client should wait: the health thread probes every second while the database is down.
 */
#define HEALTH_RETRY_AFTER "2"

int api_health(const http_req *req, http_resp *resp);

/* The database answers health_ping with one row holding 1. */
static bool ping(void)
{
	db_conn *c = db_thread_conn();
	if (!c)
		return false;
	return db_ping(c);
}

/* {["status": status,] "database": database, "version": APP_VERSION, "writes_queued": n} */
static struct json_object *health_body(const char *status, const char *database)
{
	struct json_object *o = jx_obj();
	if (status)
		jx_set(o, "status", jx_str(status));
	jx_set(o, "database", jx_str(database));
	jx_set(o, "version", jx_str(APP_VERSION));
	jx_set(o, "writes_queued", jx_int((int64_t)writegroup_queued()));
	return o;
}

int api_health(const http_req *req, http_resp *resp)
{
	(void)req;
	int rc;
	if (ping()) {
		rc = http_reply_json(resp, 200, health_body("ok", "ok")); /* takes the body */
	} else {
		rc = http_reply_problem_ex(resp, 503, "the database is unavailable", NULL, NULL,
		                           health_body(NULL, "unavailable")); /* takes the body */
		if (rc == 0)
			rc = http_resp_header(resp, "Retry-After", HEALTH_RETRY_AFTER);
	}
	if (rc == 0)
		rc = http_resp_header(resp, "Cache-Control", "no-store");
	return rc;
}
