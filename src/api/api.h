/* The API layer: the route table (routes.c), start/stop hooks, and the handlers that live here
 * (health, the OpenAPI document, the QR code).
 *
 * Adding an endpoint: write its handler in its domain's folder and declare it in that folder's
 * header (int api_x(const http_req *, http_resp *)), add one line to api_routes[] in routes.c,
 * and describe it in static/openapi.json (tests/api/test_openapi.py checks the two agree). */
#ifndef API_H
#define API_H

#include "http/http.h"

#include <stdbool.h>
#include <stddef.h>

/* The route table served by main.c. */
extern const http_route api_routes[];
extern const size_t api_nroutes;

/* Loads what the handlers need (game templates from templates_dir). Returns 0, or -1 after
 * logging why. Called once before the server starts; api_shutdown() frees it after it stops. */
int api_init(const char *templates_dir);
void api_shutdown(void);

/* Where GET /api/v1/openapi.json reads openapi.json from (the static directory; copied). */
int api_openapi_init(const char *static_dir);
void api_openapi_shutdown(void);

/* ---- handlers ---- */
int api_health(const http_req *req, http_resp *resp);    /* health.c */
int api_openapi(const http_req *req, http_resp *resp);   /* openapi.c */
int api_qr_svg(const http_req *req, http_resp *resp);    /* qr.c: GET /api/v1/qr.svg */
int api_addresses(const http_req *req, http_resp *resp); /* addresses.c */

#endif
