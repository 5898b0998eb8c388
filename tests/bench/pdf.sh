#!/bin/sh
# PDF benchmark: blank ER sheets per second and the time of a 100-page pad with our
# libharu renderer (build/bench/bench_pdf, in process), next to headless Chromium printing an
# HTML page of the same sheet (tests/bench/pdf_sheet_html.py) in the same run; PDF sizes.
# Targets: ≥ 50× faster than Chromium per page; a blank sheet page ≤ 60 KB.
set -eu
cd "$(dirname "$0")/../.."
make -s build/libapp.a build/librules.a
mkdir -p build/bench
cc -std=c17 -D_GNU_SOURCE -O2 -Isrc -Itests/unit tests/bench/bench_pdf.c build/libapp.a \
	build/librules.a -lhpdf -lqrencode -ljson-c -lm -o build/bench/bench_pdf
CHROMIUM="chromium --headless --no-sandbox --disable-gpu --no-first-run \
--disable-background-networking --disable-component-update --disable-sync --no-pdf-header-footer"

now_ms() { date +%s%3N; }
chromium_ms() { # chromium_ms PAGES RUNS: median wall time of printing the HTML page, ms
	python3 tests/bench/pdf_sheet_html.py "$1" "build/bench/sheet-$1.html"
	i=0
	while [ $i -lt "$2" ]; do
		t0=$(now_ms)
		$CHROMIUM --print-to-pdf="build/bench/chromium-$1.pdf" \
			"file://$PWD/build/bench/sheet-$1.html" >/dev/null 2>&1
		echo $(($(now_ms) - t0))
		i=$((i + 1))
	done | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

echo "## PDF: blank ER sheets ($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo '$ build/bench/bench_pdf 3'
build/bench/bench_pdf 3 | tee build/bench/pdf.txt
c1=$(chromium_ms 1 3)
c100=$(chromium_ms 100 1) # one run: ~3 min of a loaded 2-core machine
val() { sed -n "s/^$1 //p" build/bench/pdf.txt; }
pages=$(pdfinfo build/bench/chromium-100.pdf | sed -n 's/^Pages: *//p')
csize1=$(stat -c %s build/bench/chromium-1.pdf)
csize100=$(stat -c %s build/bench/chromium-100.pdf)
echo "chromium_ms_sheet_1 $c1"
echo "chromium_ms_pad_100 $c100 ($pages pages)"
echo
awk -v sps="$(val sheets_per_second)" -v ms1="$(val ms_per_sheet_document)" \
	-v ms100="$(val ms_pad_100)" -v b1="$(val bytes_sheet_1)" -v b100="$(val bytes_pad_100)" \
	-v c1="$c1" -v c100="$c100" -v cb1="$csize1" -v cb100="$csize100" 'BEGIN {
	printf "| | libharu (ours) | headless Chromium | ratio |\n|---|---|---|---|\n"
	printf "| one blank sheet (a whole document) | %.2f ms (%.0f sheets/s) | %d ms | %.0f× |\n", ms1, sps, c1, c1 / ms1
	printf "| 100-page pad | %.1f ms | %d ms | %.0f× |\n", ms100, c100, c100 / ms100
	printf "| per page in the pad | %.3f ms | %.1f ms | %.0f× |\n", ms100 / 100, c100 / 100, c100 / ms100
	printf "| PDF size, 1 sheet | %.1f KB | %.1f KB | |\n", b1 / 1024, cb1 / 1024
	printf "| PDF size per page, 100-page pad | %.1f KB | %.1f KB | |\n", b100 / 102400, cb100 / 102400
}'
awk -v ms100="$(val ms_pad_100)" -v c100="$c100" -v b1="$(val bytes_sheet_1)" 'BEGIN {
	r = c100 / ms100
	printf "VERDICT | a PDF page ≥ 50 × faster than headless Chromium | %.0f × | %s |\n", r, (r >= 50 ? "met" : "NOT met")
	printf "VERDICT | a blank sheet ≤ 60 KB | %.1f KB | %s |\n", b1 / 1024, (b1 <= 60 * 1024 ? "met" : "NOT met")
}'
