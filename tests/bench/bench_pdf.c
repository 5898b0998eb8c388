/* PDF renderer benchmark: blank ER sheets per second (a whole one-page document each
 * time: font subset, drawing, compression), the time of a 100-page pad, and the PDF sizes.
 * Writes build/bench/pad-1.pdf and pad-100.pdf. Prints one "key value" line per figure for
 * tests/bench/pdf.sh. usage: bench_pdf [seconds] */
#include "er_fixture.h"
#include "pdf/pdf.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static size_t render(const er_data *d, const pdf_print *p, int pages, const char *path)
{
	pdf_doc *doc = pdf_doc_begin(d, p, PDF_A4, PDF_EN, "ER sheets", 1795000000);
	if (!doc) {
		fprintf(stderr, "bench_pdf: cannot start a document\n");
		exit(1);
	}
	pdf_er_blank_pages(doc, pages);
	unsigned char *bytes;
	size_t len;
	if (pdf_doc_finish(doc, &bytes, &len) != 0) {
		fprintf(stderr, "bench_pdf: rendering failed\n");
		exit(1);
	}
	if (path) {
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
			fprintf(stderr, "bench_pdf: cannot write %s\n", path);
			exit(1);
		}
	}
	free(bytes);
	return len;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3;
	static er_data d;
	static pdf_print p;
	char err[256] = "";
	json_object *print = json_object_from_file("templates/er/print.json");
	json_object *specs = json_object_from_file("templates/er/specialists.json");
	json_object *sheet = json_object_from_file("templates/er/sheet.json");
	if (er_fixture_load(&d) != 0 || !print || !specs || !sheet ||
	    pdf_print_from_json(&p, print, sheet, specs, err, sizeof err) != 0 ||
	    pdf_print_slim_fonts(&p, "build/bench", err, sizeof err) != 0) {
		fprintf(stderr, "bench_pdf: %s\n", err);
		return 1;
	}
	json_object_put(print);
	json_object_put(specs);
	json_object_put(sheet);

	size_t one = render(&d, &p, 1, "build/bench/pad-1.pdf");
	size_t hundred = render(&d, &p, 100, "build/bench/pad-100.pdf");

	/* one-page documents, back to back, for `seconds` */
	int n = 0;
	double t0 = now(), t1;
	do {
		render(&d, &p, 1, NULL);
		n++;
	} while ((t1 = now()) - t0 < seconds);
	printf("sheets_per_second %.1f\n", n / (t1 - t0));
	printf("ms_per_sheet_document %.3f\n", (t1 - t0) * 1e3 / n);

	/* the 100-page pad: median of 7 */
	double runs[7];
	for (int i = 0; i < 7; i++) {
		double a = now();
		render(&d, &p, 100, NULL);
		runs[i] = now() - a;
	}
	qsort(runs, 7, sizeof runs[0], cmp);
	printf("ms_pad_100 %.1f\n", runs[3] * 1e3);
	printf("ms_per_page_in_pad %.3f\n", runs[3] * 1e3 / 100);
	printf("bytes_sheet_1 %zu\n", one);
	printf("bytes_pad_100 %zu\n", hundred);
	return 0;
}
