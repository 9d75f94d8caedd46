# The two commands of the README. Both run the idempotent setup first.
CARGO ?= cargo
# Lavapipe widths that give subgroup sizes 4, 8 and 16.
LAVAPIPE_WIDTHS ?= 128 256 512

.PHONY: setup demo test lint build

setup:
	./scripts/setup

build: setup
	$(CARGO) build --release --locked

demo: build
	./target/release/wavekit check

lint: setup
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets --locked -- -D warnings

test: lint
	$(CARGO) test --locked
