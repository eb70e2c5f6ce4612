#!/usr/bin/env bash
# Runs each fuzz target for SECONDS, then prints a table of what ran: executions, executions per
# second, inputs added to the corpus, peak memory and the verdict. Exits 1 when a target found a
# crash, undefined behaviour, a leak, a hang (an input running longer than 10 s; 60 s for the
# guards) or ran out of memory; the input that did it is kept in BUILD/fuzz/artifacts/<target>/.
#   fuzz/run.sh BUILD SECONDS TARGET...
# BUILD/fuzz/corpus/<target>/ keeps what the fuzzer learnt from one run to the next; the seeds are
# written afresh from the repository's files each time (fuzz/seed_corpora.sh).
set -uo pipefail
build=$(cd "${1:?usage: fuzz/run.sh BUILD SECONDS TARGET...}" && pwd) || exit 1
seconds=${2:?usage: fuzz/run.sh BUILD SECONDS TARGET...}
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$build/fuzz
"$root/fuzz/seed_corpora.sh" "$work/seeds" >/dev/null || exit 1

# Per target: the longest input tried and the dictionaries it uses (fuzz/dict/).
max_len_of() {
  case $1 in
    lr_input) echo 128 ;;
    expression) echo 1024 ;;
    json_value) echo 4096 ;;
    *) echo 8192 ;;
  esac
}
# Seconds after which an input counts as a hang. Guard synthesis stops at a work limit of a
# second at most in the release build (actors/guards/guard_work_limit.hpp), which the instrumented
# build takes up to 40 times longer to reach.
timeout_of() {
  case $1 in
    guards_dependencies) echo 60 ;;
    *) echo 10 ;;
  esac
}
dicts_of() {
  case $1 in
    workflow_loader) echo yaml workflow expression ;;
    gsm_model) echo yaml gsm_model expression ;;
    eca_rules) echo yaml eca_rules expression ;;
    guards_dependencies) echo yaml guards_dependencies ;;
    json_value | rest_api | record_decoder) echo json ;;
    window_state | actor_state | process_link_message) echo snapshot_reader ;;
    *) echo "$1" ;;
  esac
}
stat_of() {  # stat_of LOG NAME: a line "stat::NAME: VALUE" of libFuzzer's final statistics
  sed -n "s/^stat::$2: *//p" "$1" | tail -1
}

failed=0
rows=()
for target in "$@"; do
  mkdir -p "$work/corpus/$target" "$work/artifacts/$target" "$work/logs"
  dict=$work/dict/$target.dict
  mkdir -p "$work/dict"
  for d in $(dicts_of "$target"); do cat "$root/fuzz/dict/$d.dict"; done >"$dict"
  log=$work/logs/$target.log
  echo "== fuzz_$target for $seconds s (log: $log)"
  # A hung target is stopped by libFuzzer's -timeout; the outer timeout only guards the driver.
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    timeout $((seconds + 300)) "$build/fuzz/fuzz_$target" \
    -max_total_time="$seconds" -timeout="$(timeout_of "$target")" -rss_limit_mb=2048 \
    -detect_leaks=1 -max_len="$(max_len_of "$target")" -dict="$dict" -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/$target/" \
    "$work/corpus/$target" "$work/seeds/$target" </dev/null >"$log" 2>&1
  status=$?
  verdict=ok
  if [ $status -ne 0 ]; then
    failed=1
    finding=$(grep -m1 -oE '(ERROR|SUMMARY): [A-Za-z]+Sanitizer: .*|ERROR: libFuzzer: .*|runtime error: .*' "$log")
    artifact=$(sed -n 's/.*Test unit written to //p' "$log" | tail -1)
    verdict="FAILED (exit $status): ${finding:-see the log} ${artifact:+-> $artifact}"
    grep -E 'runtime error|ERROR|SUMMARY|#[0-9]+ 0x' "$log" | head -30
  fi
  rows+=("$(printf '%-20s %8s %12s %8s %6s %8s  %s' "$target" "$seconds" \
    "$(stat_of "$log" number_of_executed_units)" "$(stat_of "$log" average_exec_per_sec)" \
    "$(stat_of "$log" new_units_added)" "$(stat_of "$log" peak_rss_mb)" "$verdict")")
done

echo
printf '%-20s %8s %12s %8s %6s %8s  %s\n' target seconds executions exec/s new "RSS MB" verdict
for row in "${rows[@]}"; do echo "$row"; done
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
exit $failed
