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

struct ifaddrs;

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

/* What GET /api/v1/addresses needs to know of the server (addresses.c): the port, HTTPS, LISTEN
 * ("" for every interface) and whether a proxy is trusted. Called before the server starts;
 * api_addresses_port() gives the port it got (PORT=0: one the system chose). */
void api_addresses_init(unsigned port, bool https, const char *listen, bool proxied);
void api_addresses_port(unsigned port);

enum { API_URL_MAX = 64 };
/* The URLs ("http://192.168.1.20:8080/") of the IPv4 addresses in the interface list ifa that are
 * up and neither loopback nor link-local, at most max of them into out; returns how many. */
size_t api_lan_urls(const struct ifaddrs *ifa, unsigned port, bool https, char (*out)[API_URL_MAX],
                    size_t max);

/* ---- handlers ---- */
int api_health(const http_req *req, http_resp *resp);    /* health.c */
int api_openapi(const http_req *req, http_resp *resp);   /* openapi.c */
int api_qr_svg(const http_req *req, http_resp *resp);    /* qr.c: GET /api/v1/qr.svg */
int api_addresses(const http_req *req, http_resp *resp); /* addresses.c */

#endif
