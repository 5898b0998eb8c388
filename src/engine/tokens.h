/* Table credentials (api.md "Auth at the table"): random tokens (256 bits from libsodium's
 * CSPRNG, base64url), stored only as BLAKE2b-256 hashes; join codes; opaque ids.
 * tokens_init() must succeed before any other call (it initialises libsodium). */
#ifndef TOKENS_H
#define TOKENS_H

#include <stdbool.h>
#include <stddef.h>

#include "http/http.h"

enum {
	TOKEN_LEN = 43,      /* base64url of 32 bytes, no padding */
	TOKEN_HASH_HEX = 64, /* hex of the 32-byte hash */
	CODE_LEN = 6,
	ID_LEN = 24, /* hex of 12 random bytes */
};

/* A display token (read-only) is DISPLAY_PREFIX and a token: the prefix has a '.', which no
 * host or seat token (base64url) contains, so a write carrying a display token is refused by
 * its shape alone, before any route runs (table_write_guard). */
#define DISPLAY_PREFIX "display."
enum {
	DISPLAY_PREFIX_LEN = sizeof DISPLAY_PREFIX - 1,
	DISPLAY_TOKEN_LEN = DISPLAY_PREFIX_LEN + TOKEN_LEN
};

int tokens_init(void);
void token_new(char out[TOKEN_LEN + 1]);
void display_token_new(char out[DISPLAY_TOKEN_LEN + 1]);
/* Has t (NULL: no) the shape of a display token? */
bool token_is_display(const char *t);
/* Hex of BLAKE2b-256(token); out must hold TOKEN_HASH_HEX + 1 bytes. */
void token_hash_hex(const char *token, char out[TOKEN_HASH_HEX + 1]);
/* The request's token from "Authorization: Bearer …" only. Returns NULL when absent or not
 * token-shaped (≤ 128 printable chars). A "token" query argument is ignored: a token in a URL
 * ends up in logs and histories, so only the event stream accepts one (token_for_stream). */
const char *token_from_request(const http_req *req);
/* For the event stream only (EventSource cannot send headers): the Authorization header, else
 * the "token" query argument. */
const char *token_for_stream(const http_req *req);
/* 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L). */
void code_new(char out[CODE_LEN + 1]);
void id_new(char out[ID_LEN + 1]);
/* A uniformly random 64-bit value (seeds). */
unsigned long long random_u64(void);

#endif
