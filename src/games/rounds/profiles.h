/* Scoring profiles of Dice Hospital and Clinic (api.md "GET/POST /api/v1/profiles"): the
 * shipped ones from templates/dice-hospital/ and templates/clinic/ (loaded once at start), and
 * the ones users stored (table profiles, migration 0003). A profile is a JSON document
 * {"game": "dh"|"clinic", "id", "name", "values": {…}} whose every value carries "verified". */
#ifndef API_PROFILES_H
#define API_PROFILES_H

#include "engine/table.h"
#include "http/http.h"
#include "rules/clinic.h"
#include "rules/dh.h"

struct json_object;

/* Loads templates_dir/dice-hospital/ and templates_dir/clinic/ (every *.json except
 * administrators.json). Returns 0, or -1 after printing why. */
int profiles_init(const char *templates_dir);
void profiles_shutdown(void);

/* The profile `id` of game "dh" / "clinic" (NULL id: "default"), shipped or stored: fills *out
 * and *doc (a new reference, caller puts it). Unknown: 422 profile-unknown at /profile;
 * database away: 503. */
int profiles_find_dh(const char *id, dh_profile *out, struct json_object **doc, table_refusal *r);
int profiles_find_clinic(const char *id, clinic_profile *out, struct json_object **doc,
                         table_refusal *r);

/* Whether every value of a profile document is verified. */
bool profiles_all_verified(struct json_object *doc);

int api_profiles_list(const http_req *req, http_resp *resp);   /* GET /api/v1/profiles */
int api_profiles_create(const http_req *req, http_resp *resp); /* POST /api/v1/profiles */

#endif
