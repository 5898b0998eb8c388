/* Static files from cfg.static_dir (http.h: http_static).
 *
 * Safety: the raw path is decoded once; backslashes, NUL, malformed escapes and "."/".."
 * segments are refused (400), hidden files and empty segments are not served (404), and the
 * resolved file (realpath: symlinks followed) must lie inside root, which is itself resolved at
 * start. Each request re-stats the file, so nothing is ever served stale; the body goes out by
 * MHD_create_response_from_fd (sendfile), and the ETag (inode, size, mtime in ns) lets browsers
 * revalidate with If-None-Match → 304.
 *
 * Text files (HTML, CSS, JavaScript, JSON, SVG, the manifest) go out gzip-compressed (zlib) to a
 * client whose Accept-Encoding takes gzip (http_accepts_gzip: a weight of 0 refuses it), with
 * their own ETag ("…-gz") and Vary: Accept-Encoding. A file is compressed once per version:
 * the compressed bytes are kept by path and ETag (inode, size, mtime), so an edited file is
 * compressed again on its first request and no build step is needed; the cache holds at most
 * GZ_CACHE_BYTES, emptied when full (the front end is far smaller). Every file carries a
 * Content-Security-Policy:
 * the app loads nothing from elsewhere, runs no inline script or style, and cannot be framed. */
#include "http/http.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/oom.h"

/* The app's own files only: no inline script or style, no external origin, no framing.
 * img-src allows data: for nothing today but keeps SVG <use> fallbacks possible. */
static const char CSP[] = "default-src 'self'; script-src 'self'; style-src 'self'; "
                          "img-src 'self' data:; connect-src 'self'; font-src 'self'; "
                          "manifest-src 'self'; worker-src 'self'; object-src 'none'; "
                          "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/* Files larger than this are sent as they are (the front end's files are far smaller). */
#define GZIP_MAX_INPUT (2u << 20)
#define GZIP_MIN_INPUT 256u

static const struct {
	const char *ext, *type;
	bool text; /* worth compressing */
} TYPES[] = {
    {"html", "text/html; charset=utf-8", true},
    {"css", "text/css; charset=utf-8", true},
    {"js", "text/javascript; charset=utf-8", true},
    {"mjs", "text/javascript; charset=utf-8", true},
    {"json", "application/json", true},
    {"svg", "image/svg+xml", true},
    {"png", "image/png", false},
    {"ico", "image/x-icon", false},
    {"pdf", "application/pdf", false},
    {"webmanifest", "application/manifest+json", true},
    {"txt", "text/plain; charset=utf-8", true},
    {"woff2", "font/woff2", false},
};

/* The content type of path; *text tells whether it is worth compressing. */
static const char *content_type(const char *path, bool *text)
{
	const char *slash = strrchr(path, '/');
	const char *dot = strrchr(slash ? slash : path, '.');
	*text = false;
	if (dot)
		for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++)
			if (strcasecmp(dot + 1, TYPES[i].ext) == 0) {
				*text = TYPES[i].text;
				return TYPES[i].type;
			}
	return "application/octet-stream";
}

/* The weight of an Accept-Encoding element's parameters (RFC 9110 §12.4.2: qvalue = "0"
 * ["." 0*3DIGIT] / "1" ["." 0*3("0")]; q is case-insensitive; 1000 when absent), in
 * thousandths, or -1 when the q value is malformed. p points after the coding, end at the
 * element's end. */
static int element_weight(const char *p, const char *end)
{
	while (p < end) {
		p += strspn(p, " \t;");
		if (p >= end)
			break;
		const char *next = memchr(p, ';', (size_t)(end - p));
		if (next == NULL)
			next = end;
		if ((p[0] == 'q' || p[0] == 'Q') && p + 1 < end && p[1] == '=') {
			const char *v = p + 2, *ve = next;
			while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			if (ve == v || (v[0] != '0' && v[0] != '1'))
				return -1;
			int w = (v[0] - '0') * 1000, scale = 100;
			if (v + 1 < ve) {
				if (v[1] != '.' || ve - v > 5)
					return -1;
				for (const char *d = v + 2; d < ve; d++, scale /= 10) {
					if (*d < '0' || *d > '9' || (v[0] == '1' && *d != '0'))
						return -1;
					w += (*d - '0') * scale;
				}
			}
			return w;
		}
		p = next;
	}
	return 1000;
}

bool http_accepts_gzip(const char *ae)
{
	int gzip = -1, star = -1; /* weights as listed, -1: not listed */
	const char *p = ae;
	while (p && *p) {
		p += strspn(p, " \t,");
		if (*p == '\0')
			break;
		const char *end = p + strcspn(p, ",");
		size_t n = strcspn(p, " \t;,");
		int w = element_weight(p + n, end);
		if (w < 0)
			w = 0; /* a malformed weight accepts nothing */
		if ((n == 4 && strncasecmp(p, "gzip", 4) == 0) ||
		    (n == 6 && strncasecmp(p, "x-gzip", 6) == 0))
			gzip = gzip < 0 || w < gzip ? w : gzip;
		else if (n == 1 && *p == '*')
			star = star < 0 || w < star ? w : star;
		p = end;
	}
	/* gzip listed decides; else "*" stands for every coding not listed */
	return gzip >= 0 ? gzip > 0 : star > 0;
}

/* Reads fd (size bytes) and gzips it; returns a malloc'd buffer (caller frees) and its length
 * in *out_len, or NULL when reading or compressing fails (the caller sends the file as is). */
static void *gzip_fd(int fd, size_t size, size_t *out_len)
{
	unsigned char *in = xmalloc(size);
	size_t got = 0;
	while (got < size) {
		ssize_t r = pread(fd, in + got, size - got, (off_t)got);
		if (r <= 0) {
			free(in);
			return NULL;
		}
		got += (size_t)r;
	}
	z_stream z;
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(in);
		return NULL;
	}
	size_t cap = deflateBound(&z, (uLong)size);
	unsigned char *out = xmalloc(cap);
	z.next_in = in;
	z.avail_in = (uInt)size;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	int rc = deflate(&z, Z_FINISH);
	*out_len = z.total_out;
	deflateEnd(&z);
	free(in);
	if (rc != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	return out;
}

bool http_etag_matches(const char *inm, const char *etag)
{
	size_t el = strlen(etag);
	const char *p = inm;
	while (p && *p) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '*')
			return true;
		if (p[0] == 'W' && p[1] == '/')
			p += 2;
		if (strncmp(p, etag, el) == 0 &&
		    (p[el] == '\0' || p[el] == ',' || p[el] == ' ' || p[el] == '\t'))
			return true;
		p = strchr(p, ',');
	}
	return false;
}

/* Checks the decoded path segment by segment: 0 ok, 400 refused, 404 not served. */
static int check_segments(const char *path)
{
	const char *p = path + 1; /* after the leading '/' */
	for (;;) {
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if ((len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
			return 400;
		if (len == 0 || p[0] == '.')
			return 404;
		if (!e)
			return 0;
		p = e + 1;
	}
}

static int problem(http_resp *err, int status, const char *detail)
{
	http_reply_problem(err, status, detail, NULL, NULL);
	return status;
}

static int add_headers(struct MHD_Response *r, const char *ct, const char *etag, const char *cc,
                       bool text, bool gz)
{
	if ((ct && MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ct) != MHD_YES) ||
	    MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, etag) != MHD_YES ||
	    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, cc) != MHD_YES ||
	    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff") != MHD_YES ||
	    MHD_add_response_header(r, "Content-Security-Policy", CSP) != MHD_YES ||
	    MHD_add_response_header(r, "Referrer-Policy", "same-origin") != MHD_YES ||
	    (text &&
	     MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept-Encoding") != MHD_YES) ||
	    (gz && MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip") != MHD_YES))
		return -1;
	return 0;
}

/* ---- compressed bodies, once per file version ---- */

enum { GZ_CACHE_SLOTS = 128, GZ_CACHE_BYTES = 8u << 20 };

typedef struct {
	char *key; /* real path + '\n' + ETag; NULL: free slot */
	unsigned char *gz;
	size_t len;
} gz_slot;

static pthread_mutex_t g_gz_mu = PTHREAD_MUTEX_INITIALIZER;
static gz_slot g_gz[GZ_CACHE_SLOTS];
static size_t g_gz_bytes;

static void gz_clear_locked(void)
{
	for (int i = 0; i < GZ_CACHE_SLOTS; i++) {
		free(g_gz[i].key);
		free(g_gz[i].gz);
		g_gz[i] = (gz_slot){0};
	}
	g_gz_bytes = 0;
}

/* A response with a copy of the cached compressed body of key, or NULL when there is none. */
static struct MHD_Response *gz_cached(const char *key)
{
	struct MHD_Response *r = NULL;
	pthread_mutex_lock(&g_gz_mu);
	for (int i = 0; i < GZ_CACHE_SLOTS && !r; i++)
		if (g_gz[i].key && strcmp(g_gz[i].key, key) == 0)
			r = MHD_create_response_from_buffer(g_gz[i].len, g_gz[i].gz,
			                                    MHD_RESPMEM_MUST_COPY);
	pthread_mutex_unlock(&g_gz_mu);
	return r;
}

/* Keeps a copy of gz (len bytes) as the compressed body of key; an older version of the same
 * path gives its slot up. */
static void gz_keep(const char *key, const unsigned char *gz, size_t len)
{
	size_t path_len = strcspn(key, "\n");
	pthread_mutex_lock(&g_gz_mu);
	if (g_gz_bytes + len > GZ_CACHE_BYTES)
		gz_clear_locked();
	gz_slot *free_slot = NULL;
	for (int i = 0; i < GZ_CACHE_SLOTS; i++) {
		gz_slot *s = &g_gz[i];
		if (s->key && strncmp(s->key, key, path_len + 1) == 0) { /* same path */
			g_gz_bytes -= s->len;
			free(s->key);
			free(s->gz);
			*s = (gz_slot){0};
		}
		if (!s->key && !free_slot)
			free_slot = s;
	}
	if (!free_slot) {
		gz_clear_locked();
		free_slot = &g_gz[0];
	}
	free_slot->key = xstrdup(key);
	free_slot->gz = xmalloc(len);
	memcpy(free_slot->gz, gz, len);
	free_slot->len = len;
	g_gz_bytes += len;
	pthread_mutex_unlock(&g_gz_mu);
}

/* The compressed response for the file open as fd (size bytes), under key: from the cache, or
 * compressed now and kept. NULL when it cannot be compressed (fd is left open either way). */
static struct MHD_Response *gz_response(const char *key, int fd, size_t size)
{
	struct MHD_Response *r = gz_cached(key);
	if (r)
		return r;
	size_t len = 0;
	unsigned char *body = gzip_fd(fd, size, &len);
	if (!body)
		return NULL;
	gz_keep(key, body, len);
	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE); /* owns body */
	if (!r)
		free(body);
	return r;
}

int http_static(const char *root, const char *raw_path, struct MHD_Connection *conn, http_resp *err,
                struct MHD_Response **out)
{
	char path[HTTP_MAX_URL + 16], full[PATH_MAX], real[PATH_MAX];
	*out = NULL;
	if (!root || !raw_path || raw_path[0] != '/')
		return problem(err, 400, "The path must start with '/'.");
	if (strchr(raw_path, '\\') || strcasestr(raw_path, "%5c"))
		return problem(err, 400, "Backslashes are not allowed in paths.");
	if (http_pct_decode(raw_path, strlen(raw_path), path, sizeof path) < 0)
		return problem(err, 400, "The path has a malformed percent-escape or a NUL byte.");
	if (strchr(path, '\\'))
		return problem(err, 400, "Backslashes are not allowed in paths.");
	if (strcmp(path, "/") == 0)
		snprintf(path, sizeof path, "/index.html");
	int st = check_segments(path);
	if (st == 400)
		return problem(err, 400, "Dot segments are not allowed in paths.");
	if (st)
		return problem(err, 404, "No such file.");
	int n = snprintf(full, sizeof full, "%s%s", root, path);
	if (n < 0 || (size_t)n >= sizeof full)
		return problem(err, 404, "No such file.");
	if (!realpath(full, real))
		return problem(err, 404, "No such file.");
	size_t rl = strlen(root);
	if (strncmp(real, root, rl) != 0 || real[rl] != '/')
		return problem(err, 404, "No such file.");

	int fd = open(real, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return problem(err, errno == EACCES ? 403 : 404, "No such file.");
	struct stat sb;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return problem(err, 404, "No such file.");
	}
	bool text;
	const char *ct = content_type(real, &text);
	const char *ae = conn ? MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
	                                                    MHD_HTTP_HEADER_ACCEPT_ENCODING)
	                      : NULL;
	bool gz = text && ae && http_accepts_gzip(ae) && sb.st_size >= GZIP_MIN_INPUT &&
	          (uintmax_t)sb.st_size <= GZIP_MAX_INPUT;
	char etag[80];
	snprintf(etag, sizeof etag, "\"%jx-%jx-%jx%s\"", (uintmax_t)sb.st_ino,
	         (uintmax_t)sb.st_size,
	         (uintmax_t)sb.st_mtim.tv_sec * 1000000000u + (uintmax_t)sb.st_mtim.tv_nsec,
	         gz ? "-gz" : "");
	/* Every file revalidates (ETag → 304): a phone never runs a new page with old modules
	 * after an upgrade. */
	const char *cc = "no-cache";

	const char *inm =
	    conn ? MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH)
	         : NULL;
	struct MHD_Response *r;
	int status;
	char key[PATH_MAX + 96];
	snprintf(key, sizeof key, "%s\n%s", real, etag);
	if (http_etag_matches(inm, etag)) {
		close(fd);
		r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
		status = 304;
		ct = NULL;
	} else if (sb.st_size == 0) {
		close(fd);
		r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
		status = 200;
		gz = false;
	} else if (gz && (r = gz_response(key, fd, (size_t)sb.st_size)) != NULL) {
		close(fd);
		status = 200;
	} else {
		if (gz) /* could not compress: send the file as it is, under its plain ETag */
			memcpy(etag + strlen(etag) - 4, "\"", 2);
		gz = false;
		r = MHD_create_response_from_fd64((uint64_t)sb.st_size, fd); /* owns fd */
		if (!r)
			close(fd);
		status = 200;
	}
	if (!r)
		return problem(err, 500, "Out of memory.");
	if (add_headers(r, ct, etag, cc, text, gz && status == 200) != 0) {
		MHD_destroy_response(r);
		return problem(err, 500, "Out of memory.");
	}
	*out = r;
	return status;
}
