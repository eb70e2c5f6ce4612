# Quick start on a fresh Debian machine:
#   make run    installs what is missing, builds, runs the main job (Linear Road on a generated
#               dataset, validated against the reference implementation)
#   make test   installs what is missing, builds, runs every test
BUILD ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)

# Debian bookworm packages the build and the tests need.
PACKAGES := cmake ninja-build g++ pkg-config \
            libtbb-dev libconcurrentqueue-dev libyaml-cpp-dev \
            googletest libgtest-dev libgmock-dev libbenchmark-dev \
            graphviz gnuplot-nox clang-format liblzma-dev xz-utils libmimalloc-dev zlib1g-dev \
            nats-server libnats-dev libboost-dev chromium libjs-chart.js \
            clang-14 libclang-rt-14-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps configure build run test test-sanitize test-tsan fuzz bench format clean

all: build

# Idempotent: installs only the packages that are missing.
deps:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

# Line tables only (-g1) in the optimised build with debug information: what perf and stack
# traces need, and a third less compile time than full debug information on 2 cores. The test
# files are compiled at -O1 without debug information (CWF_TEST_OPTIONS): they are more than
# half of the build, and so one compiles in 60 % of the time (a failed check names its file and
# line without it; the sanitizers' build keeps line tables for their traces). What they test is
# built at -O2 -g1 like the programs.
configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCWF_TEST_OPTIONS="-O1;-g0" >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: the Linear Road workflow on a generated dataset (one expressway, ten simulated
# minutes, a fixed seed), validated against the reference implementation's answers. Every file
# goes to $(DEMO) and is rewritten on each run.
DEMO ?= $(BUILD)/lr-demo
run: build
	@echo "== dataset: cwf lr generate --xways 1 --minutes 10 --seed 1 --out $(DEMO)"
	@./$(BUILD)/cwf lr generate --xways 1 --minutes 10 --seed 1 --out $(DEMO) | sed -n '3,6p'
	@echo "== reference implementation (cwf lr reference)"
	@./$(BUILD)/cwf lr reference --input $(DEMO)/input.dat --out $(DEMO)/expected.out
	@echo "== workflow (cwf lr run, workflows/linear_road.yaml)"
	@./$(BUILD)/cwf lr run --input $(DEMO)/input.dat --out $(DEMO)/answers.out
	@echo "== validation: the workflow's answers against the reference's (cwf lr validate)"
	@./$(BUILD)/cwf lr validate --expected $(DEMO) --actual $(DEMO)/answers.out

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# Address and undefined-behaviour sanitizers over the whole suite, with assertions on. Built with
# clang, with line tables only (-g1: what the sanitizers' stack traces need): GCC 12
# took twice as long to compile the same instrumented code, and the build is most of the stage's
# time on 2 cores. The same build carries libFuzzer's coverage counters, so `make fuzz` reuses
# its libraries instead of compiling everything a third time. The benchmarks are not built here;
# the plain build compiles them. Tests that replay whole datasets or every cut check a smaller
# sample under the sanitizers (tests/sanitizer_build.hpp), which make code 10 to 30 times slower.
# The libraries the tests compute in are built at -O1 (CWF_LIBRARY_OPTIONS), the tests, the fuzz
# targets' own files and the network and command-line libraries at -O0: running the suite was
# most of the stage, and -O1 more than doubles a test file's compile time.
SANITIZE_CONFIGURE = cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g1" -DCWF_SANITIZE=address,undefined \
  -DCWF_LIBRARY_OPTIONS=-O1 -DCWF_FUZZ=ON >/dev/null
test-sanitize: deps
	@$(SANITIZE_CONFIGURE)
	@cmake --build $(ASAN_BUILD) -j $(JOBS) --target cwf_tests
	ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

# ThreadSanitizer over the tests that run actors on several threads (multi-worker scheduled
# director, threaded director, pause/resume, broker overlays and GSM workflow units on two
# workers, the NATS client's threads and the process links' credits, the network actors' event
# loop, workflows sharing workers, the server's workflows with their views, feeds and changes made
# while they run). The build compiles only the test files that hold them (CWF_THREAD_TESTS_ONLY,
# the list in tests/CMakeLists.txt); the filters pick those tests out of each file.
# moodycamel's queue synchronises with fences, which the sanitizer does not model: tsan.supp
# names those accesses. -O1 with line tables: the sanitizer's recommended level, less than half
# the build time of -O2 -g.
TSAN_RUN = TSAN_OPTIONS="suppressions=$(CURDIR)/tsan.supp halt_on_error=1"
test-tsan: deps
	@cmake -S . -B $(TSAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCWF_SANITIZE=thread \
	  -DCWF_THREAD_TESTS_ONLY=ON >/dev/null
	@cmake --build $(TSAN_BUILD) -j $(JOBS) --target cwf_tests
	$(TSAN_RUN) $(TSAN_BUILD)/tests/schedulers_tests
	$(TSAN_RUN) $(TSAN_BUILD)/tests/net_tests
	$(TSAN_RUN) $(TSAN_BUILD)/tests/runtime_tests --gtest_filter='*Director*:*Punctuation*:*Composite*:*LargeBursts*:*SharedWorkers*'
	$(TSAN_RUN) $(TSAN_BUILD)/tests/pubsub_tests --gtest_filter='*BrokerActor*:*Nats*:*Process*'
	$(TSAN_RUN) $(TSAN_BUILD)/tests/gsm_tests --gtest_filter='*WfuActors*:*WfuNats*'
	$(TSAN_RUN) $(TSAN_BUILD)/tests/cli_tests --gtest_filter='RestApi*:LiveView*'

# libFuzzer targets (fuzz/, docs/fuzzing.md), one per parser of user input, built in the
# sanitizers' build (clang, AddressSanitizer and UndefinedBehaviorSanitizer, coverage counters),
# each run for FUZZ_SECONDS; prints the executions per target and fails when one found a crash, a
# leak, undefined behaviour or a hang.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := workflow_loader expression json_value lr_input gsm_model eca_rules \
                guards_dependencies snapshot_reader window_state actor_state rest_api \
                record_decoder server_access process_link_message
fuzz: deps
	@$(SANITIZE_CONFIGURE)
	@cmake --build $(ASAN_BUILD) -j $(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS))
	fuzz/run.sh $(ASAN_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

bench: BUILD_TYPE = Release
bench: BUILD = build-release
bench: build
	./build-release/bench/engine_throughput --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
	./build-release/bench/scheduler_overhead
	./build-release/bench/lr_throughput
	./build-release/bench/overload_memory
	./build-release/bench/checkpoint_cost
	./build-release/bench/workflow_priorities
	lscpu | grep "Model name"
	./build-release/bench/parallel_scaling

format:
	@git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) build-release
