/* libFuzzer target: arbitrary bytes as a BG Stats JSON export, through import_parse (the
 * parser the import route uses, without the database); invariants in fuzz_import.h. Corpus:
 * tests/fuzz/corpus/bgstats/ (real files, see corpus/README.md). */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_import(IMPORT_BGSTATS, data, size);
	return 0;
}
