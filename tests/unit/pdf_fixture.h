/* Shared helpers for the PDF unit tests (test_pdf.c, test_coach_pdf.c): the print data from
 * templates/er/ with the slimmed fonts written under out, a file written whole, and a shell
 * command's output (the tools that read the PDFs back: pdfinfo, pdftotext, qpdf, pdftoppm…). */
#ifndef PDF_FIXTURE_H
#define PDF_FIXTURE_H

#include "pdf/pdf.h"

#include <json-c/json.h>
#include <stdio.h>

#define PDF_FIXTURE_UNUSED __attribute__((unused))

/* Fills *p from templates/er/{print,sheet,specialists}.json, its fonts slimmed into out.
 * 0, or -1 after printing why. */
PDF_FIXTURE_UNUSED static int pdf_fixture_print(pdf_print *p, const char *out)
{
	json_object *print = json_object_from_file("templates/er/print.json");
	json_object *specs = json_object_from_file("templates/er/specialists.json");
	json_object *sheet = json_object_from_file("templates/er/sheet.json");
	char err[256] = "";
	int rc = print && specs && sheet
	             ? pdf_print_from_json(p, print, sheet, specs, err, sizeof err)
	             : -1;
	if (rc == 0)
		rc = pdf_print_slim_fonts(p, out, err, sizeof err);
	if (rc != 0)
		printf("  the print data: %s\n", err);
	json_object_put(print);
	json_object_put(specs);
	json_object_put(sheet);
	return rc;
}

/* Writes b[0..n) to path: 0, or -1. */
PDF_FIXTURE_UNUSED static int pdf_fixture_write(const char *path, const unsigned char *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t w = fwrite(b, 1, n, f);
	return fclose(f) == 0 && w == n ? 0 : -1;
}

/* Runs a shell command; its whole stdout in out (NUL-terminated, truncated to cap); its exit
 * status as pclose gives it. */
PDF_FIXTURE_UNUSED static int pdf_fixture_run(const char *cmd, char *out, size_t cap)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	size_t n = fread(out, 1, cap - 1, p);
	out[n] = '\0';
	return pclose(p);
}

#endif
