# The two commands of the README, plus the pieces they are made of.
BUILD ?= build
JOBS ?= 2
DB ?= data/errdex.db
# clang, not gcc: the matcher gives the same answers in 0.91-0.95 of the
# time (bench/match/compilers.sh); the scan takes about as long.
C_COMPILER ?= clang
CXX_COMPILER ?= clang++

.PHONY: deps build run test fuzz bench clean

deps:
	@scripts/deps.sh

build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_COMPILER=$(C_COMPILER) -DCMAKE_CXX_COMPILER=$(CXX_COMPILER) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@scripts/run.sh $(BUILD)/errdex $(DB)

test: build
	@scripts/test.sh $(BUILD)

fuzz: deps
	@scripts/fuzz.sh

clean:
	rm -rf $(BUILD) build-fuzz
