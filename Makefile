# locate: Makefile
# Targets:
#   make run        install what is missing, build, and show locate against simulated receivers
#   make test       install what is missing, then run every test (unit and end to end)
#   make build      release build with a static Swift runtime: .build/release/locate
#   make bench      compare locate with gpspipe and the Python gps client (time to a fix, memory)
#   make install    install locate, its man page and completions under $(PREFIX) (default /usr/local)
#   make generated  rewrite Scripts/locate.1 and Scripts/completions/ from the help tables
#   make corpus     opt-in: check the decoder against gpsd's regression logs in $(CORPUS)
#   make tracks     regenerate the bundled NMEA tracks in Scripts/tracks
#   make clean      remove build products

PREFIX ?= /usr/local
CORPUS ?= ../shared/corpus/gpsd-logs
RELEASE := .build/release/locate

.PHONY: run test build bench corpus install generated tracks clean bootstrap

bootstrap:
	@Scripts/bootstrap

build: bootstrap
	swift build -c release --static-swift-stdlib --product locate

run: build
	@Scripts/demo $(RELEASE)

test: bootstrap
	swift build --build-tests
	swift test --skip-build --disable-xctest

bench: build
	@Scripts/bench $(RELEASE)

corpus: build
	@Scripts/corpus-check $(CORPUS) $(RELEASE)

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 0755 $(RELEASE) $(DESTDIR)$(PREFIX)/bin/locate
	install -m 0644 Scripts/locate.1 $(DESTDIR)$(PREFIX)/share/man/man1/locate.1
	install -m 0644 Scripts/completions/locate.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/locate
	install -m 0644 Scripts/completions/_locate $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_locate
	install -m 0644 Scripts/completions/locate.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/locate.fish

generated:
	swift build --build-tests
	LOCATE_UPDATE_GENERATED=1 swift test --skip-build --disable-xctest --filter GeneratedFilesTests

tracks:
	Scripts/make-tracks

clean:
	swift package clean
