/* GET /api/v1/health: is the service able to serve? Runs the prepared health_ping on this
 * thread's connection, so it checks the very path a request takes (connection, prepared
 * statements), not just the availability flag.
 *
 *   200 {"status":"ok","database":"ok","version":"…"}
 *   503 problem+json + Retry-After, with "database":"unavailable","version" added (the
 *       problem's own "status" member is the HTTP status, 503, as RFC 9457 wants)
 *
 * Never cached (Cache-Control: no-store). */
#include "db/db.h"
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
	PGresult *r = db_exec(c, "health_ping", 0, NULL);
	bool ok = r && db_result_status(c, r) == DB_OK && PQntuples(r) == 1 &&
	          strcmp(PQgetvalue(r, 0, 0), "1") == 0;
	PQclear(r);
	return ok;
}

/* {["status": status,] "database": database, "version": APP_VERSION}, or NULL (out of memory). */
static struct json_object *health_body(const char *status, const char *database)
{
	struct json_object *o = json_object_new_object();
	if (!o)
		return NULL;
	if ((status && json_object_object_add(o, "status", json_object_new_string(status)) != 0) ||
	    json_object_object_add(o, "database", json_object_new_string(database)) != 0 ||
	    json_object_object_add(o, "version", json_object_new_string(APP_VERSION)) != 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int api_health(const http_req *req, http_resp *resp)
{
	(void)req;
	int rc;
	if (ping()) {
		struct json_object *o = health_body("ok", "ok");
		if (!o)
			return -1;
		rc = http_reply_json(resp, 200, o); /* takes o */
	} else {
		struct json_object *extra = health_body(NULL, "unavailable");
		if (!extra)
			return -1;
		rc = http_reply_problem_ex(resp, 503, "the database is unavailable", NULL, NULL,
		                           extra); /* takes extra */
		if (rc == 0)
			rc = http_resp_header(resp, "Retry-After", HEALTH_RETRY_AFTER);
	}
	if (rc == 0)
		rc = http_resp_header(resp, "Cache-Control", "no-store");
	return rc;
}
