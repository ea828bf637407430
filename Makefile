# The two commands of the README, plus the pieces they are made of.
BUILD ?= build
JOBS ?= 2
DB ?= data/errdex.db
# clang, not gcc: the matcher gives the same answers in 0.91-0.95 of the
# time (bench/match/compilers.sh); the scan takes about as long.
C_COMPILER ?= clang
CXX_COMPILER ?= clang++

.PHONY: deps test-deps build run test fuzz bench clean

# What building and running need; `make test` adds the test-only tools
# (browser, peers, valgrind, the Python packages whose tracebacks it reads).
deps:
	@scripts/deps.sh

test-deps:
	@scripts/deps.sh test

build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_COMPILER=$(C_COMPILER) -DCMAKE_CXX_COMPILER=$(CXX_COMPILER) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@scripts/run.sh $(BUILD)/errdex $(DB)

test: test-deps build
	@scripts/test.sh $(BUILD)

fuzz: test-deps
	@scripts/fuzz.sh

clean:
	rm -rf $(BUILD) build-fuzz
