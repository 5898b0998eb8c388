/* Static files from cfg.static_dir (http.h: http_static).
 *
 * Safety: the raw path is decoded once; backslashes, NUL, malformed escapes and "."/".."
 * segments are refused (400), hidden files and empty segments are not served (404), and the
 * resolved file (realpath: symlinks followed) must lie inside root, which is itself resolved at
 * start. Every file carries a Content-Security-Policy: the app loads nothing from elsewhere,
 * runs no inline script or style, and cannot be framed.
 *
 * Replies built once per file version: the first request for a file (up to MEM_MAX bytes)
 * reads it into memory and builds every reply it can get as libmicrohttpd responses (200, and
 * for text files worth it 200 gzip-compressed (zlib, level 6), and the 304 of each), kept in a
 * table by root + decoded path; later requests queue the kept responses on their connection,
 * with no realpath, stat or open and no copy of the body. A larger file is opened for each
 * request and sent by sendfile.
 *
 * Edits are noticed by inotify, not by a stat per request or a timer: before a file is read, the
 * directories on its way from root (and those it really lies in, symbolic links followed) are
 * watched, and every request first reads the inotify descriptor (non-blocking: one read(2) that
 * usually finds nothing, where a stat per request costs realpath's readlink per path component,
 * open, fstat and close). Any change in a watched directory empties the table. The kernel
 * queues the event before the write, rename or unlink returns, so a request that arrives after
 * an edit is never answered with the old body, nor a removed file with anything but 404. A file
 * whose directories cannot be watched (no inotify, the watch limit reached) is read for every
 * request. The table holds at most CACHE_ENTRIES files and CACHE_BYTES of bodies; beyond,
 * files are read for every request until a change empties it.
 *
 * The ETag (inode, size, mtime in ns; "…-gz" for the compressed body) lets browsers revalidate
 * with If-None-Match → 304. Text files (HTML, CSS, JavaScript, JSON, SVG, the manifest) go out
 * compressed to a client whose Accept-Encoding takes gzip (http_accepts_gzip: a weight of 0
 * refuses it), with Vary: Accept-Encoding. */
#include "http/http.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/log.h"
#include "base/oom.h"

/* The app's own files only: no inline script or style, no external origin, no framing.
 * img-src allows data: for nothing today but keeps SVG <use> fallbacks possible. */
static const char CSP[] = "default-src 'self'; script-src 'self'; style-src 'self'; "
                          "img-src 'self' data:; connect-src 'self'; font-src 'self'; "
                          "manifest-src 'self'; worker-src 'self'; object-src 'none'; "
                          "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/* Smaller text files are sent as they are: compression would gain next to nothing. */
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

void *http_gzip(const void *in, size_t size, size_t *out_len)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	size_t cap = deflateBound(&z, (uLong)size);
	unsigned char *out = xmalloc(cap);
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)size;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	int rc = deflate(&z, Z_FINISH);
	*out_len = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	return out;
}

/* Reads the whole file open as fd (size bytes) into a malloc'd buffer (caller frees), or NULL
 * when it cannot (a short file: it shrank while being read). */
static unsigned char *read_all(int fd, size_t size)
{
	unsigned char *buf = xmalloc(size);
	size_t got = 0;
	while (got < size) {
		ssize_t r = pread(fd, buf + got, size - got, (off_t)got);
		if (r <= 0) {
			free(buf);
			return NULL;
		}
		got += (size_t)r;
	}
	return buf;
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

/* The headers every reply of a file carries; ct NULL for a 304 (no body to type); keep_alive
 * (NULL: none) the Keep-Alive header's value. A failure can only be an allocation that failed
 * inside libmicrohttpd: the out-of-memory policy. */
static void add_headers(struct MHD_Response *r, const char *ct, const char *etag, bool text,
                        bool gz, const char *keep_alive)
{
	/* Every file revalidates (ETag → 304): a phone never runs a new page with old modules
	 * after an upgrade. */
	if ((ct && MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ct) != MHD_YES) ||
	    MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, etag) != MHD_YES ||
	    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache") != MHD_YES ||
	    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff") != MHD_YES ||
	    MHD_add_response_header(r, "Content-Security-Policy", CSP) != MHD_YES ||
	    MHD_add_response_header(r, "Referrer-Policy", "same-origin") != MHD_YES ||
	    (text &&
	     MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept-Encoding") != MHD_YES) ||
	    (gz &&
	     MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip") != MHD_YES) ||
	    (keep_alive && MHD_add_response_header(r, "Keep-Alive", keep_alive) != MHD_YES))
		oom_abort();
}

/* A response libmicrohttpd could not allocate: the out-of-memory policy. */
static struct MHD_Response *resp_check(struct MHD_Response *r)
{
	if (!r)
		oom_abort();
	return r;
}

static struct MHD_Response *empty_response(void)
{
	return resp_check(MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT));
}

/* ---- the replies of one file version ---- */

/* Files up to this size are held in memory with their replies (and are compressed when they
 * are text); larger ones are sent from the file (sendfile) by a reply built per request. */
#define MEM_MAX ((size_t)2 << 20)

/* Every reply a version of a file can get: built once, then queued on any number of
 * connections at once. libmicrohttpd's responses are reference-counted (MHD_queue_response
 * takes a reference under the response's own mutex, the end of the transfer drops it) and a
 * body in memory is only read while it goes out; a queued response is never changed (no
 * header is added to it). */
typedef struct entry entry;
struct entry {
	entry *next;      /* the bucket's chain (under g_mu) */
	char *key;        /* root + decoded path as requested (owned) */
	unsigned hash;    /* of key */
	atomic_uint refs; /* one for the table while the entry is in it, one per request using it */
	bool shared;      /* in memory: may be queued on many connections (else one request's) */
	bool text;
	size_t bytes; /* bodies held in memory */
	char etag[80], etag_gz[84];
	/* owned references; gz and nm_gz are NULL when the file is not sent compressed */
	struct MHD_Response *body, *gz, *nm, *nm_gz; /* 200 plain, 200 gzip, 304, 304 gzip */
};

static void entry_release(entry *e)
{
	if (atomic_fetch_sub(&e->refs, 1) != 1)
		return;
	struct MHD_Response *rs[] = {e->body, e->gz, e->nm, e->nm_gz};
	for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++)
		if (rs[i])
			MHD_destroy_response(rs[i]); /* freed once no connection sends it */
	free(e->key);
	free(e);
}

/* Fills e's replies from the file open as fd (taken: closed or owned by a reply), with the
 * Keep-Alive header keep_alive (NULL: none). 0, or 404 when the file shrank while it was read
 * (an edit in progress). */
static int entry_fill(entry *e, int fd, size_t size, const char *ct, const char *keep_alive)
{
	if (size > MEM_MAX) {
		struct MHD_Response *r = MHD_create_response_from_fd64((uint64_t)size, fd);
		if (!r)
			close(fd);
		e->body = resp_check(r); /* owns fd */
	} else {
		unsigned char *buf = size ? read_all(fd, size) : NULL;
		close(fd);
		if (size && !buf)
			return 404;
		size_t zlen = 0;
		unsigned char *z =
		    e->text && size >= GZIP_MIN_INPUT ? http_gzip(buf, size, &zlen) : NULL;
		e->shared = true;
		e->bytes = size + zlen;
		e->body = size ? resp_check(MHD_create_response_from_buffer(size, buf,
		                                                            MHD_RESPMEM_MUST_FREE))
		               : empty_response();
		if (z)
			e->gz = resp_check(
			    MHD_create_response_from_buffer(zlen, z, MHD_RESPMEM_MUST_FREE));
	}
	add_headers(e->body, ct, e->etag, e->text, false, keep_alive);
	e->nm = empty_response();
	add_headers(e->nm, NULL, e->etag, e->text, false, keep_alive);
	if (e->gz) {
		add_headers(e->gz, ct, e->etag_gz, e->text, true, keep_alive);
		e->nm_gz = empty_response();
		add_headers(e->nm_gz, NULL, e->etag_gz, e->text, false, keep_alive);
	}
	return 0;
}

/* ---- noticing edits: inotify ---- */

/* Every change to a directory entry or a file's contents or attributes; reading a file (ours
 * or anyone's) raises none of them. */
#define WATCH_MASK                                                                                 \
	(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM |          \
	 IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)

static int g_ino = -1; /* the inotify descriptor (non-blocking); -1: nothing is kept */
static pthread_once_t g_ino_once = PTHREAD_ONCE_INIT;

static void ino_open(void)
{
	g_ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (g_ino < 0)
		log_warn("http: no inotify (%s): static files are read for every request",
		         strerror(errno));
}

/* Watches root (the first root_len bytes of path) and every directory below it on the way to
 * path. False when one cannot be watched (the caller keeps nothing of the file). */
static bool watch_dirs(const char *path, size_t root_len)
{
	char dir[PATH_MAX];
	size_t n = strlen(path);
	if (n >= sizeof dir)
		return false;
	memcpy(dir, path, n + 1);
	for (size_t i = root_len; i < n; i++) {
		if (dir[i] != '/')
			continue;
		dir[i] = '\0';
		int wd = inotify_add_watch(g_ino, dir, WATCH_MASK);
		dir[i] = '/';
		if (wd < 0)
			return false;
	}
	return true;
}

/* ---- the table: path → entry ---- */

enum { CACHE_BUCKETS = 256, CACHE_ENTRIES = 4096 };
#define CACHE_BYTES ((size_t)32 << 20)

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER; /* guards everything below */
static entry *g_table[CACHE_BUCKETS];
static size_t g_entries, g_bytes;
static unsigned long g_gen; /* counts the times a change was noticed */

static unsigned hash_key(const char *s)
{
	unsigned h = 2166136261u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void clear_locked(void)
{
	for (int i = 0; i < CACHE_BUCKETS; i++)
		while (g_table[i]) {
			entry *e = g_table[i];
			g_table[i] = e->next;
			entry_release(e);
		}
	g_entries = g_bytes = 0;
}

/* Reads what inotify has queued; any change at all empties the table (edits are rare: a
 * deployment). The kernel queues an event before the write, rename or unlink that raised it
 * returns, so a request that arrives after an edit always finds it here. */
static void drain_locked(void)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool changed = false;
	while (read(g_ino, buf, sizeof buf) > 0)
		changed = true;
	if (changed) {
		clear_locked();
		g_gen++;
	}
}

/* The entry of key with a reference taken for the caller, or NULL. */
static entry *lookup_locked(const char *key, unsigned h)
{
	for (entry *e = g_table[h % CACHE_BUCKETS]; e; e = e->next)
		if (e->hash == h && strcmp(e->key, key) == 0) {
			atomic_fetch_add(&e->refs, 1);
			return e;
		}
	return NULL;
}

/* Keeps e (the table takes a reference) unless a change was noticed since generation gen
 * (what e was built from may be old), it is not held in memory, the table is full, or another
 * request kept the same file meanwhile. */
static void insert_locked(entry *e, unsigned long gen)
{
	if (gen != g_gen || !e->shared || g_entries >= CACHE_ENTRIES ||
	    g_bytes + e->bytes > CACHE_BYTES)
		return;
	entry **b = &g_table[e->hash % CACHE_BUCKETS];
	for (entry *o = *b; o; o = o->next)
		if (o->hash == e->hash && strcmp(o->key, e->key) == 0)
			return;
	atomic_fetch_add(&e->refs, 1);
	e->next = *b;
	*b = e;
	g_entries++;
	g_bytes += e->bytes;
}

/* ---- a request ---- */

/* Builds the replies of the file at full (root + decoded path), with the Keep-Alive header
 * keep_alive (NULL: none): 0 with *out set (one
 * reference: the caller's), or an error status with err filled. *watched is cleared when the
 * directories the file really lies in (symbolic links followed) cannot all be watched. */
static int entry_build(const char *root, const char *full, unsigned h, bool *watched,
                       const char *keep_alive, http_resp *err, entry **out)
{
	char real[PATH_MAX];
	if (!realpath(full, real))
		return problem(err, 404, "No such file.");
	size_t rl = strlen(root);
	if (strncmp(real, root, rl) != 0 || real[rl] != '/')
		return problem(err, 404, "No such file.");
	if (*watched && strcmp(real, full) != 0)
		*watched = watch_dirs(real, rl);
	int fd = open(real, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return problem(err, errno == EACCES ? 403 : 404, "No such file.");
	struct stat sb;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return problem(err, 404, "No such file.");
	}
	entry *e = xcalloc(1, sizeof *e);
	atomic_init(&e->refs, 1);
	e->key = xstrdup(full);
	e->hash = h;
	const char *ct = content_type(real, &e->text);
	snprintf(e->etag, sizeof e->etag, "\"%jx-%jx-%jx\"", (uintmax_t)sb.st_ino,
	         (uintmax_t)sb.st_size,
	         (uintmax_t)sb.st_mtim.tv_sec * 1000000000u + (uintmax_t)sb.st_mtim.tv_nsec);
	snprintf(e->etag_gz, sizeof e->etag_gz, "%.*s-gz\"", (int)strlen(e->etag) - 1, e->etag);
	if (entry_fill(e, fd, (size_t)sb.st_size, ct, keep_alive) != 0) {
		entry_release(e);
		return problem(err, 404, "No such file.");
	}
	*out = e;
	return 0;
}

/* The replies of the file at full with a reference for the caller: the kept ones, or built
 * now (and kept when every directory on the way is watched and nothing changed meanwhile).
 * keep_alive: the Keep-Alive header of the kept replies; NULL: built for this request alone
 * (its reply may be changed). 0 or an error status with err filled. */
static int entry_get(const char *root, const char *full, const char *keep_alive, http_resp *err,
                     entry **out)
{
	pthread_once(&g_ino_once, ino_open);
	unsigned h = hash_key(full);
	bool keep = keep_alive && g_ino >= 0;
	unsigned long gen = 0;
	if (keep) {
		pthread_mutex_lock(&g_mu);
		drain_locked();
		*out = lookup_locked(full, h);
		pthread_mutex_unlock(&g_mu);
		if (*out)
			return 0;
		/* the watches first, then the generation, then the file: an edit after the
		 * generation was read is either seen by the reads below or stops the keeping */
		keep = watch_dirs(full, strlen(root));
		pthread_mutex_lock(&g_mu);
		drain_locked();
		gen = g_gen;
		pthread_mutex_unlock(&g_mu);
	}
	int st = entry_build(root, full, h, &keep, keep_alive, err, out);
	if (st || !keep)
		return st;
	pthread_mutex_lock(&g_mu);
	drain_locked();
	insert_locked(*out, gen);
	pthread_mutex_unlock(&g_mu);
	return 0;
}

/* Queues the reply e has for this request: 304 when If-None-Match names the ETag of the
 * variant the client takes, else 200 with the compressed body when it takes gzip. close: e is
 * private and its reply gets Connection: close. The status, or 0 when queueing failed. */
static int queue_reply(struct MHD_Connection *conn, const entry *e, bool close)
{
	const char *ae =
	    MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING);
	bool gz = e->gz && ae && http_accepts_gzip(ae);
	const char *inm =
	    MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
	bool nm = http_etag_matches(inm, gz ? e->etag_gz : e->etag);
	struct MHD_Response *r = nm ? (gz ? e->nm_gz : e->nm) : (gz ? e->gz : e->body);
	if (close && MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close") != MHD_YES)
		oom_abort();
	unsigned status = nm ? 304 : 200;
	return MHD_queue_response(conn, status, r) == MHD_YES ? (int)status : 0;
}

int http_static(const char *root, const char *raw_path, struct MHD_Connection *conn,
                unsigned keep_alive_s, http_resp *err)
{
	char path[HTTP_MAX_URL + 16], full[PATH_MAX], keep_alive[32];
	bool close = keep_alive_s == 0;
	snprintf(keep_alive, sizeof keep_alive, "timeout=%u", keep_alive_s);
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
	entry *e;
	st = entry_get(root, full, close ? NULL : keep_alive, err, &e);
	if (st)
		return st;
	st = queue_reply(conn, e, close);
	entry_release(e);
	return st;
}
