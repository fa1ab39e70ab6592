# PKRelay: `make run` starts the relay on built-in defaults; `make test` runs the whole suite.
SWIFT ?= swift
CONFIG ?=

.PHONY: all build release run test test-browser deps test-deps clean loadtest fuzz soak idle-sessions

all: build

deps:
	@Tools/scripts/install-deps.sh build

test-deps:
	@Tools/scripts/install-deps.sh test

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product pkrelay

# Runs the relay in the foreground on loopback (ws://127.0.0.1:7700/rtc, http://127.0.0.1:7710).
# Pass a configuration with `make run CONFIG=Config/pkrelay.yaml`.
run: release
	$$($(SWIFT) build -c release --show-bin-path)/pkrelay serve $(if $(CONFIG),--config $(CONFIG),)

# The cluster walkthrough of docs/CLUSTER.md (three relays, PostgreSQL, ffmpeg, with the
# document's own sleeps and durations) runs on its own after the rest: run beside the other
# end-to-end suites it has failed to decode its first watch.
# The end-to-end suites run on two media shards (rooms spread, forwards cross shards) with the
# UDP offloads (GSO, GRO), send-only sockets and connected plain sockets where the kernel has
# them, then again on one shard without any of them. Each run has a deadline far above its usual length (under three
# minutes): a hung test
# fails the run with the tests still going and the threads' backtraces (test-bounded.sh).
test: test-deps test-sdk
	$(SWIFT) build --build-tests
	Tools/scripts/test-bounded.sh 900 $(SWIFT) test --skip-build --skip ClusterWalkthroughTests
	PKR_TEST_MEDIA_THREADS=1 PKR_TEST_MEDIA_GSO=off PKR_TEST_MEDIA_GRO=off PKR_TEST_MEDIA_SEND_ONLY_SOCKETS=false PKR_TEST_MEDIA_CONNECTED_SOCKETS=false Tools/scripts/test-bounded.sh 600 $(SWIFT) test --skip-build --filter PKRelayServerTests --skip ClusterWalkthroughTests
	Tools/scripts/test-bounded.sh 300 $(SWIFT) test --skip-build --filter ClusterWalkthroughTests

# The browser demo in headless Chromium (Debian's chromium, chromium-driver, python3-selenium),
# inside a network namespace with only loopback (publish, watch, simulcast layer switches, a PK,
# reconnection after the control connections are cut; all through the web SDK), then publishing and
# watching over ICE-TCP with UDP to the WebRTC port dropped (nftables), then over IPv6 with IPv4 to
# the WebRTC port dropped, then transport-wide congestion
# feedback as Chromium's estimator sees it (with against without, and behind a rate cap) and the relay's estimate of a
# Chromium viewer behind a downlink cap: kept out of `make test` because it needs root
# for the namespace and a ~300 MB browser install. See Tests/Interop/BROWSER.md.
test-browser: test-deps test-sdk
	@Tools/scripts/install-deps.sh browser
	$(SWIFT) build --product pkrelay
	$(SWIFT) build --product pkrelay-impair
	SWIFT=$(SWIFT) Tools/scripts/test-browser.sh
	SWIFT=$(SWIFT) Tools/scripts/test-browser-tcp.sh
	SWIFT=$(SWIFT) Tools/scripts/test-browser-ipv6.sh
	SWIFT=$(SWIFT) Tools/scripts/test-browser-congestion.sh

# The web SDK's logic under node's built-in test runner (Tests/SDK, no browser): request
# bookkeeping and timeouts, typed events, redirects, token refresh, reconnection on a scripted
# clock, and docs/SDK.md checked against pkrelay.d.ts, pkrelay.js and docs/PROTOCOL.md.
.PHONY: test-sdk
test-sdk:
	node --test Tests/SDK/*.test.mjs

# Builds release binaries, starts a relay on free ports, runs a 30 s pk-showroom against it with
# pkrelay-traffic, writes loadtest-report.json and stops the relay. More options: LOADTEST_ARGS='--rooms 10'.
LOADTEST_ARGS ?=
loadtest: deps
	SWIFT=$(SWIFT) Tools/scripts/loadtest.sh --scenario pk-showroom --duration 30s --report loadtest-report.json $(LOADTEST_ARGS)

# Coverage-guided fuzzing with libFuzzer: builds pkrelay-fuzz in .build-fuzz, runs each target for
# FUZZ_SECONDS on a scratch copy of Fuzz/Corpus/<target>, prints executions and coverage, and fails
# on any crash. FUZZ_TARGETS=rtp,rtcp picks targets. See docs/TESTING.md.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz: deps
	SWIFT=$(SWIFT) FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TARGETS=$(FUZZ_TARGETS) Tools/scripts/fuzz.sh

# Soak: a release relay under pkrelay-traffic's churn scenario (audience joining and leaving,
# forwards and PK links starting and stopping) for SOAK_DURATION (30m); fails when the relay died,
# still holds anything once the clients have gone, or grew in RSS or descriptors. Writes
# soak-report.json. More: SOAK_ROOMS, SOAK_AUDIENCE, SOAK_WARMUP (see Tools/scripts/soak.sh).
SOAK_DURATION ?= 30m
soak: deps
	SWIFT=$(SWIFT) SOAK_DURATION=$(SOAK_DURATION) Tools/scripts/soak.sh

# Memory per idle control session: 10 000 WebSocket sessions held against a release relay (joined
# to 100 rooms, then only connected); fails above 100 KiB of relay RSS per session. Writes
# idle-sessions-report.json (see Tools/scripts/idle-sessions.sh).
idle-sessions: deps
	SWIFT=$(SWIFT) Tools/scripts/idle-sessions.sh

clean:
	rm -rf .build
