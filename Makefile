# nbridge — `make run` runs the sample app, `make test` runs every test.
# Both install the Debian packages they need when missing (as root: apt-get update once, then install).

SWIFT ?= swift
BIN := .build/debug/nbridge
APT_PACKAGES := pkg-config libjavascriptcoregtk-4.1-dev libglib2.0-dev libsqlite3-dev libx11-dev libxfixes-dev \
	libwebkit2gtk-4.1-dev fonts-dejavu-core xvfb xclip dunst dbus dbus-bin dbus-x11 systemd python3 python3-xlib \
	openbox xdotool x11-utils python3-dbus python3-gi xdg-utils desktop-file-utils util-linux iproute2 strace \
	libssl-dev gnome-keyring lintian rpm appstream binutils geoclue-2.0 xdg-desktop-portal xdg-desktop-portal-gtk \
	x11-apps imagemagick

DENO := .build-tools/venv/bin/deno

# The Swift driver leaves an empty TemporaryDirectory.XXXXXX (a `.keep-directory` inside) in
# TMPDIR for each compiler job it runs (~50 a build from scratch): the builds here keep theirs
# under .build, which `make clean` removes, instead of littering /tmp.
SWIFT_BUILD = mkdir -p .build/tmp && TMPDIR=$(CURDIR)/.build/tmp $(SWIFT) build

.PHONY: deps deno build run test lint-js bench fuzz docs format clean install

deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# Deno (from PyPI) type-checks a TypeScript file against `nbridge types` in the tests.
deno: $(DENO)
$(DENO):
	python3 -m venv .build-tools/venv
	.build-tools/venv/bin/pip install --quiet deno

build: deps
	$(SWIFT_BUILD) --product nbridge

run: build
	$(BIN) run www/index.js

# `make install PREFIX=/usr/local` (and DESTDIR=): the release nbridge, which links Swift's runtime
# statically, so it runs where no Swift is installed; `nbridge bundle` packages apps with it.
PREFIX ?= /usr/local
install: deps
	$(SWIFT_BUILD) -c release --product nbridge
	install -D -m 0755 .build/release/nbridge $(DESTDIR)$(PREFIX)/bin/nbridge

# One process per test target: a process has one loop (BridgeActor's executor), and the
# plugin targets' tests drive it with a loop thread of their own. Listed longest first: `make test`
# starts them in this order, TEST_JOBS at a time, so the short ones run beside the long ones.
# TEST_TARGETS_ALONE type into and click on windows with xdotool (file choosers, menus, the
# tray): a dialog that is still being built on a loaded machine loses the keys, so these run
# after the others, one at a time, with nothing beside them.
TEST_TARGETS := CLITests PackageTests AppCommandTests InstallCommandTests NBridgeNotificationTests NBridgeRuntimeTests \
	NBridgeAppTests NBridgePasteboardTests NBridgeLocationTests \
	NBridgeWindowTests NBridgeBackgroundTests NBridgeFSTests NBridgeSystemTests NBridgeModuleSyntaxTests \
	NBridgePluginTests NBridgeAppSetupTests NBridgeLogTests NBridgeStorageTests NBridgeBuiltinsTests \
	NBridgeAutostartTests
TEST_TARGETS_ALONE := NBridgeWindowServiceTests NBridgeDialogTests NBridgeMenuTests NBridgeTrayTests NBridgeShortcutTests
TEST_JOBS ?= 4

# The prelude's JavaScript files: Deno's formatter and linter (deno.json), checked by `make test`.
lint-js: deno
	$(DENO) fmt --check
	$(DENO) lint

# Each test target (and the JS tests) runs as the first process of a PID namespace of its own
# where the machine allows one: whatever its tests start (Xvfb, dbus-daemon, dunst, xclip's
# background half, WebKit's helpers) ends with it even when the test process dies before its
# clean-up, so nothing is left holding the terminal's or CI's output. That first process is
# `sh`, which reaps orphans as init does. A target still running after TEST_TIMEOUT seconds
# is stopped and counted as failed.
#
# The targets and the JS tests run side by side, TEST_JOBS at a time (make -j), each one's output
# printed together when it ends (--output-sync). The test bundle is run directly, not through
# `swift test`, which holds a lock on .build that would run them one after another; the bundle
# has Swift Testing tests only (`--testing-library swift-testing`).
TEST_TIMEOUT ?= 1200
ISOLATE := unshare --pid --fork --kill-child --mount-proc
# The tests need two products: the `nbridge` executable they run and the test bundle. Built by
# name, not with `--build-tests` (every product of the package), the build leaves out what no
# test runs: the three benchmark executables, which `make bench` builds (~15 s of CPU in CI's
# build), and the dependencies' package plugins (`make docs`'s).
TEST_BUNDLE_PRODUCT := nbridgePackageTests
TEST_BUNDLE := .build/debug/$(TEST_BUNDLE_PRODUCT).xctest
TEST_FAILED := .build/test-failed

# CI (CI=true, as .ci/run and CI services set it) builds once, from scratch: each module compiled
# whole (one frontend per module, which type-checks its files once; -num-threads 1 keeps the
# object per file SwiftPM links) takes ~25% less CPU than the batch mode an incremental
# `swift build` uses. On a developer's tree different flags would make the next plain
# `swift build --build-tests` compile everything again, so `make test` there builds as they do.
# Debug information is line tables only: a crash's backtrace in the log keeps its files and
# lines, and the build writes no variable and type information nobody reads there (~8 s of CPU).
# The module interface comes out of that one frontend too (-no-emit-module-separately-wmo): the
# driver's separate job for it type-checked every module's declarations a second time (~18 s
# of CPU and ~8 s of the build's time on two cores).
TEST_BUILD_FLAGS ?= $(if $(CI),-Xswiftc -wmo -Xswiftc -num-threads -Xswiftc 1 -Xswiftc -gline-tables-only \
	-Xswiftc -no-emit-module-separately-wmo)

test: deps deno lint-js
	$(SWIFT_BUILD) --product nbridge $(TEST_BUILD_FLAGS)
	$(SWIFT_BUILD) --product $(TEST_BUNDLE_PRODUCT) $(TEST_BUILD_FLAGS)
	@isolate=""; if $(ISOLATE) true 2>/dev/null; then isolate="$(ISOLATE)"; \
	else echo "make test: no PID namespace here; a test that crashes may leave what it started running"; fi; \
	rm -rf $(TEST_FAILED) $(TEST_CPU); mkdir -p $(TEST_CPU); \
	$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target test-each RUN_ISOLATED="$$isolate"; \
	$(MAKE) --no-print-directory -j1 test-alone RUN_ISOLATED="$$isolate"; \
	if [ -s $(TEST_FAILED) ]; then echo "make test failed in:$$(tr '\n' ' ' < $(TEST_FAILED))"; exit 1; fi

# What `make test` runs side by side (it builds first); a failure is written to TEST_FAILED. The
# namespace's `sh` writes the CPU seconds of what it reaped (`times`: the target's process and
# everything it started) to TEST_CPU/<name>, which the "== <name>: N s" line reports.
TEST_CPU := .build/test-cpu
TEST_RUN = timeout --foreground -k 10 $(TEST_TIMEOUT) $(RUN_ISOLATED) \
	sh -c '"$$@"; s=$$?; times > $(TEST_CPU)/$$0; exit $$s'
# "N s, CPU M s" for a name TEST_RUN ran (user + system of its reaped processes).
TEST_TOOK = $$(( $$(date +%s) - start )) s, CPU $$(awk 'NR == 2 { split($$0, t, /[ms ]+/); \
	printf "%.0f", t[1] * 60 + t[2] + t[3] * 60 + t[4] }' $(TEST_CPU)/$(1) 2>/dev/null) s
.PHONY: test-each test-alone test-js $(addprefix test-target-,$(TEST_TARGETS) $(TEST_TARGETS_ALONE))
test-each: $(addprefix test-target-,$(TEST_TARGETS)) test-js
test-alone: $(addprefix test-target-,$(TEST_TARGETS_ALONE))

$(addprefix test-target-,$(TEST_TARGETS) $(TEST_TARGETS_ALONE)): test-target-%:
	@echo "== swift test: $*"; start=$$(date +%s); \
	NBRIDGE_DENO=$(CURDIR)/$(DENO) $(TEST_RUN) $* $(TEST_BUNDLE) --testing-library swift-testing --filter '^$*\.' \
		|| echo "$*" >> $(TEST_FAILED); \
	echo "== $*: $(call TEST_TOOK,$*)"

# Each JS test may take 30 s (`nbridge test`'s default is 5): the side-by-side targets load the machine.
test-js:
	@echo "== nbridge test Tests/js"; start=$$(date +%s); \
	$(TEST_RUN) js $(BIN) test --test-timeout 30000 Tests/js || echo "Tests/js" >> $(TEST_FAILED); \
	echo "== Tests/js: $(call TEST_TOOK,js)"

# The bridge fuzzer (Tests/fuzz/bridge-fuzz.js) for FUZZ_SECONDS instead of `make test`'s bounded
# run: a random seed, or NBRIDGE_FUZZ_SEED=N to replay one; NBRIDGE_FUZZ_EXCLUDE=a,b sets the
# categories of input left out (BridgeFuzzTests.excluded says which and why).
FUZZ_SECONDS ?= 600
fuzz: deps
	$(SWIFT_BUILD) --build-tests
	NBRIDGE_FUZZ_SECONDS=$(FUZZ_SECONDS) $(SWIFT) test --skip-build --filter 'CLITests.BridgeFuzzTests/randomSeed'

# Deno is a peer in the benchmark: PyPI's `deno` package ships the binary; without it the
# Deno figures are null. BENCH_JSON=FILE also writes the figures as JSON.
bench: APT_PACKAGES += time nodejs python3-venv gcc
bench: deps
	@$(MAKE) --no-print-directory deno || echo "bench: deno not installed (its figures will be null)"
	$(SWIFT_BUILD) -c release --product nbridge
	$(MAKE) --no-print-directory $(JSC_HELLO)
	$(SWIFT_BUILD) -c release --product nbridge-bench
	$(SWIFT_BUILD) -c release --product nbridge-bench-calls
	$(SWIFT_BUILD) -c release --product nbridge-bench-webview
	DENO_BIN=$(CURDIR)/$(DENO) .build/release/nbridge-bench

# The start-up floor (jsc_c_startup_ms): a bare C program that creates a JavaScriptCore context
# and evaluates the same hello as nbridge; plain cc against the same library, no Swift.
JSC_HELLO := .build/release/jsc-hello
$(JSC_HELLO): Benchmarks/JSCHello/jsc-hello.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -o $@ $< $$(pkg-config --cflags --libs javascriptcoregtk-4.1)

# The plugin API's documentation: NBridgePlugin's DocC catalog (Sources/NBridgePlugin/NBridgePlugin.docc)
# and its symbols, as a static site in .build/docs (swift-docc-plugin; no network).
docs: deps
	$(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation --target NBridgePlugin \
		--disable-indexing --transform-for-static-hosting --output-path .build/docs
	@echo "docs: .build/docs (open .build/docs/documentation/nbridgeplugin/index.html through a web server)"

format: deno
	$(SWIFT) format --in-place --recursive Package.swift Sources Plugins Tests Benchmarks BuildTools
	$(DENO) fmt

clean:
	rm -rf .build
