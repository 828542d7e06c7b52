# paimon_fdw: PGXS build of the extension, plus the core library's own tests.
#
#   make && make install        the extension (needs pg_config); WERROR=1 makes
#                               any compiler warning an error (CI builds so)
#   make check-unit             core unit tests + fuzz corpus replay, no Postgres
#   make installcheck           pg_regress tests against a running server
#   make fuzz                   libFuzzer harnesses (clang)
#
# Source lists are wildcards: a new file in src/<layer>/ is built without
# touching this file. Only src/fdw/ sees Postgres headers.

MODULE_big = paimon_fdw
EXTENSION = paimon_fdw
DATA = paimon_fdw--0.1.sql
PGFILEDESC = "paimon_fdw - foreign data wrapper for Apache Paimon tables"

CORE_SRCS := $(sort $(wildcard src/common/*.c src/io/*.c src/codec/*.c \
	src/format/*.c src/format/*/*.c src/row/*.c src/index/*.c src/table/*.c src/lsm/*.c))
FDW_SRCS := $(sort $(wildcard src/fdw/*.c))
OBJS = $(CORE_SRCS:.c=.o) $(FDW_SRCS:.c=.o)

CORE_LIBS = -lzstd -lsnappy -llz4 -lz -ljansson -luring -lroaring
SHLIB_LINK += $(CORE_LIBS)
# export only what Postgres looks up (see the file)
SHLIB_LINK += -Wl,--version-script=paimon_fdw.map
PG_CPPFLAGS += -Isrc
# header dependencies: a changed header rebuilds the objects that include it
PG_CFLAGS += -std=gnu11 -MMD -MP
ifeq ($(WERROR),1)
PG_CFLAGS += -Werror
endif
EXTRA_CLEAN = $(OBJS:.o=.d)

REGRESS = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql)))
REGRESS_OPTS = --inputdir=. --load-extension=paimon_fdw

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)
ifneq ($(PGXS),)
include $(PGXS)
endif
-include $(OBJS:.o=.d)

# ---------------------------------------------------------------------------
# The core without Postgres: unit tests and fuzz replay. Compiled with no
# Postgres include path, so a stray #include "postgres.h" fails here.
# ---------------------------------------------------------------------------
UNIT_CC ?= clang
# -fno-sanitize-recover: undefined behaviour aborts the test like a crash
# instead of printing a line and carrying on.
SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all
UNIT_CFLAGS ?= -std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter \
	$(SANITIZE) -fno-omit-frame-pointer -Isrc -Itest/unit
UNIT_BUILD = build/unit-$(notdir $(UNIT_CC))
UNIT_CORE_OBJS = $(patsubst %.c,$(UNIT_BUILD)/%.o,$(CORE_SRCS))
UNIT_TESTS = $(patsubst test/unit/%.c,$(UNIT_BUILD)/%,$(sort $(wildcard test/unit/test_*.c)))
UNIT_HELPERS = $(patsubst %.c,$(UNIT_BUILD)/%.o,$(sort $(filter-out test/unit/test_%.c,$(wildcard test/unit/*.c))))
FUZZ_TARGETS = $(patsubst test/fuzz/fuzz_%.c,%,$(sort $(wildcard test/fuzz/fuzz_*.c)))

$(UNIT_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(UNIT_CC) $(UNIT_CFLAGS) -MMD -MP -c $< -o $@

$(UNIT_BUILD)/libpaimon.a: $(UNIT_CORE_OBJS)
	rm -f $@ && ar rcs $@ $^

$(UNIT_BUILD)/test_%: test/unit/test_%.c $(UNIT_HELPERS) $(UNIT_BUILD)/libpaimon.a
	$(UNIT_CC) $(UNIT_CFLAGS) -MMD -MP $< $(UNIT_HELPERS) $(UNIT_BUILD)/libpaimon.a $(CORE_LIBS) -lcmocka -lm -o $@

# Header dependencies (-MMD): a changed header rebuilds the objects using it.
-include $(UNIT_CORE_OBJS:.o=.d) $(UNIT_HELPERS:.o=.d) $(UNIT_TESTS:=.d)

# Replays every file of test/fuzz/corpus/<target>/ through fuzz_<target>.c.
$(UNIT_BUILD)/replay_%: test/fuzz/fuzz_%.c test/fuzz/replay_driver.c $(UNIT_BUILD)/libpaimon.a
	$(UNIT_CC) $(UNIT_CFLAGS) $< test/fuzz/replay_driver.c $(UNIT_BUILD)/libpaimon.a $(CORE_LIBS) -lm -o $@

.PHONY: check-unit unit-build fuzz check-fuzz-replay
unit-build: $(UNIT_TESTS) $(patsubst %,$(UNIT_BUILD)/replay_%,$(FUZZ_TARGETS))

check-unit: unit-build
	@export PAIMON_CORPUS=$${PAIMON_CORPUS:-$(CURDIR)/../shared/corpus}; fail=0; \
	for t in $(UNIT_TESTS); do echo "== $$t"; $$t || { echo "FAILED: $$t"; fail=1; }; done; \
	for f in $(FUZZ_TARGETS); do echo "== replay $$f"; \
		$(UNIT_BUILD)/replay_$$f test/fuzz/corpus/$$f || { echo "FAILED: replay $$f"; fail=1; }; done; \
	exit $$fail

FUZZ_CC ?= clang
FUZZ_BUILD = build/fuzz
fuzz: $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_TARGETS))
$(FUZZ_BUILD)/fuzz_%: test/fuzz/fuzz_%.c $(CORE_SRCS)
	@mkdir -p $(FUZZ_BUILD)
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer $(SANITIZE) -Isrc $< $(CORE_SRCS) $(CORE_LIBS) -lm -o $@

clean-unit:
	rm -rf build
# the export list is linked into the library
paimon_fdw.so: paimon_fdw.map
