/* libFuzzer target: arbitrary bytes as a spreadsheet saved as CSV, through import_parse (the
 * parser the import route uses, without the database); invariants in fuzz_import.h. An input
 * whose first line starts with '?' gives the mapping on that line, as the query would:
 * "?columns|dates|game" (each part may be empty: the proposed mapping); else the mapping
 * proposed from the header. Corpus: tests/fuzz/corpus/csv/ (see corpus/README.md). */
#include "fuzz_import.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char parts[3][256] = {{0}};
	const char *set[3] = {NULL, NULL, NULL};
	size_t skip = 0;
	if (size > 0 && data[0] == '?') {
		const uint8_t *nl = memchr(data, '\n', size);
		size_t end = nl ? (size_t)(nl - data) : size;
		size_t at = 1;
		for (int k = 0; k < 3 && at <= end; k++) {
			size_t n = 0;
			while (at < end && data[at] != '|' && n < sizeof parts[k] - 1)
				parts[k][n++] = data[at] ? (char)data[at] : ' ', at++;
			while (at < end && data[at] != '|')
				at++;
			at++;
			set[k] = n ? parts[k] : NULL;
		}
		skip = nl ? end + 1 : size;
	}
	fz_import_mapped(IMPORT_CSV, data + skip, size - skip, set[0], set[1], set[2]);
	return 0;
}
