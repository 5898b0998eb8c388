/* libFuzzer target: arbitrary bytes as our league backup (JSON), through import_parse (the
 * parser the import route uses, without the database); invariants in fuzz_import.h. Corpus:
 * tests/fuzz/corpus/backup/ (real files, see corpus/README.md). */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_import(IMPORT_BACKUP, data, size);
	return 0;
}
