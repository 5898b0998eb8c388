/* Tokens, hashes, join codes and ids on libsodium (README: why libsodium). */
#include "engine/tokens.h"

#include <sodium.h>
#include <string.h>
#include <strings.h>

int tokens_init(void)
{
	return sodium_init() < 0 ? -1 : 0;
}

void token_new(char out[TOKEN_LEN + 1])
{
	unsigned char raw[32];
	randombytes_buf(raw, sizeof raw);
	sodium_bin2base64(out, TOKEN_LEN + 1, raw, sizeof raw,
	                  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	sodium_memzero(raw, sizeof raw);
}

void display_token_new(char out[DISPLAY_TOKEN_LEN + 1])
{
	memcpy(out, DISPLAY_PREFIX, DISPLAY_PREFIX_LEN);
	token_new(out + DISPLAY_PREFIX_LEN);
}

bool token_is_display(const char *t)
{
	return t && strncmp(t, DISPLAY_PREFIX, DISPLAY_PREFIX_LEN) == 0;
}

void token_hash_hex(const char *token, char out[TOKEN_HASH_HEX + 1])
{
	unsigned char h[32];
	crypto_generichash(h, sizeof h, (const unsigned char *)token, strlen(token), NULL, 0);
	sodium_bin2hex(out, TOKEN_HASH_HEX + 1, h, sizeof h);
}

static int token_shaped(const char *t)
{
	size_t n = strlen(t);
	if (n == 0 || n > 128)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (t[i] <= ' ' || t[i] > '~')
			return 0;
	return 1;
}

const char *token_from_request(const http_req *req)
{
	const char *auth = http_header(req, "Authorization");
	if (!auth || strncasecmp(auth, "Bearer ", 7) != 0)
		return NULL;
	auth += 7;
	while (*auth == ' ')
		auth++;
	return token_shaped(auth) ? auth : NULL;
}

const char *token_for_stream(const http_req *req)
{
	if (http_header(req, "Authorization"))
		return token_from_request(req);
	const char *q = http_query(req, "token");
	return q && token_shaped(q) ? q : NULL;
}

void code_new(char out[CODE_LEN + 1])
{
	static const char alphabet[] = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
	for (int i = 0; i < CODE_LEN; i++)
		out[i] = alphabet[randombytes_uniform(sizeof alphabet - 1)];
	out[CODE_LEN] = '\0';
}

void id_new(char out[ID_LEN + 1])
{
	unsigned char raw[ID_LEN / 2];
	randombytes_buf(raw, sizeof raw);
	sodium_bin2hex(out, ID_LEN + 1, raw, sizeof raw);
}

unsigned long long random_u64(void)
{
	unsigned long long v;
	randombytes_buf(&v, sizeof v);
	return v;
}
