# locate: Makefile
# Targets:
#   make run       install what is missing, build, and show locate against a simulated receiver
#   make test      install what is missing, then run every test (unit and end to end)
#   make build     release build with a static Swift runtime: .build/release/locate
#   make install   install locate into $(PREFIX)/bin (PREFIX=/usr/local by default)
#   make tracks    regenerate the bundled NMEA tracks in Scripts/tracks
#   make clean     remove build products

PREFIX ?= /usr/local
RELEASE := .build/release/locate

.PHONY: run test build install tracks clean bootstrap

bootstrap:
	@Scripts/bootstrap

build: bootstrap
	swift build -c release --static-swift-stdlib --product locate

run: build
	@Scripts/demo $(RELEASE)

test: bootstrap
	swift build --build-tests
	swift test --skip-build --disable-xctest

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(RELEASE) $(DESTDIR)$(PREFIX)/bin/locate

tracks:
	Scripts/make-tracks

clean:
	swift package clean
