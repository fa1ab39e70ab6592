# PKRelay: `make run` starts the relay on built-in defaults; `make test` runs the whole suite.
SWIFT ?= swift
CONFIG ?=

.PHONY: all build release run test deps test-deps clean

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

test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	rm -rf .build
