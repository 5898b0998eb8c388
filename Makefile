# Dice Hospital companion — build, run, test, bench.
# `make run` and `make test` are the two commands of the README; everything else serves them.

CC       ?= cc
BUILD    ?= build
PORT     ?= 8080
SAN      ?=
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
CFLAGS   += -std=c17 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
            -Wvla -fno-common -Isrc -I/usr/include/postgresql $(SAN)
# Leagues: libxml2 reads BoardGameGeek plays XML.
CFLAGS   += -I/usr/include/libxml2
LDFLAGS  += $(SAN)
LDLIBS   := -lmicrohttpd -ljson-c -lpq -lhpdf -lsodium -lpthread -lm
LDLIBS   += -lxml2 # leagues: BGG plays XML import
# printable PDFs: QR codes
LDLIBS   += -lqrencode
# the phone front end: static files are sent gzip-compressed with zlib (src/http/static.c)
LDLIBS   += -lz
# members' names: Unicode white space, NFC and case folding (src/base/names.c)
LDLIBS   += -lunistring
# the server's allocator: jemalloc (src/base/alloc.c says why); the sanitizer builds keep
# their own runtime's malloc
MALLOC_LIB := $(if $(SAN),,-ljemalloc)

SRC_ALL   := $(sort $(shell find src -name '*.c'))
RULES_SRC := $(filter src/rules/% src/json/%,$(SRC_ALL))
APP_SRC   := $(filter-out src/main.c $(RULES_SRC),$(SRC_ALL))
RULES_OBJ := $(RULES_SRC:src/%.c=$(BUILD)/obj/%.o)
APP_OBJ   := $(APP_SRC:src/%.c=$(BUILD)/obj/%.o)
UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
# test_er_*.c / test_json_*.c link the pure rules library only; the others the whole app.
UNIT_RULES := $(filter tests/unit/test_er_% tests/unit/test_json_%,$(UNIT_SRC))
# Dice Hospital and Clinic scorekeepers: rules library only too.
UNIT_RULES += $(filter tests/unit/test_dh_% tests/unit/test_clinic_%,$(UNIT_SRC))
UNIT_APP   := $(filter-out $(UNIT_RULES),$(UNIT_SRC))
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
# The real server with a minimal extra kind of game that only the tests register (tests/engine/).
ENGINE_TEST_BIN := $(BUILD)/tests/server_tally

# Debian packages the build, the suite and `make run` need.
DEB_PKGS := build-essential clang clang-format libclang-rt-14-dev libmicrohttpd-dev libjson-c-dev \
            libpq-dev libhpdf-dev libsodium-dev postgresql postgresql-contrib postgresql-common \
            python3 curl wrk nginx poppler-utils qpdf nodejs chromium
# printable PDFs: QR codes, the embedded font; tests decode QR codes and render with gs
DEB_PKGS += libqrencode-dev fonts-dejavu-core zbar-tools ghostscript
# API tests validate every response against static/openapi.json (tests/api/contract.py)
DEB_PKGS += python3-jsonschema
# hostile clients: openssl makes the HTTPS test's throwaway certificate; iproute2
# lets `make run` print the LAN address
DEB_PKGS += openssl iproute2
# leagues: BoardGameGeek plays XML import
DEB_PKGS += libxml2-dev
# the phone front end: zlib for gzip-compressed static files
DEB_PKGS += zlib1g-dev
# members' names compared as Unicode says (white space, NFC, case folding): libunistring
DEB_PKGS += libunistring-dev
# the server's allocator: jemalloc (src/base/alloc.c)
DEB_PKGS += libjemalloc-dev
# the BG Stats export read as published readers read it: R's jsonlite, pandas
# (tests/api/test_export_readers.py)
DEB_PKGS += r-cran-jsonlite python3-pandas

.PHONY: all run stop deps print-deps print-ldlibs migrate backup restore test unit bench format format-check clean fuzz asan tsan stress test-patroni
all: $(BUILD)/server $(UNIT_BIN) $(ENGINE_TEST_BIN)

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/librules.a: $(RULES_OBJ)
	@rm -f $@; ar rcs $@ $^
$(BUILD)/libapp.a: $(APP_OBJ)
	@rm -f $@; ar rcs $@ $^

$(BUILD)/server: $(BUILD)/obj/main.o $(BUILD)/libapp.a $(BUILD)/librules.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(MALLOC_LIB)

$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $< $(if $(filter $<,$(UNIT_APP)),$(BUILD)/libapp.a) \
	    $(BUILD)/librules.a $(LDFLAGS) $(LDLIBS)
$(UNIT_APP:tests/unit/%.c=$(BUILD)/tests/%): $(BUILD)/libapp.a

# tests/engine/tally_kind.c defines the route table, so the linker leaves routes.o out.
$(ENGINE_TEST_BIN): tests/engine/tally_kind.c $(BUILD)/obj/main.o $(BUILD)/libapp.a $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/obj/main.o $(BUILD)/libapp.a $(BUILD)/librules.a \
	    $(LDFLAGS) $(LDLIBS) $(MALLOC_LIB)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

deps:
	@sh src/scripts/deps.sh $(DEB_PKGS)

print-deps: # the package list, for .ci/run and docker/
	@echo $(DEB_PKGS)

print-ldlibs: # the libraries the app links, for tests/fuzz/build.sh
	@echo $(LDLIBS)

# Serves on http://localhost:$(PORT); with no DATABASE_URL, a private cluster under var/.
run: deps $(BUILD)/server
	@sh src/scripts/run.sh $(BUILD)/server $(PORT)

stop:
	@sh src/scripts/devdb.sh stop

migrate: $(BUILD)/server
	@sh src/scripts/run.sh $(BUILD)/server $(PORT) migrate

# A pg_dump of DATABASE_URL (or the private cluster) into var/backups/; restore it with
# `make restore FILE=var/backups/….dump [TARGET=conninfo]` (README "Backups").
backup:
	@sh src/scripts/backup.sh

restore:
	@sh src/scripts/restore.sh "$(FILE)" "$(TARGET)"

test: deps
	@sh tests/run.sh

# Every unit test, each under a time limit (tests/lib/unit.sh): any crash, sanitizer report,
# leak, timeout or failed check fails the target, naming the binary.
unit: $(UNIT_BIN)
	@sh -c '. tests/lib/unit.sh && unit_run "$$@"' unit $(UNIT_BIN)

asan:
	$(MAKE) BUILD=build/asan CC=clang OPT=-O1 \
	    SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" all

# ThreadSanitizer: the server and the unit tests with every data race reported (tests/run.sh).
tsan:
	$(MAKE) BUILD=build/tsan CC=clang OPT=-O1 SAN="-fsanitize=thread -fno-omit-frame-pointer" all

# The stress test of tests/api/test_stress.py for 5 minutes with 16 clients, on the
# ThreadSanitizer build (a race, a crash, a 5xx or a changed answer fails it).
STRESS_SECONDS ?= 300
stress: deps tsan
	@STRESS_SECONDS=$(STRESS_SECONDS) STRESS_CLIENTS=16 \
	    TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1" \
	    pg_virtualenv -t python3 tests/api/run.py build/tsan/server test_stress

fuzz:
	@sh tests/fuzz/build.sh

# Automatic failover (README "High availability with Patroni"): etcd and two Patroni nodes from
# Debian's packages on loopback, the leader killed twice under writes (tests/ha/). Not part of
# `make test`; its packages are installed for this target only.
HA_DEB_PKGS := patroni python3-etcd etcd-server
test-patroni: deps $(BUILD)/server
	@sh src/scripts/deps.sh $(HA_DEB_PKGS)
	@python3 tests/ha/check_compose.py -q
	@python3 tests/ha/patroni_failover.py $(BUILD)/server

bench: deps $(BUILD)/server
	@SERVER=$(BUILD)/server sh tests/bench/run.sh

FMT_FILES = $(shell find src tests -name '*.[ch]' -not -path '*/node_modules/*')
format:
	clang-format -i $(FMT_FILES)
format-check:
	@clang-format --dry-run --Werror $(FMT_FILES) && echo "format ok"

clean:
	rm -rf build
