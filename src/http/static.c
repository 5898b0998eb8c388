/* Static files from cfg.static_dir (http.h: http_static).
 *
 * Safety: the raw path is decoded once; backslashes, NUL, malformed escapes and "."/".."
 * segments are refused (400), hidden files and empty segments are not served (404), and the
 * resolved file (realpath: symlinks followed) must lie inside root, which is itself resolved at
 * start. Each request re-stats the file, so nothing is ever served stale; the body goes out by
 * MHD_create_response_from_fd (sendfile), and the ETag (inode, size, mtime in ns) lets browsers
 * revalidate with If-None-Match → 304. */
#include "http/http.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
	const char *ext, *type;
} TYPES[] = {
    {"html", "text/html; charset=utf-8"},
    {"css", "text/css; charset=utf-8"},
    {"js", "text/javascript; charset=utf-8"},
    {"mjs", "text/javascript; charset=utf-8"},
    {"json", "application/json"},
    {"svg", "image/svg+xml"},
    {"png", "image/png"},
    {"ico", "image/x-icon"},
    {"pdf", "application/pdf"},
    {"webmanifest", "application/manifest+json"},
    {"txt", "text/plain; charset=utf-8"},
    {"woff2", "font/woff2"},
};

static const char *content_type(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *dot = strrchr(slash ? slash : path, '.');
	if (dot)
		for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++)
			if (strcasecmp(dot + 1, TYPES[i].ext) == 0)
				return TYPES[i].type;
	return "application/octet-stream";
}

/* Does the If-None-Match list (or "*") contain etag? Weak comparison (RFC 9110 §13.1.2). */
static bool etag_matches(const char *inm, const char *etag)
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

static int add_headers(struct MHD_Response *r, const char *ct, const char *etag, const char *cc)
{
	if ((ct && MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ct) != MHD_YES) ||
	    MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, etag) != MHD_YES ||
	    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, cc) != MHD_YES ||
	    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff") != MHD_YES)
		return -1;
	return 0;
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
	char etag[80];
	snprintf(etag, sizeof etag, "\"%jx-%jx-%jx\"", (uintmax_t)sb.st_ino, (uintmax_t)sb.st_size,
	         (uintmax_t)sb.st_mtim.tv_sec * 1000000000u + (uintmax_t)sb.st_mtim.tv_nsec);
	const char *ct = content_type(real);
	/* Every file revalidates (ETag → 304): a phone never runs a new page with old modules
	 * after an upgrade. */
	const char *cc = "no-cache";

	const char *inm =
	    conn ? MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH)
	         : NULL;
	struct MHD_Response *r;
	int status;
	if (inm && etag_matches(inm, etag)) {
		close(fd);
		r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
		status = 304;
		ct = NULL;
	} else if (sb.st_size == 0) {
		close(fd);
		r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
		status = 200;
	} else {
		r = MHD_create_response_from_fd64((uint64_t)sb.st_size, fd); /* owns fd */
		if (!r)
			close(fd);
		status = 200;
	}
	if (!r)
		return problem(err, 500, "Out of memory.");
	if (add_headers(r, ct, etag, cc) != 0) {
		MHD_destroy_response(r);
		return problem(err, 500, "Out of memory.");
	}
	*out = r;
	return status;
}
