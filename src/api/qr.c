/* GET /api/v1/qr.svg?data=…: a QR code (≤ 512 bytes of data) as SVG, for a phone screen that
 * shows a join or seat link. Stateless: the ETag is a function of the data. */
#include "api/api.h"

#include "pdf/pdf.h"
#include "pdf/serve.h"

#include <stdio.h>
#include <string.h>

enum { QR_MAX_DATA = 512 };

int api_qr_svg(const http_req *req, http_resp *resp)
{
	const char *data = http_query(req, "data");
	size_t n = data ? strlen(data) : 0;
	if (n == 0 || n > QR_MAX_DATA)
		return http_reply_problem(resp, 400, "data: 1 to 512 bytes to encode", NULL,
		                          "/data");
	char key[QR_MAX_DATA + 8];
	snprintf(key, sizeof key, "qr|%s", data);
	if (pdf_api_not_modified(req, resp, key))
		return 0;
	size_t len;
	char *svg = pdf_qr_svg(data, n, &len);
	if (svg == NULL)
		return http_reply_problem(resp, 400, "data: too long for a QR code", NULL, "/data");
	resp->status = 200;
	resp->content_type = "image/svg+xml";
	resp->body = svg;
	resp->body_len = len;
	return 0;
}
