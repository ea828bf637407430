# The two commands of the README, plus the pieces they are made of.
BUILD ?= build
JOBS ?= 2
DB ?= data/errdex.db

.PHONY: deps build run test fuzz bench clean

deps:
	@scripts/deps.sh

build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@scripts/run.sh $(BUILD)/errdex $(DB)

test: build
	@scripts/test.sh $(BUILD)

fuzz: deps
	@scripts/fuzz.sh

clean:
	rm -rf $(BUILD) build-fuzz
