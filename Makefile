# locate: Makefile
# Targets (plain `make` prints this list; only run, test and bootstrap install packages):
#   make run        install what is missing, build, and show locate against simulated receivers
#   make test       install what is missing, then run every test (unit and end to end)
#   make bootstrap  install the Debian packages that are missing (Scripts/bootstrap; sudo when not root)
#   make build      release build with a static Swift runtime: .build/release/locate
#   make format     format Sources, Tests and Package.swift with swift format (.swift-format)
#   make lint       fail on any difference from the format or any lint finding (.ci/run runs it)
#   make docs       build the libraries' documentation (DocC) into .build/docs; fail on an undocumented symbol
#   make bench      locate beside gpspipe, the Python gps client, C libgps clients and a Swift start (the floor)
#   make install    install locate, its man pages, completions and systemd user units under $(PREFIX) (default /usr/local);
#                   NAME=gps-locate installs them under that name (beside plocate)
#   make uninstall  remove what make install put there (the same PREFIX, DESTDIR and NAME)
#   make generated  rewrite Scripts/man/ and Scripts/completions/ from the help tables
#   make order      rewrite Scripts/locate.order, the link order of the hot functions (needs valgrind)
#   make corpus     opt-in: check the decoder against gpsd's regression logs in $(CORPUS)
#   make interop    opt-in: a real Home Assistant 2024.3.3 (from PyPI, a throwaway venv) through publish, a revoke and a re-allow
#   make tracks     regenerate the bundled NMEA tracks in Scripts/tracks
#   make clean      remove build products

PREFIX ?= /usr/local
CORPUS ?= ../shared/corpus/gpsd-logs
RELEASE := .build/release/locate
PEERS := .build/bench-peers

.PHONY: help run test build docs bench order corpus interop install install-files uninstall generated tracks clean bootstrap format lint upcoming

help:
	@sed -n '2,/^$$/p' Makefile | sed 's/^# \{0,1\}//'

bootstrap:
	@Scripts/bootstrap

FORMATTED := Sources Tests Package.swift

format:
	swift format format --in-place --recursive $(FORMATTED)

lint: upcoming
	swift format lint --strict --recursive $(FORMATTED)
	Scripts/check-layers

# The libraries, and the fleet (which no library depends on), build with the concurrency
# features Swift is moving to (a nonisolated async function runs on its caller's actor unless
# @concurrent; conformances take their type's isolation; a member is visible only where its
# module is imported), in a build directory of their own. They are not shipped built so: with NonisolatedNonsendingByDefault, Swift 6.3 makes a
# host's @MainActor witness of AuthorizationPrompter.ask nonisolated (swiftlang/swift#86944).
UPCOMING := NonisolatedNonsendingByDefault InferIsolatedConformances MemberImportVisibility
upcoming:
	@for library in $(LIBRARIES) LocateFleet; do \
		swift build --target $$library --scratch-path .build/upcoming \
			$(foreach feature,$(UPCOMING),-Xswiftc -enable-upcoming-feature -Xswiftc $(feature)) || exit 1; \
	done

# A static Swift runtime, a non-PIE executable (no relocations to apply at each start), no
# $ORIGIN run path, libstdc++ and the unwinder from GCC's archives (Scripts/link: the Swift
# runtime calls 18 of libstdc++'s symbols, and loading libstdc++.so cost more than the rest of
# a --once), and the hot functions linked side by side (each function in a section of its own,
# in the order of Scripts/locate.order, written by make order) so a run faults in few pages of
# the binary. ldd lists libm, libc and the loader. The binary exports no symbol (its .dynsym holds
# only imports: --no-export-dynamic, after the static runtime's -export-dynamic): the Swift
# runtime's dladdr at each start (it looks for swift-backtrace beside itself) scanned our own
# 3,661 exported Swift symbols, 96,000 instructions (callgrind) and 240 KiB of resident pages of
# a --once. A stripped install (make install) then has no symbol names at all. Generic types'
# metadata comes from their accessors, not from mangled names the runtime demangles at each start
# (46 of them were 690,000 of a --once's 2.36 M instructions, two scanning every protocol
# conformance of the binary for a dictionary key's Hashable).
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -Xclang-linker -Xswiftc -no-pie \
	-Xswiftc -L -Xswiftc $(CURDIR)/Scripts/link -Xswiftc -use-ld=lld -Xlinker --no-export-dynamic \
	-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
ORDER_FLAGS := -Xlinker --symbol-ordering-file=$(CURDIR)/Scripts/locate.order \
	-Xlinker --no-warn-symbol-ordering

build:
	swift build $(RELEASE_FLAGS) $(ORDER_FLAGS) --product locate

run: bootstrap build
	@Scripts/demo $(RELEASE)

# Tests run in parallel, suites too (each test has its own gpsd, settings home and files); at
# most TEST_WIDTH at a time, so that tests waiting on deadlines are not starved of CPU. Most of
# a test's time is waiting (for gpsd's cycle, a broker, a deadline): on 2 cores, 12 at a time
# ran the suite in 73-94 s with 102-125 s of CPU (three runs in a row in a clean clone: 93.5 s,
# the first, which builds the place index, then 85.6 and 80.6 s).
TEST_WIDTH ?= 12
test: bootstrap
	swift build --build-tests
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) swift test --skip-build --disable-xctest

# The libraries' documentation, offline, one catalog per library: the symbol graphs (in a build
# directory of their own, so the flags do not rebuild the main one), every public symbol
# documented, and DocC without a warning.
LIBRARIES := GPSLocation GPSLocationConsent GPSLocationPlaces GPSLocationMQTT GPSDService GeoClueAgent
SYMBOL_GRAPHS := .build/symbol-graphs
docs:
	@rm -rf .build/docs && mkdir -p $(SYMBOL_GRAPHS) .build/docs
	@# A module compiled earlier emits no graph again: without every graph, compile them all afresh.
	@for library in $(LIBRARIES); do [ -f $(SYMBOL_GRAPHS)/$$library.symbols.json ] || rm -rf .build/docs-build; done
	@for library in $(LIBRARIES); do \
		swift build --target $$library --scratch-path .build/docs-build \
			-Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/$(SYMBOL_GRAPHS) || exit 1; \
	done
	@for library in $(LIBRARIES); do \
		Scripts/doc-coverage $(SYMBOL_GRAPHS)/$$library.symbols.json || exit 1; \
		mkdir -p $(SYMBOL_GRAPHS)/$$library && cp $(SYMBOL_GRAPHS)/$$library.symbols.json $(SYMBOL_GRAPHS)/$$library/; \
		docc convert Sources/$$library/$$library.docc --additional-symbol-graph-dir $(SYMBOL_GRAPHS)/$$library \
			--output-path .build/docs/$$library --fallback-display-name $$library \
			--fallback-bundle-identifier org.locate.$$library --warnings-as-errors || exit 1; \
		echo "docs: $$library in .build/docs/$$library"; \
	done
	@echo "docs: serve .build/docs/<library> with any static web server, or open it in Xcode"

# Not part of make test: it installs Home Assistant from PyPI (minutes, the first time) and runs it (about a minute).
interop:
	swift build --product locate
	Scripts/interop .build/debug/locate

bench: build
	@mkdir -p $(PEERS)
	swift build --product locate
	cc -O2 -o $(PEERS)/poll-once Scripts/bench-peers/poll-once.c -lgps -lm
	cc -O2 -o $(PEERS)/poll-once-static Scripts/bench-peers/poll-once.c -l:libgps.a -l:libdbus-1.so.3 -lm
	cc -O2 -o $(PEERS)/read-loop Scripts/bench-peers/read-loop.c -lgps -lm
	cc -O2 -o $(PEERS)/read-loop-json Scripts/bench-peers/read-loop-json.c -lgps -lm
	cc -O2 -o $(PEERS)/raw-client Scripts/bench-peers/raw-client.c
	swift build $(RELEASE_FLAGS) --package-path Scripts/bench-peers/swift-start --scratch-path $(PEERS)/swift-start-build
	cp $(PEERS)/swift-start-build/release/swift-start $(PEERS)/swift-start
	@Scripts/bench $(RELEASE) $(PEERS) .build/debug/locate

# Developer tool: rewrite Scripts/locate.order from the hot paths of an unordered build (needs valgrind).
order:
	swift build $(RELEASE_FLAGS) --product locate --scratch-path .build/unordered
	Scripts/order-hot-functions .build/unordered/release/locate Scripts/locate.order

corpus: build
	@Scripts/corpus-check $(CORPUS) $(RELEASE)

# NAME installs the command under another name (gps-locate beside plocate): the binary, its man
# page and its completions, all rendered by the installed binary for the name it runs as
# (LOCATE_GENERATE=man|bash|zsh|fish), so every usage line and hint says that name. The binary is
# stripped. `make uninstall` with the same PREFIX, DESTDIR and NAME removes exactly those files.
NAME ?= locate
INSTALLED = $(DESTDIR)$(PREFIX)/bin/$(NAME) \
	$(DESTDIR)$(PREFIX)/share/bash-completion/completions/$(NAME) \
	$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$(NAME) \
	$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$(NAME).fish \
	$(DESTDIR)$(PREFIX)/share/systemd/user/$(NAME)-serve.service \
	$(DESTDIR)$(PREFIX)/share/systemd/user/$(NAME)-agent.service

install: build install-files

install-files:
	@case "$(NAME)" in ""|*/*|*" "*) echo "NAME must be a plain file name" >&2; exit 64;; esac
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5 \
		$(DESTDIR)$(PREFIX)/share/man/man7 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d \
		$(DESTDIR)$(PREFIX)/share/systemd/user
	install -m 0755 -s $(RELEASE) $(DESTDIR)$(PREFIX)/bin/$(NAME)
	LOCATE_GENERATE=man-pages $(DESTDIR)$(PREFIX)/bin/$(NAME) | while read -r page file; do \
		LOCATE_GENERATE=man:$$page $(DESTDIR)$(PREFIX)/bin/$(NAME) > $(DESTDIR)$(PREFIX)/share/man/man$${file##*.}/$$file && \
		chmod 0644 $(DESTDIR)$(PREFIX)/share/man/man$${file##*.}/$$file || exit 1; done
	LOCATE_GENERATE=bash $(DESTDIR)$(PREFIX)/bin/$(NAME) > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$(NAME)
	LOCATE_GENERATE=zsh $(DESTDIR)$(PREFIX)/bin/$(NAME) > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$(NAME)
	LOCATE_GENERATE=fish $(DESTDIR)$(PREFIX)/bin/$(NAME) > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$(NAME).fish
	for unit in serve agent; do \
		sed -e 's|@BINDIR@/locate|$(PREFIX)/bin/$(NAME)|' -e "s|man:locate-$$unit(1)|man:$(NAME)-$$unit(1)|" Scripts/locate-$$unit.service \
			> $(DESTDIR)$(PREFIX)/share/systemd/user/$(NAME)-$$unit.service && \
		chmod 0644 $(DESTDIR)$(PREFIX)/share/systemd/user/$(NAME)-$$unit.service || exit 1; done
	chmod 0644 $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$(NAME) \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$(NAME) $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$(NAME).fish

uninstall:
	@case "$(NAME)" in ""|*/*|*" "*) echo "NAME must be a plain file name" >&2; exit 64;; esac
	@if [ -x $(DESTDIR)$(PREFIX)/bin/$(NAME) ]; then LOCATE_GENERATE=man-pages $(DESTDIR)$(PREFIX)/bin/$(NAME) | \
		while read -r page file; do rm -f $(DESTDIR)$(PREFIX)/share/man/man$${file##*.}/$$file; done; fi
	rm -f $(INSTALLED)

generated:
	swift build --build-tests
	LOCATE_UPDATE_GENERATED=1 swift test --skip-build --disable-xctest --filter GeneratedFilesTests

tracks:
	Scripts/make-tracks

clean:
	swift package clean
