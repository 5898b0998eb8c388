/* GET /api/v1/openapi.json: the OpenAPI document kept in static/openapi.json, served as
 * application/json. The file is read on every request (it is small and rarely fetched), so an
 * edited document is served without a restart. */
#include "base/log.h"
#include "base/oom.h"
#include "api/api.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { OPENAPI_MAX = 1024 * 1024 };

static char *openapi_path; /* malloc'ed "<static_dir>/openapi.json"; set once before serving */

int api_openapi_init(const char *static_dir)
{
	size_t n = strlen(static_dir ? static_dir : ".") + sizeof "/openapi.json";
	char *p = xmalloc(n);
	snprintf(p, n, "%s/openapi.json", static_dir ? static_dir : ".");
	free(openapi_path);
	openapi_path = p;
	return 0;
}

void api_openapi_shutdown(void)
{
	free(openapi_path);
	openapi_path = NULL;
}

/* Reads the whole file into a malloc'ed buffer (caller frees). NULL on error (errno set). */
static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat sb;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > OPENAPI_MAX) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	size_t size = (size_t)sb.st_size, got = 0;
	char *buf = xmalloc(size + 1);
	while (got < size) {
		ssize_t r = read(fd, buf + got, size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got != size) {
		free(buf);
		return NULL;
	}
	buf[size] = '\0';
	*len = size;
	return buf;
}

int api_openapi(const http_req *req, http_resp *resp)
{
	(void)req;
	size_t len = 0;
	char *doc = openapi_path ? slurp(openapi_path, &len) : NULL;
	if (!doc) {
		log_warn("openapi: cannot read %s: %s", openapi_path ? openapi_path : "(unset)",
		         strerror(errno));
		return http_reply_problem(resp, 500, "The API description is missing.", NULL, NULL);
	}
	free(resp->body);
	resp->body = doc; /* resp owns it */
	resp->body_len = len;
	resp->status = 200;
	resp->content_type = "application/json";
	return http_resp_header(resp, "Cache-Control", "no-cache");
}
